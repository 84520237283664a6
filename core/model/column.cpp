// SPDX-License-Identifier: MIT
#include "model/column.h"

#include <atomic>

namespace sutra {
namespace {
std::atomic<std::uint64_t> copiedColumns{0}, copiedValues{0};
}  // namespace

ColumnCopies mappedColumnCopies() { return {copiedColumns.load(), copiedValues.load()}; }

void countMappedColumnCopy(std::size_t values) {
  copiedColumns.fetch_add(1, std::memory_order_relaxed);
  copiedValues.fetch_add(values, std::memory_order_relaxed);
}

}  // namespace sutra
