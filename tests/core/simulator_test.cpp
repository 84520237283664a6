// SPDX-License-Identifier: MIT
// The simulator's rules on small hand-built traces, with the expected times worked out by hand in
// the comments, and its invariants: an exact replay with no knobs, and monotonicity.
#include "simulate/simulator.h"

#include <gtest/gtest.h>

#include "sim_fixture.h"
#include "simulate/sim_graph.h"
#include "simulate/what_moved.h"

namespace sutra {
namespace {

using test::eventNamed;
using test::SimFixture;
using Times = std::pair<TimeNs, TimeNs>;

struct Sim {
  Trace trace;
  SimGraph graph;
  Sim(Trace t, const SimGraphInputs& inputs) : trace(std::move(t)) {
    graph = buildSimGraph(trace, inputs);
  }
  // buildSimGraph keeps a pointer to the trace: the object must not move after construction.
  Sim(const Sim&) = delete;
  SimRun run(const SimKnobs& knobs = {}) const {
    auto r = simulate(graph, knobs);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
    return r.ok() ? std::move(r.value()) : SimRun{};
  }
  Times times(const SimRun& r, const char* name) const {
    auto t = simulatedTimes(graph, r, eventNamed(trace, name));
    EXPECT_TRUE(t.has_value()) << name;
    return t.value_or(Times{-1, -1});
  }
  EventId id(const char* name) const { return eventNamed(trace, name); }
};

// Every modelled event at its measured place: the graph's weights are measured to replay exactly.
void expectExactReplay(const Sim& sim) {
  const SimRun run = sim.run();
  EXPECT_EQ(run.forcedNodes, 0u);
  for (EventId e = 0; e < sim.trace.events.size(); ++e) {
    auto t = simulatedTimes(sim.graph, run, e);
    if (!t) continue;
    const Event& ev = sim.trace.events[e];
    EXPECT_EQ(t->first, ev.start) << sim.trace.name(ev);
    EXPECT_EQ(t->second, ev.end()) << sim.trace.name(ev);
  }
}

// A launch call at 50 and its kernel at 80: the measured latency is 30.
std::unique_ptr<Sim> launchLatencyFixture() {
  SimFixture f;
  const auto t = f.thread("1"), s = f.stream("7");
  f.add(t, "step", 0, 200, "user_annotation");
  f.add(t, "launch", 50, 10, "cuda_runtime");
  f.add(s, "k", 80, 100, "kernel");
  Trace trace = f.finish();
  SimGraphInputs in;
  in.launches.push_back({eventNamed(trace, "launch"), eventNamed(trace, "k")});
  return std::make_unique<Sim>(std::move(trace), in);
}

TEST(Simulator, LaunchLatencyIsMeasuredAndCanBeReplacedOrScaled) {
  auto sim = launchLatencyFixture();
  expectExactReplay(*sim);
  SimKnobs zero;
  zero.launchLatencyNs = 0;
  EXPECT_EQ(sim->times(sim->run(zero), "k"), Times(50, 150));
  SimKnobs twice;
  twice.launchLatencyScale = 2;
  EXPECT_EQ(sim->times(sim->run(twice), "k"), Times(110, 210));
}

// Four launches at 0, 10, 20, 30 queue four 1000 ns kernels back to back from 100.
std::unique_ptr<Sim> backToBackFixture() {
  SimFixture f;
  const auto t = f.thread("1"), s = f.stream("7");
  SimGraphInputs in;
  for (int i = 0; i < 4; ++i) {
    f.add(t, ("l" + std::to_string(i)).c_str(), 10 * i, 5, "cuda_runtime");
    f.add(s, ("k" + std::to_string(i)).c_str(), 100 + 1000 * i, 1000, "kernel");
  }
  Trace trace = f.finish();
  for (int i = 0; i < 4; ++i)
    in.launches.push_back({eventNamed(trace, ("l" + std::to_string(i)).c_str()),
                           eventNamed(trace, ("k" + std::to_string(i)).c_str())});
  return std::make_unique<Sim>(std::move(trace), in);
}

TEST(Simulator, OneStreamWithoutDependenciesTakesTheSumOfDurations) {
  auto sim = backToBackFixture();
  expectExactReplay(*sim);
  EXPECT_EQ(sim->run().finish - sim->trace.events[sim->id("k0")].start, 4000);
  SimKnobs half;
  half.scales.push_back({"^k", 0.5});
  const SimRun run = sim->run(half);
  // k0 keeps its launch (0 + 100); each next one follows the previous end: 4 x 500 = 2000.
  EXPECT_EQ(sim->times(run, "k0"), Times(100, 600));
  EXPECT_EQ(sim->times(run, "k1"), Times(600, 1100));
  EXPECT_EQ(sim->times(run, "k3"), Times(1600, 2100));
  EXPECT_EQ(run.finish - 100, 2000);
}

// Launch at 0 of a kernel 20..1020; cudaStreamSynchronize 30..1030 waits for it (wake-up 10 ns);
// a CPU op follows at 1050.
std::unique_ptr<Sim> blockingFixture(TimeNs kernelDur = 1000, TimeNs syncStart = 30,
                                     TimeNs syncDur = 1000) {
  SimFixture f;
  const auto t = f.thread("1"), s = f.stream("7");
  f.add(t, "l", 0, 10, "cuda_runtime");
  f.add(t, "sync", syncStart, syncDur, "cuda_runtime");
  f.add(t, "after", syncStart + syncDur + 20, 50);
  f.add(s, "k", 20, kernelDur, "kernel");
  Trace trace = f.finish();
  SimGraphInputs in;
  in.launches.push_back({eventNamed(trace, "l"), eventNamed(trace, "k")});
  in.hostWaits.push_back({eventNamed(trace, "sync"), eventNamed(trace, "k")});
  return std::make_unique<Sim>(std::move(trace), in);
}

TEST(Simulator, BlockingCallHoldsItsThreadUntilWhatItWaitsOnEnds) {
  auto sim = blockingFixture();
  expectExactReplay(*sim);
  EXPECT_EQ(sim->graph.hostWaitsUsed, 1u);
  SimKnobs half;
  half.scales.push_back({"k", 0.5});
  SimRun run = sim->run(half);
  EXPECT_EQ(sim->times(run, "k"), Times(20, 520));
  EXPECT_EQ(sim->times(run, "sync"), Times(30, 530));  // kernel end + the 10 ns wake-up
  EXPECT_EQ(sim->times(run, "after"), Times(550, 600));

  SimKnobs noSync;
  noSync.dropSyncs = true;
  run = sim->run(noSync);
  EXPECT_EQ(sim->times(run, "sync"), Times(30, 40));  // only its own 10 ns of CPU
  EXPECT_EQ(sim->times(run, "after"), Times(60, 110));

  SimKnobs fastCpu;
  fastCpu.cpuSpeed = 2;
  run = sim->run(fastCpu);
  EXPECT_EQ(sim->times(run, "sync"), Times(15, 1030));  // starts at 30 / 2, still waits for k
  EXPECT_EQ(sim->times(run, "after"), Times(1040, 1065));
}

TEST(Simulator, BlockingCallThatDidNotWaitCostsItsLengthAfterALaterEnd) {
  // The kernel (20..25) ended before the 6 ns sync (30..36) began.
  auto sim = blockingFixture(5, 30, 6);
  expectExactReplay(*sim);
  SimKnobs slower;
  slower.scales.push_back({"k", 100});
  const SimRun run = sim->run(slower);
  EXPECT_EQ(sim->times(run, "k"), Times(20, 520));
  EXPECT_EQ(sim->times(run, "sync"), Times(30, 526));
}

// Stream 7: x 100..200 (launched at 0), z 203..303 (launched at 20: queued behind x, 3 ns
// turnaround). Stream 8: y 200..250 (launched at 10) waits on x through Stream Wait Event.
std::unique_ptr<Sim> streamFixture() {
  SimFixture f;
  const auto t = f.thread("1"), a = f.stream("7"), b = f.stream("8");
  f.add(t, "la", 0, 5, "cuda_runtime");
  f.add(t, "lb", 10, 5, "cuda_runtime");
  f.add(t, "lc", 20, 5, "cuda_runtime");
  f.add(a, "x", 100, 100, "kernel");
  f.add(b, "y", 200, 50, "kernel");
  f.add(a, "z", 203, 100, "kernel");
  Trace trace = f.finish();
  SimGraphInputs in;
  in.launches = {{eventNamed(trace, "la"), eventNamed(trace, "x")},
                 {eventNamed(trace, "lb"), eventNamed(trace, "y")},
                 {eventNamed(trace, "lc"), eventNamed(trace, "z")}};
  in.streamWaits.push_back({eventNamed(trace, "y"), eventNamed(trace, "x")});
  return std::make_unique<Sim>(std::move(trace), in);
}

TEST(Simulator, StreamOrderAndStreamWaitEvent) {
  auto sim = streamFixture();
  expectExactReplay(*sim);
  EXPECT_EQ(sim->graph.streamWaitsUsed, 1u);
  SimKnobs half;
  half.scales.push_back({"^x$", 0.5});
  SimRun run = sim->run(half);
  EXPECT_EQ(sim->times(run, "x"), Times(100, 150));
  // y: max(launch 10 + typical latency 100, x's end 150 + 0).
  EXPECT_EQ(sim->times(run, "y"), Times(150, 200));
  // z: max(launch 20 + 100, x's end 150 + the 3 ns turnaround).
  EXPECT_EQ(sim->times(run, "z"), Times(153, 253));

  SimKnobs noSync;
  noSync.dropSyncs = true;
  run = sim->run(noSync);
  EXPECT_EQ(sim->times(run, "y"), Times(110, 160));
}

TEST(Simulator, InterThreadDependencyDelaysTheFollower) {
  SimFixture f;
  const auto t1 = f.thread("1"), t2 = f.thread("2");
  f.add(t1, "a1", 0, 100);
  f.add(t2, "b0", 140, 5);
  f.add(t2, "b1", 150, 50);
  Trace trace = f.finish();
  SimGraphInputs in;
  in.wakeupGapNs = 0;  // only the explicit dependency
  in.threadDeps.push_back({eventNamed(trace, "b1"), eventNamed(trace, "a1")});
  Sim sim(std::move(trace), in);
  expectExactReplay(sim);
  SimKnobs slowCpu;
  slowCpu.cpuSpeed = 0.5;
  const SimRun run = sim.run(slowCpu);
  EXPECT_EQ(sim.times(run, "a1"), Times(0, 200));
  // b1: max(140 + 2 x 10, a1's end 200), then 2 x 50 long.
  EXPECT_EQ(sim.times(run, "b1"), Times(200, 300));
}

TEST(Simulator, ThreadWokenAfterAnIdleGapFollowsTheThreadThatWokeIt) {
  SimFixture f;
  const auto t1 = f.thread("1"), t2 = f.thread("2");
  f.add(t1, "a1", 0, 100);
  f.add(t1, "a2", 3'000'000, 100);  // idle for 3 ms: woken by b1's end (2.5 ms), 0.5 ms later
  f.add(t2, "b0", 1'000'000, 10);   // the thread's start: woken by a1's end, 999.9 us later
  f.add(t2, "b1", 1'000'020, 1'499'980);
  Trace trace = f.finish();
  Sim sim(std::move(trace), SimGraphInputs{});
  EXPECT_EQ(sim.graph.wakeupsInferred, 2u);
  expectExactReplay(sim);
  SimKnobs fast;
  fast.cpuSpeed = 2;
  const SimRun run = sim.run(fast);
  EXPECT_EQ(sim.times(run, "a1"), Times(0, 50));
  EXPECT_EQ(sim.times(run, "b0"), Times(999'950, 999'955));
  EXPECT_EQ(sim.times(run, "b1"), Times(999'960, 1'749'950));
  // The 3 ms idle gap is not CPU time: a2 follows b1's end by the measured 0.5 ms.
  EXPECT_EQ(sim.times(run, "a2"), Times(2'249'950, 2'250'000));
}

TEST(Simulator, CpuSpeedScalesNestedHostTimeBetweenPoints) {
  SimFixture f;
  const auto t = f.thread("1"), s = f.stream("7");
  f.add(t, "outer", 0, 100);
  f.add(t, "inner", 20, 20);
  f.add(t, "launch", 60, 10, "cuda_runtime");
  f.add(s, "k", 80, 10, "kernel");
  Trace trace = f.finish();
  SimGraphInputs in;
  in.launches.push_back({eventNamed(trace, "launch"), eventNamed(trace, "k")});
  Sim sim(std::move(trace), in);
  expectExactReplay(sim);
  SimKnobs fast;
  fast.cpuSpeed = 2;
  const SimRun run = sim.run(fast);
  EXPECT_EQ(sim.times(run, "inner"), Times(10, 20));
  EXPECT_EQ(sim.times(run, "launch"), Times(30, 35));
  EXPECT_EQ(sim.times(run, "outer"), Times(0, 50));
  EXPECT_EQ(sim.times(run, "k"), Times(50, 60));  // launch latency (20) is not CPU time
}

TEST(Simulator, MakingOneKernelFasterNeverMakesAnythingLater) {
  for (auto* make : {&streamFixture, &backToBackFixture}) {
    auto sim = make();
    const SimRun base = sim->run();
    for (const auto& node : sim->graph.nodes) {
      if (node.kind != SimNodeKind::DeviceOp) continue;
      SimKnobs faster;
      faster.scales.push_back(
          {"^" + std::string(sim->trace.name(sim->trace.events[node.event])) + "$", 0.3});
      const SimRun run = sim->run(faster);
      EXPECT_LE(run.finish, base.finish);
      for (std::size_t i = 0; i < base.end.size(); ++i) EXPECT_LE(run.end[i], base.end[i]);
    }
  }
  auto sim = blockingFixture();
  SimKnobs faster;
  faster.scales.push_back({"k", 0.1});
  EXPECT_LE(sim->run(faster).finish, sim->run().finish);
}

TEST(Simulator, InconsistentDependenciesAreLeftOutOrBrokenWithoutHanging) {
  SimFixture f;
  const auto t = f.thread("1"), a = f.stream("7"), b = f.stream("8");
  f.add(t, "la", 0, 5, "cuda_runtime");
  f.add(t, "sync", 10, 5, "cuda_runtime");
  f.add(t, "lb", 20, 5, "cuda_runtime");
  f.add(a, "x", 100, 100, "kernel");
  f.add(b, "y", 100, 50, "kernel");
  Trace trace = f.finish();
  SimGraphInputs in;
  in.launches = {{eventNamed(trace, "la"), eventNamed(trace, "x")},
                 {eventNamed(trace, "lb"), eventNamed(trace, "y")}};
  // The sync waits on y, launched after the sync began: left out, counted.
  in.hostWaits.push_back({eventNamed(trace, "sync"), eventNamed(trace, "y")});
  // x and y wait on each other: a cycle, broken at run time.
  in.streamWaits = {{eventNamed(trace, "x"), eventNamed(trace, "y")},
                    {eventNamed(trace, "y"), eventNamed(trace, "x")}};
  Sim sim(std::move(trace), in);
  EXPECT_EQ(sim.graph.problems.count("sync dependency left out of the simulation"), 1u);
  EXPECT_EQ(sim.graph.hostWaitsUsed, 0u);
  const SimRun run = sim.run();
  EXPECT_GE(run.forcedNodes, 1u);
  for (std::size_t i = 0; i < run.end.size(); ++i) EXPECT_NE(run.end[i], kNoAnchor);
}

TEST(SimKnobs, ParsesScalesAndRejectsBadValues) {
  auto s = parseDurationScale("gemm=0.5");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->pattern, "gemm");
  EXPECT_DOUBLE_EQ(s->factor, 0.5);
  s = parseDurationScale("a=b=2");
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->pattern, "a=b");
  EXPECT_FALSE(parseDurationScale("gemm").ok());
  EXPECT_FALSE(parseDurationScale("gemm=0").ok());
  EXPECT_FALSE(parseDurationScale("gemm=-1").ok());
  EXPECT_FALSE(parseDurationScale("gemm=x").ok());
  EXPECT_FALSE(parseDurationScale("=2").ok());
  SimKnobs bad;
  bad.scales.push_back({"(", 2});
  auto status = validateKnobs(bad);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message.find("not a valid regular expression"), std::string::npos);
  SimKnobs slow;
  slow.cpuSpeed = 0;
  EXPECT_FALSE(validateKnobs(slow).ok());
}

TEST(SimKnobs, EveryMatchingPatternAppliesOncePerName) {
  StringTable names;
  const auto gemm = names.intern("ampere_sgemm_128x64"), add = names.intern("elementwise_add");
  auto scaler = DurationScaler::create({{"gemm", 0.5}, {"128", 0.5}, {"^elem", 3}});
  ASSERT_TRUE(scaler.ok());
  EXPECT_DOUBLE_EQ(scaler->factor(gemm, names), 0.25);
  EXPECT_DOUBLE_EQ(scaler->factor(add, names), 3.0);
  EXPECT_DOUBLE_EQ(scaler->factor(gemm, names), 0.25);
}

TEST(WhatMoved, ReportsTheStreamsThreadsAndOpsThatChanged) {
  auto sim = blockingFixture();
  SimKnobs half;
  half.scales.push_back({"k", 0.5});
  const SimRun base = sim->run(), run = sim->run(half);
  const WhatMoved moved = whatMoved(sim->graph, base, run);
  EXPECT_EQ(moved.baselineNs, 1100);  // 0 .. the end of "after" at 1100
  EXPECT_EQ(moved.variantNs, 600);
  ASSERT_EQ(moved.ops.size(), 1u);
  EXPECT_EQ(moved.ops[0].name, "k");
  EXPECT_EQ(moved.ops[0].count, 1u);
  EXPECT_EQ(moved.ops[0].baselineNs, 1000);
  EXPECT_EQ(moved.ops[0].variantNs, 500);
  ASSERT_EQ(moved.tracks.size(), 2u);
  // The thread moved by 500 (its end 1100 -> 600, blocked 1000 -> 500), the stream by 500 too.
  for (const auto& t : moved.tracks) {
    EXPECT_EQ(t.baselineEnd - t.variantEnd, 500) << t.label;
    EXPECT_EQ(t.baselineBusy - t.variantBusy, 500) << t.label;
  }
  EXPECT_TRUE(whatMoved(sim->graph, base, base).tracks.empty());
}

}  // namespace
}  // namespace sutra
