// SPDX-License-Identifier: MIT
#include "util/mapped_array.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace sutra {
namespace {

struct Pair {
  std::uint64_t key;
  std::uint32_t value;
};

TEST(MappedArray, GrowsPastSeveralRemapsKeepingEveryValue) {
  MappedArray<Pair> values;
  EXPECT_TRUE(values.empty());
  constexpr std::uint32_t kCount = 300'000;  // 4.8 MB: the 1 MB first mapping grows three times
  for (std::uint32_t i = 0; i < kCount; ++i) values.push_back({kCount - i, i});
  const Pair more[] = {{0, 7}, {0, 8}};
  values.append(more, 2);
  ASSERT_EQ(values.size(), kCount + 2);
  for (std::uint32_t i = 0; i < kCount; i += 997) EXPECT_EQ(values[i].value, i);
  EXPECT_EQ(values[kCount + 1].value, 8u);
  // begin() and end() make it a range for the standard algorithms (the flow ends are sorted so).
  std::sort(values.begin(), values.end(),
            [](const Pair& a, const Pair& b) { return a.key < b.key; });
  EXPECT_EQ(values[2].key, 1u);
  EXPECT_EQ(values[2].value, kCount - 1);
}

TEST(MappedArray, MovesAndDrainsIntoAVector) {
  MappedArray<Pair> source;
  for (std::uint32_t i = 0; i < 100'000; ++i) source.push_back({i, i * 2});
  MappedArray<Pair> moved(std::move(source));
  EXPECT_TRUE(source.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  ASSERT_EQ(moved.size(), 100'000u);
  MappedArray<Pair> assigned;
  assigned.push_back({1, 1});
  assigned = std::move(moved);
  ASSERT_EQ(assigned.size(), 100'000u);

  std::vector<Pair> out = {{9, 9}};
  assigned.drainInto(out);
  EXPECT_TRUE(assigned.empty());
  ASSERT_EQ(out.size(), 100'001u);
  EXPECT_EQ(out[1].value, 0u);
  EXPECT_EQ(out.back().value, 2u * 99'999);

  assigned.push_back({3, 3});  // usable again after a drain, and after clear()
  assigned.clear();
  EXPECT_TRUE(assigned.empty());
  assigned.push_back({4, 4});
  EXPECT_EQ(assigned[0].key, 4u);
}

// The file-backed array a streaming load spills to: its values survive having their pages
// unmapped (they come back from the file), and it leaves no file behind in its folder.
TEST(MappedArray, AFileBackedArrayKeepsItsValuesThroughDroppedPagesAndLeavesNoFile) {
  // A folder of its own: other tests write to the temp directory meanwhile.
  std::string folder = ::testing::TempDir() + "/mapped-array-XXXXXX";
  ASSERT_NE(::mkdtemp(folder.data()), nullptr);
  const auto filesBefore = std::distance(std::filesystem::directory_iterator(folder),
                                         std::filesystem::directory_iterator());
  {
    auto values = MappedArray<Pair>::fileBacked(folder);
    EXPECT_TRUE(values.isFileBacked());
    constexpr std::uint32_t kCount = 200'000;
    for (std::uint32_t i = 0; i < kCount; ++i) {
      values.push_back({i, i + 1});
      if (i % 10'000 == 0) values.dropResidentBefore(values.size());
    }
    values.dropResident(0, values.size());
    for (std::uint32_t i = 0; i < kCount; i += 331) EXPECT_EQ(values[i].value, i + 1);
    std::vector<Pair> out;
    values.drainInto(out);
    ASSERT_EQ(out.size(), kCount);
    EXPECT_EQ(out.back().key, kCount - 1);
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder),
                          std::filesystem::directory_iterator()),
            filesBefore);
  EXPECT_THROW(MappedArray<Pair>::fileBacked("/dev/full/none"), std::runtime_error);
  std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace sutra
