// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include "model/id_index.h"
#include "model/time.h"
#include "model/trace_builder.h"
#include "support/trace_digest.h"

namespace sutra {
namespace {

Event makeEvent(TraceBuilder& b, LaneId lane, const char* name, TimeNs start, TimeNs dur,
                const char* cat = "cpu_op") {
  Event e;
  e.name = b.trace().names.intern(name);
  e.category = static_cast<std::uint16_t>(b.trace().categories.intern(cat));
  e.klass = classifyCategory(cat);
  e.lane = lane;
  e.start = start;
  e.dur = dur;
  return e;
}

TEST(TraceBuilder, NestsChildrenWrittenBeforeParents) {
  TraceBuilder b("mem");
  const LaneId t = b.lane("1", "2");
  b.addEvent(makeEvent(b, t, "child", 10, 5));
  b.addEvent(makeEvent(b, t, "grandchild", 11, 1));
  b.addEvent(makeEvent(b, t, "parent", 10, 20));
  b.addEvent(makeEvent(b, t, "next", 30, 3));
  Trace trace = b.finish();
  ASSERT_EQ(trace.events.size(), 4u);
  EXPECT_EQ(trace.name(trace.events[0]), "parent");
  EXPECT_EQ(trace.events[0].depth, 0);
  EXPECT_EQ(trace.name(trace.events[1]), "child");
  EXPECT_EQ(trace.events[1].parent, 0u);
  EXPECT_EQ(trace.events[2].depth, 2);
  EXPECT_EQ(trace.name(trace.events[3]), "next");  // starts where its predecessor ends: a sibling
  EXPECT_EQ(trace.events[3].depth, 0);
  EXPECT_EQ(trace.innermostAt(t, 11), 2u);
  EXPECT_EQ(trace.innermostAt(t, 25), 0u);
  EXPECT_EQ(trace.innermostAt(t, 5), kNoEvent);
  EXPECT_EQ(trace.startNs, 10);
  EXPECT_EQ(trace.endNs, 33);
}

TEST(Trace, InnermostAtFromAHintFindsWhatTheWholeSearchFinds) {
  // Two lanes of nested events with equal starts, gaps and zero durations; lookups in and out of
  // time order, each from where the last one on its lane left the hint.
  TraceBuilder b("mem");
  const LaneId lanes[] = {b.lane("1", "1"), b.lane("1", "2")};
  std::uint64_t seed = 7;
  auto next = [&](std::uint64_t bound) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<TimeNs>((seed >> 33) % bound);
  };
  for (LaneId lane : lanes)
    for (TimeNs at = 0; at < 5000; at += 10 + next(40)) {
      b.addEvent(makeEvent(b, lane, "outer", at, next(3) == 0 ? 0 : 5 + next(30)));
      b.addEvent(makeEvent(b, lane, "inner", at + next(4), next(6)));
    }
  Trace trace = b.finish();
  EventId hints[] = {kNoEvent, 12345};  // none, and one off the lane
  std::size_t found = 0;
  for (int i = 0; i < 4000; ++i) {
    const int which = static_cast<int>(next(2));
    // Mostly growing times, with jumps back as flow ends of other ids bring.
    const TimeNs t = next(5) == 0 ? next(5100) - 20 : i * 5100 / 4000 + next(30);
    const EventId expected = trace.innermostAt(lanes[which], t);
    ASSERT_EQ(trace.innermostAt(lanes[which], t, hints[which]), expected) << "t " << t;
    found += expected != kNoEvent;
  }
  EXPECT_GT(found, 1000u);  // the lookups land inside events, not only in the gaps
}

TEST(TraceBuilder, LanesPlacedByTheReaderGiveTheSameTraceAsAddedEvents) {
  // The same events two ways: added in file order, and placed lane by lane (as the Kineto reader
  // does), with the lanes finished out of order and one lane without events. A parent comes after
  // its children, as Kineto writes them.
  struct Spec {
    int lane;
    const char* name;
    TimeNs start, dur;
    const char* cat;
  };
  const std::vector<Spec> file = {
      {0, "child", 10, 20, "cpu_op"},       {2, "k", 15, 5, "kernel"},
      {0, "launch", 12, 3, "cuda_runtime"}, {0, "step", 0, 100, "user_annotation"},
      {2, "k2", 40, 5, "kernel"},           {0, "late", 90, 30, "cpu_op"}};
  auto fill = [&](TraceBuilder& b) {
    for (const char* tid : {"1", "empty", "7"}) b.lane("1", tid);
    for (std::int64_t id : {1, 2}) {
      b.addFlowEnd({id, 0, 0, 12 + 30 * (id - 1), true, false});
      b.addFlowEnd({id, 0, 2, 15 + 25 * (id - 1), false, false});
    }
  };
  TraceBuilder added("mem");
  fill(added);
  for (const Spec& s : file)
    added.addEvent(makeEvent(added, static_cast<LaneId>(s.lane), s.name, s.start, s.dur, s.cat));
  const Trace expected = added.finish();

  TraceBuilder placed("mem");
  fill(placed);
  std::vector<std::vector<Event>> byLane(3);
  for (const Spec& s : file)
    byLane[s.lane].push_back(
        makeEvent(placed, static_cast<LaneId>(s.lane), s.name, s.start, s.dur, s.cat));
  placed.placeLanes({byLane[0].size(), byLane[1].size(), byLane[2].size()});
  auto& events = placed.trace().events;
  for (const auto& lane : byLane) events.insert(events.end(), lane.begin(), lane.end());
  for (LaneId l : {2u, 0u, 1u}) placed.finishLane(l);
  const Trace trace = placed.finish();

  EXPECT_EQ(test::traceDigest(trace), test::traceDigest(expected));
  ASSERT_EQ(trace.events.size(), 6u);
  EXPECT_EQ(trace.lanes[1].firstEvent, trace.lanes[1].endEvent);
  EXPECT_EQ(trace.name(trace.events[2]), "launch");
  EXPECT_EQ(trace.events[2].depth, 2);
  EXPECT_EQ(trace.lanes[2].kind, LaneKind::DeviceStream);
  ASSERT_EQ(trace.flows.size(), 2u);
  EXPECT_EQ(trace.name(trace.events[trace.flows[0].to]), "k");
}

TEST(TraceBuilder, ZeroDurationEventsAtOneTimestampNest) {
  TraceBuilder b("mem");
  const LaneId t = b.lane("1", "1");
  b.addEvent(makeEvent(b, t, "outer", 100, 0));
  b.addEvent(makeEvent(b, t, "inner", 100, 0));
  Trace trace = b.finish();
  EXPECT_EQ(trace.events[1].parent, 0u);
}

TEST(TraceBuilder, CountsPartialOverlapAndClassifiesDeviceLanes) {
  TraceBuilder b("mem");
  const LaneId host = b.lane("1", "1");
  const LaneId stream = b.lane("0", "7");
  b.addEvent(makeEvent(b, host, "a", 0, 10));
  b.addEvent(makeEvent(b, host, "b", 5, 10));
  b.addEvent(makeEvent(b, stream, "k", 3, 4, "kernel"));
  Trace trace = b.finish();
  EXPECT_EQ(trace.problems.count("events overlapping on one lane without nesting"), 1u);
  EXPECT_EQ(trace.lanes[stream].kind, LaneKind::DeviceStream);
  EXPECT_EQ(trace.lanes[stream].stream, 7);
  EXPECT_EQ(trace.lanes[host].kind, LaneKind::HostThread);
}

// PyTorch <= 1.9 names a stream's lane "stream 7": its stream is 7, not 0 for every stream.
TEST(TraceBuilder, ReadsTheStreamOfAnOldKinetoStreamLane) {
  TraceBuilder b("old");
  const LaneId s7 = b.lane("0", "stream 7");
  const LaneId s15 = b.lane("0", "stream 15");
  b.addEvent(makeEvent(b, s7, "k", 0, 4, "Kernel"));
  b.addEvent(makeEvent(b, s15, "m", 0, 4, "Memcpy"));
  Trace trace = b.finish();
  EXPECT_EQ(trace.lanes[s7].stream, 7);
  EXPECT_EQ(trace.lanes[s15].stream, 15);
  EXPECT_EQ(trace.lanes[s15].device, 0);
}

TEST(TraceBuilder, BindsFlowsByCategoryAndId) {
  TraceBuilder b("mem");
  const LaneId host = b.lane("1", "1");
  const LaneId stream = b.lane("0", "7");
  b.addEvent(makeEvent(b, host, "cudaLaunchKernel", 100, 10, "cuda_runtime"));
  b.addEvent(makeEvent(b, stream, "kernel", 150, 20, "kernel"));
  const auto ac2g = static_cast<std::uint16_t>(b.trace().categories.intern("ac2g"));
  b.addFlowEnd({42, ac2g, host, 100, true, false});
  b.addFlowEnd({42, ac2g, stream, 150, false, true});
  b.addFlowEnd({43, ac2g, host, 100, true, false});  // no end
  Trace trace = b.finish();
  ASSERT_EQ(trace.flows.size(), 1u);
  EXPECT_EQ(trace.name(trace.events[trace.flows[0].from]), "cudaLaunchKernel");
  EXPECT_EQ(trace.name(trace.events[trace.flows[0].to]), "kernel");
  EXPECT_EQ(trace.problems.count("flow with only one end"), 1u);
}

// A trace large enough that finish() sorts lanes, flow ends and binds flows on several threads:
// every flow is bound to its own launch and kernel, and the unmatched and unbound ones are counted
// with the first of each (in (category, id) order) as the example, as on one thread.
TEST(TraceBuilder, BindsManyFlowsOnSeveralThreadsInOrder) {
  TraceBuilder b("mem");
  const LaneId host = b.lane("1", "1");
  const LaneId stream = b.lane("0", "7");
  const auto ac2g = static_cast<std::uint16_t>(b.trace().categories.intern("ac2g"));
  constexpr int kFlows = 40000;            // 80,000 events: above TraceBuilder::kParallelFrom
  for (int i = kFlows - 1; i >= 0; --i) {  // written backwards: every lane needs sorting
    b.addEvent(makeEvent(b, host, "cudaLaunchKernel", 100 * i, 10, "cuda_runtime"));
    b.addEvent(makeEvent(b, stream, "kernel", 100 * i + 50, 20, "kernel"));
    if (i % 1000 == 7) {  // a start without an end
      b.addFlowEnd({i, ac2g, host, 100 * i, true, false});
    } else if (i % 1000 == 9) {  // an end before every kernel, bound to none
      b.addFlowEnd({i, ac2g, host, 100 * i, true, false});
      b.addFlowEnd({i, ac2g, stream, -5, false, true});
    } else {
      b.addFlowEnd({i, ac2g, stream, 100 * i + 50, false, true});
      b.addFlowEnd({i, ac2g, host, 100 * i, true, false});
    }
  }
  Trace trace = b.finish();
  ASSERT_EQ(trace.flows.size(), static_cast<std::size_t>(kFlows - 2 * kFlows / 1000));
  for (std::size_t k = 1; k < trace.flows.size(); ++k)
    ASSERT_LT(trace.flows[k - 1].id, trace.flows[k].id);
  for (const Flow& f : trace.flows) {
    ASSERT_EQ(trace.events[f.from].start, 100 * f.id);
    ASSERT_EQ(trace.events[f.to].start, 100 * f.id + 50);
  }
  ASSERT_EQ(trace.problems.all().size(), 2u);
  EXPECT_EQ(trace.problems.all()[0].what, "flow with only one end");
  EXPECT_EQ(trace.problems.all()[0].count, 40u);
  EXPECT_EQ(trace.problems.all()[0].example, "ac2g id 7 has no end");
  EXPECT_EQ(trace.problems.all()[1].what, "flow end on no event");
  EXPECT_EQ(trace.problems.all()[1].count, 40u);
  EXPECT_EQ(trace.problems.all()[1].example, "ac2g id 9");
}

TEST(FormatDuration, PicksUnitByMagnitude) {
  EXPECT_EQ(formatDuration(12), "12 ns");
  EXPECT_EQ(formatDuration(403'300), "403.3 us");
  EXPECT_EQ(formatDuration(2'355'000), "2.355 ms");
  EXPECT_EQ(formatDuration(1'500'000'000), "1.500 s");
}

TEST(IdIndex, DenseSparseAndNegativeIdsAllFoundAndRepeatsRefused) {
  IdIndex index;
  for (std::uint32_t i = 0; i < 1000; ++i) EXPECT_TRUE(index.insert(i + 1, i).second);
  // Far beyond the table (an outlier, as some writers number a root), and negative.
  EXPECT_TRUE(index.insert(1'000'000'000'000, 1000).second);
  EXPECT_TRUE(index.insert(-5, 1001).second);
  // An id seen before keeps its first position.
  const auto [at, added] = index.insert(7, 42);
  EXPECT_FALSE(added);
  EXPECT_EQ(at, 6u);
  EXPECT_EQ(index.find(1), 0u);
  EXPECT_EQ(index.find(1000), 999u);
  EXPECT_EQ(index.find(1'000'000'000'000), 1000u);
  EXPECT_EQ(index.find(-5), 1001u);
  EXPECT_EQ(index.find(0), IdIndex::kNone);
  EXPECT_EQ(index.find(1001), IdIndex::kNone);
  EXPECT_EQ(index.find(-1), IdIndex::kNone);
  const auto entries = index.entries();
  ASSERT_EQ(entries.size(), 1002u);
  EXPECT_EQ(entries.front(), (std::pair<std::int64_t, std::uint32_t>{-5, 1001}));
  EXPECT_EQ(entries[1], (std::pair<std::int64_t, std::uint32_t>{1, 0}));
  EXPECT_EQ(entries.back(), (std::pair<std::int64_t, std::uint32_t>{1'000'000'000'000, 1000}));
  index.clear();
  EXPECT_EQ(index.find(1), IdIndex::kNone);
  EXPECT_TRUE(index.entries().empty());
}

}  // namespace
}  // namespace sutra
