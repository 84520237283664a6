// SPDX-License-Identifier: MIT
// The lane order of Trace::events (model/event_order.h) and the parallel loop that sorts lanes.
#include "model/event_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>

#include "util/parallel_for.h"

namespace sutra {
namespace {

// Events with a tag in externalId: where each one came from in the input.
std::vector<Event> tagged(const std::vector<std::pair<TimeNs, TimeNs>>& startDur, LaneId lane = 0) {
  std::vector<Event> events;
  for (const auto& [start, dur] : startDur) {
    Event e;
    e.start = start;
    e.dur = dur;
    e.lane = lane;
    e.externalId = static_cast<std::int64_t>(events.size());
    events.push_back(e);
  }
  return events;
}

std::vector<std::int64_t> tags(const std::vector<Event>& events) {
  std::vector<std::int64_t> out;
  for (const Event& e : events) out.push_back(e.externalId);
  return out;
}

// What sortLane must give: std::stable_sort by startsBefore.
std::vector<std::int64_t> expectedOrder(std::vector<Event> events) {
  std::stable_sort(events.begin(), events.end(), startsBefore);
  return tags(events);
}

TEST(EventOrder, SortLaneMergesRunsStably) {
  // Two sorted runs (a parent written after its children), ties at equal start and duration.
  auto events = tagged({{10, 5}, {20, 5}, {20, 5}, {40, 1}, {0, 100}, {20, 5}, {30, 2}, {50, 1}});
  const auto want = expectedOrder(events);
  sortLane(events.data(), events.data() + events.size());
  EXPECT_EQ(tags(events), want);
  EXPECT_EQ(tags(events), (std::vector<std::int64_t>{4, 0, 1, 2, 5, 6, 3, 7}));
}

TEST(EventOrder, SortLaneAgreesWithStableSortOnManyShapes) {
  std::mt19937 random(7);
  for (int round = 0; round < 300; ++round) {
    const int n = 1 + static_cast<int>(random() % 400);
    const int runs =
        1 + static_cast<int>(random() % (round % 3 == 0 ? 200 : 6));  // few runs, or many
    std::vector<std::pair<TimeNs, TimeNs>> input;
    for (int r = 0; r < runs; ++r) {
      TimeNs t = static_cast<TimeNs>(random() % 1000);
      for (int k = 0; k < n / runs + 1; ++k) {
        t += static_cast<TimeNs>(random() % 4);  // repeated starts make ties
        input.emplace_back(t, static_cast<TimeNs>(random() % 3));
      }
    }
    auto events = tagged(input);
    const auto want = expectedOrder(events);
    sortLane(events.data(), events.data() + events.size());
    ASSERT_EQ(tags(events), want) << "round " << round;
  }
}

TEST(EventOrder, SortLaneHandlesReversedInput) {
  // Every event its own run: the merge budget runs out and the index sort finishes the job.
  std::vector<std::pair<TimeNs, TimeNs>> input;
  for (int i = 5000; i > 0; --i) input.emplace_back(i / 2, i % 3);
  auto events = tagged(input);
  const auto want = expectedOrder(events);
  sortLane(events.data(), events.data() + events.size());
  EXPECT_EQ(tags(events), want);
}

TEST(EventOrder, GroupByLaneKeepsFileOrderInsideLanes) {
  std::vector<Event> events;
  for (int i = 0; i < 12; ++i) {
    Event e;
    e.lane = static_cast<LaneId>((i * 7) % 3);
    e.start = 100 - i;
    e.externalId = i;
    events.push_back(e);
  }
  std::vector<Lane> lanes(3);
  groupByLane(events, lanes);
  std::vector<std::int64_t> want;
  for (LaneId lane = 0; lane < 3; ++lane)
    for (int i = 0; i < 12; ++i)
      if (static_cast<LaneId>((i * 7) % 3) == lane) want.push_back(i);
  EXPECT_EQ(tags(events), want);
  EXPECT_EQ(lanes[0].firstEvent, 0u);
  EXPECT_EQ(lanes[0].endEvent, 4u);
  EXPECT_EQ(lanes[1].firstEvent, 4u);
  EXPECT_EQ(lanes[1].endEvent, 8u);
  EXPECT_EQ(lanes[2].firstEvent, 8u);
  EXPECT_EQ(lanes[2].endEvent, 12u);
  // Grouped already: the same ranges from the one pass, and a lane without events stays empty.
  std::vector<Lane> again(4);
  groupByLane(events, again);
  EXPECT_EQ(tags(events), want);
  for (LaneId l = 0; l < 3; ++l) {
    EXPECT_EQ(again[l].firstEvent, lanes[l].firstEvent);
    EXPECT_EQ(again[l].endEvent, lanes[l].endEvent);
  }
  EXPECT_EQ(again[3].endEvent - again[3].firstEvent, 0u);
}

TEST(ParallelFor, RunsEveryTaskOnce) {
  for (unsigned threads : {0u, 1u, 3u}) {
    std::vector<std::atomic<int>> runs(1000);
    parallelFor(
        runs.size(), [&](std::size_t i) { runs[i]++; }, threads);
    for (const auto& r : runs) ASSERT_EQ(r.load(), 1);
  }
  parallelFor(0, [](std::size_t) { FAIL() << "no task to run"; });
}

}  // namespace
}  // namespace sutra
