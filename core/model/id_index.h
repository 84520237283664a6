// SPDX-License-Identifier: MIT
#pragma once
// Node and op ids to their positions in a vector. Writers number ids densely (ET nodes from 0 or 1
// upwards, ET+ ids from 0), so ids are looked up in a table indexed by id: 4 bytes an id, where an
// unordered_map took ~40 and a heap node each (issue 21: 160,000 ids per 100 MB of ET+). Ids far
// beyond the table (sparse or negative) go to a hash map, so any ids work.
#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sutra {

class IdIndex {
 public:
  static constexpr std::uint32_t kNone = UINT32_MAX;

  // The position of id, or kNone.
  std::uint32_t find(std::int64_t id) const {
    if (id >= 0 && static_cast<std::uint64_t>(id) < table_.size()) {
      if (const std::uint32_t at = table_[static_cast<std::size_t>(id)]; at != kNone) return at;
    }
    if (sparse_.empty()) return kNone;
    const auto it = sparse_.find(id);
    return it == sparse_.end() ? kNone : it->second;
  }
  // Adds id at `position` unless it is there: returns its position and whether it was added.
  std::pair<std::uint32_t, bool> insert(std::int64_t id, std::uint32_t position);
  void clear();
  // Every (id, position), ascending by id.
  std::vector<std::pair<std::int64_t, std::uint32_t>> entries() const;

 private:
  std::vector<std::uint32_t> table_;  // by id: position or kNone
  std::unordered_map<std::int64_t, std::uint32_t> sparse_;
  std::size_t size_ = 0;
};

}  // namespace sutra
