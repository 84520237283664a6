// SPDX-License-Identifier: MIT
#include "util/page_residency.h"

#include <sys/mman.h>
#include <unistd.h>

namespace sutra {

namespace {

std::uintptr_t pageSize() {
  static const auto page = static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE));
  return page;
}

std::uintptr_t pageOf(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) / pageSize() * pageSize();
}

}  // namespace

PageResidency::PageResidency(const void* begin, const void* end) {
  if (end <= begin) return;
  first_ = pageOf(begin);
  const std::uintptr_t last = pageOf(static_cast<const char*>(end) - 1);
  pages_.assign((last - first_) / pageSize() + 1, 0);
  if (::mincore(reinterpret_cast<void*>(first_), last + pageSize() - first_, pages_.data()) != 0) {
    // Not a mapping mincore can read: nothing is known, and a caller that waited for these pages
    // would wait for ever, so every page counts as held.
    pages_.assign(pages_.size(), 1);
    return;
  }
  for (unsigned char page : pages_) missing_ += (page & 1) ? 0 : 1;
}

bool PageResidency::holds(const void* data, std::size_t bytes) const {
  if (bytes == 0) return true;
  const std::uintptr_t from = pageOf(data);
  const std::uintptr_t to = pageOf(static_cast<const char*>(data) + bytes - 1);
  if (from < first_ || pages_.empty()) return false;
  for (std::uintptr_t p = from; p <= to; p += pageSize()) {
    const std::size_t k = (p - first_) / pageSize();
    if (k >= pages_.size() || !(pages_[k] & 1)) return false;
  }
  return true;
}

bool pagesInMemory(const void* data, std::size_t bytes) {
  if (bytes == 0) return true;
  return PageResidency(data, static_cast<const char*>(data) + bytes).holdsAll();
}

void readPagesAhead(const void* data, std::size_t bytes) {
  if (bytes == 0) return;
  const std::uintptr_t first = pageOf(data);
  const std::uintptr_t end = reinterpret_cast<std::uintptr_t>(data) + bytes;
  ::madvise(reinterpret_cast<void*>(first), end - first, MADV_WILLNEED);
}

}  // namespace sutra
