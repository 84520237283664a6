// SPDX-License-Identifier: MIT
#include "util/scratch_array.h"

#include <cstdlib>
#include <filesystem>

namespace sutra {

namespace fs = std::filesystem;

std::string sutraCacheFolder() {
  if (const char* dir = std::getenv("SUTRA_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return (fs::path(xdg) / "sutra").string();
  if (const char* home = std::getenv("HOME"); home && *home)
    return (fs::path(home) / ".cache" / "sutra").string();
  return (fs::temp_directory_path() / "sutra-cache").string();
}

std::string scratchFolderMade() {
  std::string folder = sutraCacheFolder();
  std::error_code ec;
  fs::create_directories(folder, ec);
  return folder;
}

std::size_t scratchOnDiskFrom() {
  if (const char* from = std::getenv("SUTRA_SCRATCH_ON_DISK_FROM"); from && *from)
    return static_cast<std::size_t>(std::strtoull(from, nullptr, 10));
  return std::size_t{8} << 20;
}

}  // namespace sutra
