// SPDX-License-Identifier: MIT
#pragma once
// A file's bytes, read sequentially in chunks: plain, or gzip (detected by its magic bytes, not by
// the name; concatenated gzip members are read as one stream). Readers never hold a whole file.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "util/result.h"

namespace sutra {

// The message for a file that cannot be opened for reading, from its errno (ENOENT, EISDIR,
// EACCES, ...): the same wording for every reader.
Error openError(const std::string& path, int err);

// A gzip file whose stream decompresses to nothing.
inline constexpr std::string_view kEmptyGzipMessage =
    "empty file: the gzip stream decompresses to no data";

class ByteSource {
 public:
  // Opens `path`; errors: missing file, a directory, no permission, empty file.
  static Result<std::unique_ptr<ByteSource>> open(const std::string& path);
  ~ByteSource();
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  // Reads up to `capacity` bytes of content (decompressed where gzip). Returns the count, 0 at the
  // end; an Error for truncated or corrupt gzip (naming the file and the compressed offset) and
  // for a gzip file that holds no data at all.
  Result<std::size_t> read(char* out, std::size_t capacity);

  bool compressed() const { return gzip_ != nullptr; }
  std::uint64_t fileSize() const { return fileSize_; }
  std::uint64_t fileBytesRead() const { return fileBytesRead_; }  // compressed position
  std::uint64_t contentBytesRead() const { return contentBytesRead_; }
  const std::string& path() const { return path_; }

 private:
  struct Gzip;
  ByteSource() = default;
  Result<std::size_t> readRaw(char* out, std::size_t capacity);

  std::string path_;
  std::FILE* file_ = nullptr;
  std::unique_ptr<Gzip> gzip_;
  std::uint64_t fileSize_ = 0;
  std::uint64_t fileBytesRead_ = 0;
  std::uint64_t contentBytesRead_ = 0;
};

}  // namespace sutra
