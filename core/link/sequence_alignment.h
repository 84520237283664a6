// SPDX-License-Identifier: MIT
#pragma once
// The fewest-edits alignment of two sequences of symbols (interned op names): which elements match,
// in order, and how many insertions and deletions the rest take. Myers' O((N+M)·D) diff after
// stripping the common prefix and suffix, so two runs of the same iteration (D = 0 or small) align
// in linear time; where D exceeds a cap (ET and Kineto from different programs) a greedy in-order
// match stands in and the result says it is not the minimum.
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace sutra {

struct SequenceAlignment {
  std::vector<std::pair<std::uint32_t, std::uint32_t>>
      matches;            // (index in a, index in b), ascending
  std::size_t edits = 0;  // a.size() + b.size() - 2 * matches.size()
  bool minimal = true;    // false where the edit cap was hit and the greedy fallback was used
};

SequenceAlignment alignSequences(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b,
                                 std::size_t maxEdits = 2048);

}  // namespace sutra
