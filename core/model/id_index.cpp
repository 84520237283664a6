// SPDX-License-Identifier: MIT
#include "model/id_index.h"

#include <algorithm>

namespace sutra {

namespace {
// An id goes in the table when the table would stay at most this many slots per id held, plus a
// fixed allowance: nearly dense ids are tabled, an outlier (1e12) goes to the hash map.
constexpr std::size_t kSlotsPerId = 4;
constexpr std::size_t kAllowance = 1 << 16;
}  // namespace

std::pair<std::uint32_t, bool> IdIndex::insert(std::int64_t id, std::uint32_t position) {
  if (const std::uint32_t at = find(id); at != kNone) return {at, false};
  ++size_;
  const auto at = static_cast<std::uint64_t>(id);
  if (id >= 0 && (at < table_.size() || at < kSlotsPerId * size_ + kAllowance)) {
    if (at >= table_.size())
      table_.resize(std::max<std::size_t>(static_cast<std::size_t>(at) + 1, table_.size() * 3 / 2),
                    kNone);
    table_[static_cast<std::size_t>(at)] = position;
  } else {
    sparse_.emplace(id, position);
  }
  return {position, true};
}

void IdIndex::clear() {
  table_ = {};
  sparse_ = {};
  size_ = 0;
}

std::vector<std::pair<std::int64_t, std::uint32_t>> IdIndex::entries() const {
  std::vector<std::pair<std::int64_t, std::uint32_t>> out;
  out.reserve(size_);
  for (std::size_t id = 0; id < table_.size(); ++id)
    if (table_[id] != kNone) out.emplace_back(static_cast<std::int64_t>(id), table_[id]);
  out.insert(out.end(), sparse_.begin(), sparse_.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sutra
