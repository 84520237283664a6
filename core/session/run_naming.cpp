// SPDX-License-Identifier: MIT
#include "session/run_naming.h"

#include <filesystem>
#include <string_view>
#include <system_error>

namespace sutra {
namespace fs = std::filesystem;

namespace {

// Absolute and without a trailing separator, so that "runs/a/" names "a".
fs::path absoluteOf(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) p = fs::path(path);
  p = p.lexically_normal();
  if (!p.has_filename() && p.has_parent_path()) p = p.parent_path();
  return p;
}

bool isFolder(const std::string& path) {
  std::error_code ec;
  return fs::is_directory(fs::path(path), ec);
}

// One folder opened, or files that all lie in one folder: that folder; else empty.
fs::path commonFolder(const std::vector<std::string>& paths) {
  if (paths.size() == 1 && isFolder(paths.front())) return absoluteOf(paths.front());
  if (paths.size() < 2) return {};
  const fs::path folder = absoluteOf(paths.front()).parent_path();
  for (const std::string& path : paths)
    if (isFolder(path) || absoluteOf(path).parent_path() != folder) return {};
  return folder;
}

}  // namespace

std::string runName(const std::vector<std::string>& paths) {
  if (paths.empty()) return {};
  if (const fs::path folder = commonFolder(paths); !folder.empty())
    return folder.filename().string();
  const std::string first = absoluteOf(paths.front()).filename().string();
  return paths.size() == 1 ? first : first + " (+" + std::to_string(paths.size() - 1) + " more)";
}

std::string runStem(const std::vector<std::string>& paths) {
  if (paths.empty()) return {};
  if (const fs::path folder = commonFolder(paths); !folder.empty())
    return folder.filename().string();
  std::string name = absoluteOf(paths.front()).filename().string();
  for (const std::string_view extension : {".gz", ".json", ".et"})
    if (name.size() > extension.size() && name.ends_with(extension))
      name.resize(name.size() - extension.size());
  return name;
}

std::string runFolder(const std::vector<std::string>& paths) {
  if (paths.empty()) return {};
  if (const fs::path folder = commonFolder(paths); !folder.empty()) return folder.string();
  const fs::path first = absoluteOf(paths.front());
  return isFolder(paths.front()) ? first.string() : first.parent_path().string();
}

std::vector<std::string> runLabels(const std::vector<std::string>& runPaths) {
  std::vector<std::string> labels;
  bool sameName = false;
  for (std::size_t i = 0; i < runPaths.size(); ++i) {
    labels.push_back(runName({runPaths[i]}));
    for (std::size_t j = 0; j < i; ++j)
      sameName = sameName || (labels[j] == labels[i] && !isFolder(runPaths[i]) &&
                              absoluteOf(runPaths[j]) != absoluteOf(runPaths[i]));
  }
  if (!sameName) return labels;
  for (std::size_t i = 0; i < runPaths.size(); ++i)
    if (!isFolder(runPaths[i])) {
      const fs::path file = absoluteOf(runPaths[i]);
      labels[i] = file.parent_path().filename().string() + "/" + file.filename().string();
    }
  return labels;
}

}  // namespace sutra
