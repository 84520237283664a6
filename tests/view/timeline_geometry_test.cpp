// SPDX-License-Identifier: MIT
#include "view/timeline_geometry.h"

#include <gtest/gtest.h>

#include <random>

#include "model/trace_builder.h"

namespace sutra::view {
namespace {

// A trace with one host lane holding the given (start, dur) events, all at depth 0.
Trace rowTrace(const std::vector<std::pair<TimeNs, TimeNs>>& spans) {
  TraceBuilder b("mem");
  const LaneId lane = b.lane("1", "1");
  const auto cat = static_cast<std::uint16_t>(b.trace().categories.intern("cpu_op"));
  const StringId name = b.trace().names.intern("op");
  for (auto [start, dur] : spans) {
    Event e;
    e.lane = lane;
    e.name = name;
    e.category = cat;
    e.klass = CategoryClass::CpuOp;
    e.start = start;
    e.dur = dur;
    b.addEvent(e);
  }
  return b.finish();
}

// Boxes must cover the row's visible events exactly once, in order, without overlapping.
void expectPartition(const Trace& trace, const LayoutRow& row, const TimeRange& range,
                     const std::vector<TimelineBox>& boxes) {
  std::size_t expectedFirst = row.firstEndingAtOrAfter(range.start);
  for (const auto& box : boxes) {
    ASSERT_EQ(box.first, expectedFirst);
    ASSERT_GE(box.count, 1u);
    ASSERT_LE(box.x0, box.x1);
    expectedFirst = box.first + box.count;
  }
  // Everything after the last box starts after the window.
  for (std::size_t i = expectedFirst; i < row.events.size(); ++i)
    ASSERT_GT(trace.events[row.events[i]].start, range.end - 1) << i;
  for (std::size_t b = 1; b < boxes.size(); ++b) ASSERT_LE(boxes[b - 1].x1, boxes[b].x0 + 1.0f);
}

TEST(TimelineGeometry, MergesSubPixelEventsIntoOneRunThatKeepsTheirCount) {
  std::vector<std::pair<TimeNs, TimeNs>> spans;
  for (int i = 0; i < 1000; ++i) spans.emplace_back(i * 10, 1);  // 1 ns events every 10 ns
  const Trace trace = rowTrace(spans);
  const LaneLayout layout = LaneLayout::build(trace, "");
  std::vector<TimelineBox> boxes;
  buildRowBoxes(trace, layout.rows()[0], 0, {0, 10'000}, 100, boxes);  // 100 ns per pixel
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_EQ(boxes[0].count, 1000u);
  EXPECT_FLOAT_EQ(boxes[0].x0, 0.0f);
  EXPECT_NEAR(boxes[0].x1, 99.91f, 0.01f);  // the last event ends at 9991 ns
}

TEST(TimelineGeometry, DrawsWideEventsOneByOneAndSplitsRunsAroundThem) {
  const Trace trace = rowTrace({{0, 1}, {5, 1}, {10, 500}, {600, 1}, {606, 1}, {2000, 1}});
  const LaneLayout layout = LaneLayout::build(trace, "");
  std::vector<TimelineBox> boxes;
  buildRowBoxes(trace, layout.rows()[0], 0, {0, 2000}, 200, boxes);  // 10 ns per pixel
  ASSERT_EQ(boxes.size(), 4u);
  EXPECT_EQ(boxes[0].count, 2u);  // 0 and 5: within a pixel of each other
  EXPECT_EQ(boxes[1].count, 1u);  // the 500 ns event: 50 px
  EXPECT_FLOAT_EQ(boxes[1].x0, 1.0f);
  EXPECT_FLOAT_EQ(boxes[1].x1, 51.0f);
  EXPECT_EQ(boxes[2].count, 2u);  // 600 and 606
  EXPECT_EQ(boxes[3].count, 1u);  // 2000: alone, at the window's edge
  expectPartition(trace, layout.rows()[0], {0, 2000}, boxes);
}

TEST(TimelineGeometry, SkipsEventsOutsideTheWindowAndClipsTheOnesAcrossItsEdges) {
  const Trace trace = rowTrace({{0, 100}, {200, 1000}, {5000, 100}});
  const LaneLayout layout = LaneLayout::build(trace, "");
  std::vector<TimelineBox> boxes;
  buildRowBoxes(trace, layout.rows()[0], 0, {300, 400}, 1000, boxes);
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_EQ(boxes[0].first, 1u);
  EXPECT_FLOAT_EQ(boxes[0].x0, -2.0f);  // clipped just outside the view
  EXPECT_FLOAT_EQ(boxes[0].x1, 1002.0f);
  boxes.clear();
  buildRowBoxes(trace, layout.rows()[0], 0, {2000, 3000}, 1000, boxes);
  EXPECT_TRUE(boxes.empty());
  buildRowBoxes(trace, layout.rows()[0], 0, {2000, 2000}, 1000, boxes);  // degenerate window
  buildRowBoxes(trace, layout.rows()[0], 0, {0, 6000}, 0, boxes);        // zero width
  EXPECT_TRUE(boxes.empty());
}

TEST(TimelineGeometry, PartitionsRandomRowsAtEveryZoom) {
  std::mt19937_64 random(11);
  std::vector<std::pair<TimeNs, TimeNs>> spans;
  TimeNs t = 1'700'000'000'000'000'000;
  for (int i = 0; i < 5000; ++i) {
    const TimeNs dur = (random() % 10 == 0) ? static_cast<TimeNs>(random() % 100'000)
                                            : static_cast<TimeNs>(random() % 50);
    spans.emplace_back(t, dur);
    t += dur + static_cast<TimeNs>(random() % 300);
  }
  const Trace trace = rowTrace(spans);
  const LaneLayout layout = LaneLayout::build(trace, "");
  const LayoutRow& row = layout.rows()[0];
  ASSERT_EQ(layout.rows().size(), 1u);
  const TimeNs begin = trace.startNs, span = trace.endNs - trace.startNs;
  for (TimeNs window = span; window >= 10; window /= 7) {
    for (TimeNs offset : {TimeNs{0}, span / 3, span - window}) {
      const TimeRange range{begin + offset, begin + offset + window};
      std::vector<TimelineBox> boxes;
      buildRowBoxes(trace, row, 0, range, 1200, boxes);
      expectPartition(trace, row, range, boxes);
      EXPECT_LE(boxes.size(), 1210u);  // never more boxes than pixels (plus the edges)
    }
  }
}

// A row of more than kLodFromEvents events is drawn zoomed out from its level of detail: the
// boxes still cover its visible events once each, in order, as many as the event walk gives to
// within the level's resolution, and each single box carries its event and name.
TEST(TimelineGeometry, AZoomedOutFrameOfABigRowComesFromItsLevelOfDetail) {
  std::mt19937_64 random(5);
  std::vector<std::pair<TimeNs, TimeNs>> spans;
  TimeNs t = 1'000'000;
  for (std::size_t i = 0; i < kLodFromEvents + 5000; ++i) {
    const TimeNs dur = (random() % 500 == 0) ? static_cast<TimeNs>(random() % 20'000'000)
                                             : static_cast<TimeNs>(random() % 2'000);
    spans.emplace_back(t, dur);
    t += dur + static_cast<TimeNs>(random() % 3'000);
  }
  const Trace trace = rowTrace(spans);
  const LaneLayout layout = LaneLayout::build(trace, "");
  const LayoutRow& row = layout.rows()[0];
  ASSERT_FALSE(row.lod.empty());
  ASSERT_GT(row.lodNsPerPx, 0);
  LayoutRow exact;  // the same row without a level of detail: the event walk
  exact.events = row.events;
  exact.maxEnd = row.maxEnd;
  const TimeNs begin = trace.startNs, span = trace.endNs - trace.startNs;
  int fromLod = 0;
  for (TimeNs window = span; window >= 1000; window /= 5) {
    for (TimeNs offset : {TimeNs{0}, span / 3, span - window}) {
      const TimeRange range{begin + offset, begin + offset + window};
      std::vector<TimelineBox> boxes, walked;
      buildRowBoxes(trace, row, 0, range, 1200, boxes);
      buildRowBoxes(trace, exact, 0, range, 1200, walked);
      if (static_cast<double>(window) / 1200 < row.lodNsPerPx) continue;  // the event walk
      ++fromLod;
      ASSERT_FALSE(boxes.empty());
      // Contiguous, in order, every box's events within the window's reach.
      for (std::size_t b = 1; b < boxes.size(); ++b)
        ASSERT_EQ(boxes[b].first, boxes[b - 1].first + boxes[b - 1].count);
      ASSERT_LE(boxes.front().first, row.firstEndingAtOrAfter(range.start));
      const std::size_t last = boxes.back().first + boxes.back().count;
      for (std::size_t i = last; i < row.events.size(); ++i)
        ASSERT_GT(trace.events[row.events[i]].start, range.end - 1) << i;
      for (const TimelineBox& box : boxes)
        if (box.count == 1) {
          ASSERT_EQ(box.event, row.events[box.first]);
          ASSERT_EQ(box.name, trace.events[box.event].name);
        }
      EXPECT_LE(boxes.size(), 1210u);
      EXPECT_NEAR(static_cast<double>(boxes.size()), static_cast<double>(walked.size()),
                  0.1 * static_cast<double>(walked.size()) + 3);
    }
  }
  EXPECT_GE(fromLod, 3);
}

}  // namespace
}  // namespace sutra::view
