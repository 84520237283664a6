// SPDX-License-Identifier: MIT
#pragma once
// The readers take paths (they stream from disk), so each fuzz input is written to a file of this
// process's own first: the bytes take the same path a real trace does, gzip detection included.
// The file is removed when the process ends.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

namespace sutra::fuzz {

class InputFile {
 public:
  InputFile()
      : path_((std::filesystem::temp_directory_path() /
               ("sutra-fuzz-" + std::to_string(getpid()) + ".bin"))
                  .string()) {}
  ~InputFile() { std::remove(path_.c_str()); }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const std::string& write(const std::uint8_t* data, std::size_t size) {
    if (std::FILE* f = std::fopen(path_.c_str(), "wb")) {
      if (size > 0) std::fwrite(data, 1, size, f);
      std::fclose(f);
    }
    return path_;
  }

 private:
  std::string path_;
};

inline const std::string& writeInput(const std::uint8_t* data, std::size_t size) {
  static InputFile file;
  return file.write(data, size);
}

}  // namespace sutra::fuzz
