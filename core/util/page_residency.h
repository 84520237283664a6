// SPDX-License-Identifier: MIT
#pragma once
// Which pages of a file mapped into memory are in memory now, asked without touching them
// (mincore), and a request that the kernel read the rest in the background (madvise
// MADV_WILLNEED). A view drawing from a trace that lies on disk asks first, and draws what it has
// in memory instead of waiting on the disk inside a frame.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sutra {

// The residency of the pages under [begin, end), read once; holds() then answers for any range
// inside it. Where mincore cannot tell (not a mapping), every page counts as held.
class PageResidency {
 public:
  PageResidency(const void* begin, const void* end);
  // Whether every page under [data, data + bytes) is in memory (in the page cache: touching it
  // costs no read from disk). `data` must lie inside the range given to the constructor.
  bool holds(const void* data, std::size_t bytes) const;
  bool holdsAll() const { return missing_ == 0; }

 private:
  std::uintptr_t first_ = 0;  // the first page's address
  std::vector<unsigned char> pages_;
  std::size_t missing_ = 0;
};

// Whether every page under [data, data + bytes) is in memory.
bool pagesInMemory(const void* data, std::size_t bytes);

// Asks the kernel to read the pages under [data, data + bytes) from their file in the background;
// returns at once.
void readPagesAhead(const void* data, std::size_t bytes);

}  // namespace sutra
