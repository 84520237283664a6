// SPDX-License-Identifier: MIT
#pragma once
// The beginning (and, where cheap, the end) of a trace file as text, gunzipped when the file is
// gzip (told by its magic bytes, not its name). This is what the sniffer reads to classify a file
// without loading it: a few kilobytes usually, a few megabytes at most. It reads through the
// readers' ByteSource, so a bad file gets the same message from discovery as from the reader.
#include <cstdint>
#include <memory>
#include <string>

#include "util/result.h"

namespace sutra {

class FileHead {
 public:
  // Errors as ByteSource::open: missing file, a directory, no permission, empty file.
  static Result<FileHead> open(const std::string& path);
  FileHead(FileHead&&) noexcept;
  FileHead& operator=(FileHead&&) noexcept;
  ~FileHead();

  // Appends up to `bytes` more bytes of the file's (decompressed) text to text(). Errors as
  // ByteSource::read: truncated or corrupt gzip, naming the compressed offset.
  Status readMore(std::size_t bytes);
  const std::string& text() const;
  void dropText();     // forgets the text read so far (a tail reader keeps only the end)
  bool atEnd() const;  // the whole (decompressed) file is in text()
  bool gzip() const;
  std::uint64_t fileSize() const;  // on disk (compressed where gzip)

 private:
  struct Impl;
  explicit FileHead(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// The last `bytes` bytes of the file's (decompressed) text. Plain files: one seek. Gzip files can
// only be read from the start, so they are inflated through (keeping only the tail) when they are
// at most `maxGzipBytes` on disk; larger ones give an empty string.
Result<std::string> readFileTail(const std::string& path, std::size_t bytes,
                                 std::uint64_t maxGzipBytes);

}  // namespace sutra
