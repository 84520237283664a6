// SPDX-License-Identifier: MIT
#pragma once
// A whole file mapped read-only into memory (mmap): its pages are read from the page cache when
// first touched and can be dropped again by the kernel under memory pressure, so a multi-gigabyte
// file costs only the pages that are used. Shared (std::shared_ptr) by whatever serves views into
// it, which keeps the mapping alive as long as they are.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "util/result.h"

namespace sutra {

// Unmaps the whole pages inside [data, data + bytes) from this process (madvise MADV_DONTNEED).
// For a shared mapping of a file the values stay in the file and come back when touched, so what
// was read or written once no longer counts as resident; memory of no file would lose them.
void unmapFilePages(const void* data, std::size_t bytes);

// Which file (not which name): the device and inode, as fstat(2) gives them.
struct FileId {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  bool operator==(const FileId&) const = default;
};
// The file open at `fd`; nullopt where fstat fails.
std::optional<FileId> fileIdOf(int fd);

class MappedFile {
 public:
  // Maps `path`; errors: cannot open, not a regular file, empty, mmap failed.
  static Result<std::shared_ptr<const MappedFile>> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const char* data() const { return data_; }
  std::size_t size() const { return size_; }
  const std::string& path() const { return path_; }
  // The file mapped (whatever its name has come to mean since).
  FileId id() const { return id_; }

 private:
  MappedFile() = default;
  std::string path_;
  const char* data_ = nullptr;
  std::size_t size_ = 0;
  FileId id_;
};

}  // namespace sutra
