// SPDX-License-Identifier: MIT
#pragma once
#include <cstdint>

namespace sutra {

// Where values placed in someone else's file lie (util/mapped_array.h's inFile()): the file's
// descriptor, not owned, and the first byte, a page boundary.
struct FileRegion {
  int fd = -1;
  std::uint64_t offset = 0;
};

}  // namespace sutra
