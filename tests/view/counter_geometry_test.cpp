// SPDX-License-Identifier: MIT
// Counters fold into one column per pixel (the value at the column's start, the lowest and highest
// inside it), and their lanes sit in their process's group of the timeline. (The timeline drawing
// them: tests/widgets/timeline_view_test.cpp.)
#include "view/counter_geometry.h"

#include <gtest/gtest.h>

#include "model/trace_builder.h"
#include "synthetic_trace.h"
#include "view/lane_layout.h"

namespace sutra::view {
namespace {

// Window [0, 100) ns on 10 pixels: 10 ns a column.
TEST(CounterColumns, OneColumnPerPixelWithTheValueInForceAndTheExtremes) {
  const std::vector<std::pair<TimeNs, double>> samples{{-50, 1}, {12, 5}, {15, 2},
                                                       {18, 7},  {41, 3}, {200, 9}};
  const auto columns = counterColumns(samples, {0, 100}, 10);
  ASSERT_EQ(columns.size(), 10u);
  // Column 0 holds the value in force from before the window; column 1 goes 1 -> 5 -> 2 -> 7.
  EXPECT_EQ(columns[0], (CounterColumn{0, 1, 1, 1}));
  EXPECT_EQ(columns[1], (CounterColumn{1, 1, 1, 7}));
  EXPECT_EQ(columns[2], (CounterColumn{2, 7, 7, 7}));
  EXPECT_EQ(columns[3], (CounterColumn{3, 7, 7, 7}));
  EXPECT_EQ(columns[4], (CounterColumn{4, 7, 3, 7}));
  for (int x = 5; x < 10; ++x)
    EXPECT_EQ(columns[std::size_t(x)], (CounterColumn{x, 3, 3, 3}));  // 200 is outside
}

TEST(CounterColumns, NothingBeforeTheFirstSampleAndNothingForAnEmptySeries) {
  const std::vector<std::pair<TimeNs, double>> samples{{55, 4}, {58, 6}};
  const auto columns = counterColumns(samples, {0, 100}, 10);
  ASSERT_EQ(columns.size(), 5u);  // columns 5..9
  EXPECT_EQ(columns[0], (CounterColumn{5, 4, 4, 6}));
  EXPECT_EQ(columns[4], (CounterColumn{9, 6, 6, 6}));
  EXPECT_TRUE(counterColumns({}, {0, 100}, 10).empty());
  EXPECT_TRUE(counterColumns(samples, {0, 50}, 10).empty());  // all samples after the window
}

TEST(CounterColumns, AMillionSamplesFoldIntoTheWidth) {
  std::vector<std::pair<TimeNs, double>> samples;
  for (TimeNs t = 0; t < 1'000'000; ++t) samples.emplace_back(t, double(t % 1000));
  const auto columns = counterColumns(samples, {0, 1'000'000}, 500);
  ASSERT_EQ(columns.size(), 500u);
  // 2000 samples a column, each running through 0..999.
  for (const CounterColumn& c : columns) {
    EXPECT_EQ(c.low, 0);
    EXPECT_EQ(c.high, 999);
  }
}

Trace counterTrace() { return test::makeCounterTrace(); }

TEST(CounterLanes, SitInTheirProcessGroup) {
  const Trace trace = counterTrace();
  const LaneLayout layout = LaneLayout::build(trace, "rank0");
  ASSERT_EQ(layout.counters().size(), 2u);
  ASSERT_EQ(layout.groups().size(), 2u);
  EXPECT_EQ(layout.groups()[0].label, "rank0 / pid 1234");
  EXPECT_EQ(layout.groups()[0].counters, (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(layout.counters()[0].label, "GPU memory/allocated");
  EXPECT_EQ(layout.counters()[0].low, 10);
  EXPECT_EQ(layout.counters()[0].high, 30);
  EXPECT_EQ(layout.groups()[1].label, "rank0 / pid 99");  // counters only
  EXPECT_TRUE(layout.groups()[1].tracks.empty());
}

// Window [0, 100) ns on 10 pixels: marks at 20, 23 and 150 ns are drawn at x 2 and 2.3; the one
// at 150 ns is outside and never hit.
TEST(CounterMarks, TheNearestMarkWithinTheToleranceIsHit) {
  std::vector<CounterMark> marks(3);
  marks[0].time = 20;
  marks[1].time = 23;
  marks[2].time = 150;
  EXPECT_EQ(counterMarkAt(marks, {0, 100}, 10, 2.0, 1.0), 0);
  EXPECT_EQ(counterMarkAt(marks, {0, 100}, 10, 2.3, 1.0), 1);
  EXPECT_EQ(counterMarkAt(marks, {0, 100}, 10, 3.2, 1.0), 1);   // 0.9 px from 23 ns
  EXPECT_EQ(counterMarkAt(marks, {0, 100}, 10, 3.4, 1.0), -1);  // 1.1 px from the nearest
  EXPECT_EQ(counterMarkAt(marks, {0, 100}, 10, 10.0, 100.0), 1);
  EXPECT_EQ(counterMarkAt(marks, {100, 200}, 10, 5.0, 0.5), 2);  // 150 ns: x 5 there
  EXPECT_EQ(counterMarkAt({}, {0, 100}, 10, 2.0, 1.0), -1);
  EXPECT_EQ(counterMarkAt(marks, {0, 0}, 10, 0.0, 1.0), -1);  // an empty window
  EXPECT_EQ(counterMarkAt(marks, {0, 100}, 0, 2.0, 1.0), -1);
}

}  // namespace
}  // namespace sutra::view
