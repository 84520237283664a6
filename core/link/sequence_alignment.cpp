// SPDX-License-Identifier: MIT
#include "link/sequence_alignment.h"

#include <algorithm>
#include <unordered_map>

namespace sutra {
namespace {

using Matches = std::vector<std::pair<std::uint32_t, std::uint32_t>>;

// Myers' greedy forward search, keeping V after each D for the backtrack. Returns false if more
// than maxEdits edits are needed.
bool myers(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b, std::uint32_t offA,
           std::uint32_t offB, std::size_t maxEdits, Matches& out) {
  const auto n = static_cast<std::int64_t>(a.size());
  const auto m = static_cast<std::int64_t>(b.size());
  const std::int64_t maxD = std::min<std::int64_t>(n + m, static_cast<std::int64_t>(maxEdits));
  const std::int64_t offset = maxD + 1;
  std::vector<std::int64_t> v(static_cast<std::size_t>(2 * maxD + 3), 0);
  // V after each round d, diagonals -d..d, flattened: round d starts at d*d.
  std::vector<std::int32_t> trace;
  std::int64_t found = -1;
  for (std::int64_t d = 0; d <= maxD && found < 0; ++d) {
    for (std::int64_t k = -d; k <= d; k += 2) {
      std::int64_t x;
      if (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]))
        x = v[offset + k + 1];
      else
        x = v[offset + k - 1] + 1;
      std::int64_t y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    // Keep only the diagonals -d..d of this round.
    for (std::int64_t k = -d; k <= d; ++k)
      trace.push_back(static_cast<std::int32_t>(v[offset + k]));
  }
  if (found < 0) return false;
  // Backtrack from (n, m).
  Matches reversed;
  std::int64_t x = n, y = m;
  for (std::int64_t d = found; d >= 0; --d) {
    // V of round dd at diagonal k.
    auto at = [&](std::int64_t dd, std::int64_t k) -> std::int64_t {
      return trace[static_cast<std::size_t>(dd * dd + k + dd)];
    };
    const std::int64_t k = x - y;
    if (d == 0) {
      while (x > 0 && y > 0)
        reversed.emplace_back(static_cast<std::uint32_t>(--x), static_cast<std::uint32_t>(--y));
      break;
    }
    std::int64_t prevK;
    if (k == -d || (k != d && at(d - 1, k - 1) < at(d - 1, k + 1)))
      prevK = k + 1;
    else
      prevK = k - 1;
    const std::int64_t prevX = at(d - 1, prevK);
    const std::int64_t prevY = prevX - prevK;
    // The snake after the edit: diagonal moves back to the edit's end point.
    const std::int64_t startX = prevK == k + 1 ? prevX : prevX + 1;
    const std::int64_t startY = startX - k;
    while (x > startX && y > startY)
      reversed.emplace_back(static_cast<std::uint32_t>(--x), static_cast<std::uint32_t>(--y));
    x = prevX;
    y = prevY;
  }
  for (auto it = reversed.rbegin(); it != reversed.rend(); ++it)
    out.emplace_back(it->first + offA, it->second + offB);
  return true;
}

// In-order greedy matching for sequences too different for the exact search: each element of `a`
// takes the next equal element of `b` within a bounded look-ahead.
void greedy(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b, std::uint32_t offA,
            std::uint32_t offB, Matches& out) {
  constexpr std::size_t kLookAhead = 256;
  std::size_t j = 0;
  for (std::size_t i = 0; i < a.size() && j < b.size(); ++i) {
    const std::size_t limit = std::min(b.size(), j + kLookAhead);
    for (std::size_t k = j; k < limit; ++k) {
      if (b[k] == a[i]) {
        out.emplace_back(static_cast<std::uint32_t>(i) + offA,
                         static_cast<std::uint32_t>(k) + offB);
        j = k + 1;
        break;
      }
    }
  }
}

}  // namespace

SequenceAlignment alignSequences(std::span<const std::uint32_t> a, std::span<const std::uint32_t> b,
                                 std::size_t maxEdits) {
  SequenceAlignment result;
  std::size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix &&
         a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
    ++suffix;
  result.matches.reserve(std::min(a.size(), b.size()));
  for (std::size_t i = 0; i < prefix; ++i)
    result.matches.emplace_back(static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i));
  const auto midA = a.subspan(prefix, a.size() - prefix - suffix);
  const auto midB = b.subspan(prefix, b.size() - prefix - suffix);
  if (!midA.empty() && !midB.empty()) {
    const auto off = static_cast<std::uint32_t>(prefix);
    if (!myers(midA, midB, off, off, maxEdits, result.matches)) {
      greedy(midA, midB, off, off, result.matches);
      result.minimal = false;
    }
  }
  for (std::size_t i = 0; i < suffix; ++i)
    result.matches.emplace_back(static_cast<std::uint32_t>(a.size() - suffix + i),
                                static_cast<std::uint32_t>(b.size() - suffix + i));
  result.edits = a.size() + b.size() - 2 * result.matches.size();
  return result;
}

}  // namespace sutra
