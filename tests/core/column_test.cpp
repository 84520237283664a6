// SPDX-License-Identifier: MIT
// A model column (model/column.h) behaves as a value whatever backs it: a mapped column is read in
// place, and only a change copies it (counted); a copy of it views the same memory; a column built
// in place fills its memory and moves into memory past its capacity.
#include "model/column.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace sutra {
namespace {

std::shared_ptr<std::vector<std::uint32_t>> keeperOf(std::vector<std::uint32_t> values) {
  return std::make_shared<std::vector<std::uint32_t>>(std::move(values));
}

TEST(Column, AMappedColumnIsReadInPlaceAndCopiedOnlyByAChange) {
  auto memory = keeperOf({1, 2, 3});
  const auto copiesBefore = mappedColumnCopies();
  const auto mapped = Column<std::uint32_t>::mapped(memory, memory->data(), memory->size());
  EXPECT_TRUE(mapped.isMapped());
  EXPECT_EQ(mapped.data(), memory->data());
  EXPECT_EQ(mapped.size(), 3u);
  EXPECT_EQ(mapped[2], 3u);
  std::uint32_t sum = 0;
  for (std::uint32_t v : mapped) sum += v;
  EXPECT_EQ(sum, 6u);

  Column<std::uint32_t> copy = mapped;  // views the same values
  EXPECT_TRUE(copy.isMapped());
  EXPECT_EQ(std::as_const(copy).data(), memory->data());
  EXPECT_EQ(mappedColumnCopies().values, copiesBefore.values);

  copy.push_back(4);  // the change copies: the mapping is left as it was
  EXPECT_FALSE(copy.isMapped());
  EXPECT_EQ(copy.size(), 4u);
  EXPECT_EQ(memory->size(), 3u);
  copy[0] = 9;
  EXPECT_EQ((*memory)[0], 1u);
  EXPECT_EQ(mapped[0], 1u);
  EXPECT_EQ(mappedColumnCopies().columns, copiesBefore.columns + 1);
  EXPECT_EQ(mappedColumnCopies().values, copiesBefore.values + 3);
}

TEST(Column, AColumnBuiltInPlaceFillsItsMemoryAndMovesOutPastItsCapacity) {
  auto memory = keeperOf(std::vector<std::uint32_t>(4, 0));
  auto column = Column<std::uint32_t>::inPlace(memory, memory->data(), memory->size());
  EXPECT_TRUE(column.empty());
  const std::uint32_t three[] = {5, 6, 7};
  column.insert(column.end(), three, three + 3);
  column.push_back(8);
  EXPECT_EQ((*memory)[3], 8u);  // in place
  column[0] = 1;
  EXPECT_EQ((*memory)[0], 1u);
  column.push_back(9);  // past the capacity: into memory, the values kept
  EXPECT_NE(column.data(), memory->data());
  EXPECT_EQ(column.toVector(), (std::vector<std::uint32_t>{1, 6, 7, 8, 9}));
}

TEST(Column, InMemoryItBehavesAsAVector) {
  Column<std::uint32_t> column{3, 1, 2};
  column.reserve(10);
  column.emplace_back(4u);
  column.resize(6, 7);
  EXPECT_EQ(column.toVector(), (std::vector<std::uint32_t>{3, 1, 2, 4, 7, 7}));
  std::sort(column.begin(), column.end());
  EXPECT_EQ(column.front(), 1u);
  column.pop_back();
  EXPECT_EQ(column.back(), 7u);
  Column<std::uint32_t> moved = std::move(column);
  EXPECT_EQ(moved.size(), 5u);
  column = moved;  // a copy of a column in memory is a copy
  column[0] = 0;
  EXPECT_EQ(moved[0], 1u);
  column.clear();
  EXPECT_TRUE(column.empty());
}

}  // namespace
}  // namespace sutra
