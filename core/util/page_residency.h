// SPDX-License-Identifier: MIT
#pragma once
// Which pages of a file mapped into memory are in memory now, asked without touching them
// (mincore), and a request that the kernel read the rest in the background (madvise
// MADV_WILLNEED). A view drawing from a trace that lies on disk asks first, and draws what it has
// in memory instead of waiting on the disk inside a frame.
#include <cstddef>

namespace sutra {

// Whether every page under [data, data + bytes) is in memory (in the page cache: touching it costs
// no read from disk). Where mincore cannot tell (not a mapping), the pages count as in memory: a
// caller waiting for them would wait for ever.
bool pagesInMemory(const void* data, std::size_t bytes);

// Asks the kernel to read the pages under [data, data + bytes) from their file in the background
// (from a thread of its own, which pays for the allocation); returns at once.
void readPagesAhead(const void* data, std::size_t bytes);

}  // namespace sutra
