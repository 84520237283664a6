// SPDX-License-Identifier: MIT
#include "link/sequence_alignment.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace sutra {
namespace {

using Seq = std::vector<std::uint32_t>;

// Textbook O(N·M) longest common subsequence: the independent reference for the edit count.
std::size_t lcsLength(const Seq& a, const Seq& b) {
  std::vector<std::vector<std::size_t>> t(a.size() + 1, std::vector<std::size_t>(b.size() + 1, 0));
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j)
      t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
  return t[a.size()][b.size()];
}

void expectValid(const Seq& a, const Seq& b, const SequenceAlignment& r) {
  for (std::size_t i = 0; i < r.matches.size(); ++i) {
    EXPECT_EQ(a[r.matches[i].first], b[r.matches[i].second]);
    if (i > 0) {
      EXPECT_LT(r.matches[i - 1].first, r.matches[i].first);
      EXPECT_LT(r.matches[i - 1].second, r.matches[i].second);
    }
  }
  EXPECT_EQ(r.edits, a.size() + b.size() - 2 * r.matches.size());
}

TEST(SequenceAlignment, IdenticalSequencesNeedNoEdits) {
  const Seq a = {1, 2, 3, 2, 1};
  auto r = alignSequences(a, a);
  EXPECT_EQ(r.edits, 0u);
  EXPECT_EQ(r.matches.size(), 5u);
  EXPECT_TRUE(r.minimal);
}

TEST(SequenceAlignment, InsertionsAndDeletions) {
  const Seq a = {1, 2, 3, 4, 5, 6};
  const Seq b = {1, 3, 4, 9, 5, 6, 7};
  auto r = alignSequences(a, b);
  expectValid(a, b, r);
  EXPECT_EQ(r.edits, 3u);  // delete 2, insert 9, insert 7
  EXPECT_TRUE(alignSequences({}, b).matches.empty());
  EXPECT_EQ(alignSequences({}, b).edits, 7u);
}

TEST(SequenceAlignment, MatchesTextbookLcsOnRandomSequences) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::uniform_int_distribution<int> len(0, 40), sym(0, 4);
    Seq a(static_cast<std::size_t>(len(rng))), b(static_cast<std::size_t>(len(rng)));
    for (auto& x : a) x = static_cast<std::uint32_t>(sym(rng));
    for (auto& x : b) x = static_cast<std::uint32_t>(sym(rng));
    auto r = alignSequences(a, b);
    expectValid(a, b, r);
    ASSERT_EQ(r.matches.size(), lcsLength(a, b)) << "round " << round;
  }
}

TEST(SequenceAlignment, FallsBackToGreedyPastTheEditCap) {
  Seq a, b;
  for (std::uint32_t i = 0; i < 100; ++i) a.push_back(i), b.push_back(1000 + i);
  a.push_back(5000);
  b.push_back(5000);
  b.push_back(7);
  auto r = alignSequences(a, b, 10);
  EXPECT_FALSE(r.minimal);
  expectValid(a, b, r);
}

}  // namespace
}  // namespace sutra
