// SPDX-License-Identifier: MIT
// The simulator fed by the linker's launch index and sync dependencies, and the simulated
// timeline written as Chrome-trace JSON.
#include "simulate/sim_inputs.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "link/launch_index.h"
#include "link/sync_dependencies.h"
#include "sim_fixture.h"
#include "simulate/simulator.h"
#include "simulate/timeline_export.h"

namespace sutra {
namespace {

using test::eventNamed;
using test::SimFixture;

// cudaLaunchKernel at 0 (correlation 5) of a kernel 20..1020; cudaStreamSynchronize 30..1030 with
// no cuda_sync event (a blocking call on the stream the thread last launched to); a CPU op at 1050.
Trace blockingTrace() {
  SimFixture f;
  const auto t = f.thread("1"), s = f.stream("7");
  f.add(t, "cudaLaunchKernel", 0, 10, "cuda_runtime", 5);
  f.add(t, "cudaStreamSynchronize", 30, 1000, "cuda_runtime", 6);
  f.add(t, "after", 1050, 50);
  f.add(s, "k", 20, 1000, "kernel", 5);
  return f.finish();
}

TEST(SimInputs, LaunchesAndBlockingCallsFromTheLinker) {
  const Trace trace = blockingTrace();
  const LaunchIndex index = LaunchIndex::build(trace);
  const auto syncs = findSyncDependencies(trace, index);
  const SimGraphInputs inputs = simInputsFromKineto(index, syncs);
  ASSERT_EQ(inputs.launches.size(), 1u);
  ASSERT_EQ(inputs.hostWaits.size(), 1u);
  EXPECT_EQ(inputs.hostWaits[0].waiter, eventNamed(trace, "cudaStreamSynchronize"));
  const SimGraph graph = buildSimGraph(trace, inputs);
  EXPECT_EQ(graph.hostWaitsUsed, 1u);
  SimKnobs half;
  half.scales.push_back({"^k$", 0.5});
  auto run = simulate(graph, half);
  ASSERT_TRUE(run.ok());
  // The kernel 20..520, the sync released 10 ns after it, "after" 20 ns later.
  auto after = simulatedTimes(graph, *run, eventNamed(trace, "after"));
  ASSERT_TRUE(after);
  EXPECT_EQ(*after, std::make_pair(TimeNs{550}, TimeNs{600}));
}

// A gloo rank's main thread: c10d::allreduce_ at 100..110 queues the work, gloo's worker runs it
// 150..550, the main thread waits in Work.wait 200..560 and goes on at 600. The worker's first
// all-reduce (0..50) was queued before the profiler began: no op issued it.
Trace glooTrace() {
  SimFixture f;
  const auto main = f.thread("1"), worker = f.thread("2");
  f.add(main, "aten::mm", 10, 80);
  f.add(main, "c10d::allreduce_", 100, 10);
  f.add(main, "<built-in method wait of PyCapsule object at 0x7f>", 200, 360, "python_function");
  f.add(main, "aten::div_", 600, 40);
  f.add(worker, "gloo:all_reduce", 0, 50, "user_annotation");
  f.add(worker, "gloo:all_reduce", 150, 400, "user_annotation");
  return f.finish();
}

TEST(SimInputs, GlooWorkMovesWithTheThreadThatQueuedItAndHoldsItsWait) {
  const Trace trace = glooTrace();
  const LaunchIndex index = LaunchIndex::build(trace);
  SimGraphInputs inputs = simInputsFromKineto(index, {});
  addCpuCollectiveIssues(trace, inputs);
  EventId first = kNoEvent, second = kNoEvent;
  for (EventId e = 0; e < trace.events.size(); ++e)
    if (trace.name(trace.events[e]) == "gloo:all_reduce")
      (trace.events[e].start == 0 ? first : second) = e;
  ASSERT_EQ(inputs.launches.size(), 1u);
  EXPECT_EQ(inputs.launches[0].call, eventNamed(trace, "c10d::allreduce_"));
  EXPECT_EQ(inputs.launches[0].deviceOp, second);
  ASSERT_EQ(inputs.hostWaits.size(), 1u);
  EXPECT_EQ(inputs.hostWaits[0].waitedOn, second);
  const SimGraph graph = buildSimGraph(trace, inputs);
  EXPECT_EQ(graph.hostWaitsUsed, 1u);
  auto measured = simulate(graph, {});
  ASSERT_TRUE(measured.ok());
  EXPECT_EQ(simulatedTimes(graph, *measured, second), std::make_pair(TimeNs{150}, TimeNs{550}));
  EXPECT_EQ(simulatedTimes(graph, *measured, first), std::make_pair(TimeNs{0}, TimeNs{50}));
  // 30 ns of aten::mm cut: the all-reduce is queued, runs and is waited for 30 ns earlier; the
  // launch-latency knobs (a device's) leave the worker's 40 ns start delay as it was.
  SimKnobs knobs;
  knobs.hostCuts.push_back({0, trace.events[eventNamed(trace, "aten::mm")].lane, 10, 90, 30});
  knobs.launchLatencyNs = 0;
  auto cut = simulate(graph, knobs);
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(simulatedTimes(graph, *cut, second), std::make_pair(TimeNs{120}, TimeNs{520}));
  EXPECT_EQ(simulatedTimes(graph, *cut, eventNamed(trace, "aten::div_")),
            std::make_pair(TimeNs{570}, TimeNs{610}));
}

TEST(TimelineExport, WritesEveryReplayedEventAtItsSimulatedTime) {
  const Trace trace = blockingTrace();
  const LaunchIndex index = LaunchIndex::build(trace);
  const SimGraph graph =
      buildSimGraph(trace, simInputsFromKineto(index, findSyncDependencies(trace, index)));
  SimKnobs half;
  half.scales.push_back({"^k$", 0.5});
  auto run = simulate(graph, half);
  ASSERT_TRUE(run.ok());
  const auto dir =
      std::filesystem::temp_directory_path() / ("sutra_sim_export_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "timeline.json").string();
  const SimulatedRank rank{0, &graph, &run.value()};
  ASSERT_TRUE(writeSimulatedTimeline(path, std::span(&rank, 1)).ok());
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
  std::ifstream in(path);
  const auto doc = nlohmann::json::parse(in);
  int complete = 0;
  for (const auto& e : doc["traceEvents"]) {
    if (e["ph"] != "X") continue;
    ++complete;
    if (e["name"] == "cudaStreamSynchronize") {
      EXPECT_DOUBLE_EQ(e["ts"].get<double>(), 0.030);
      EXPECT_DOUBLE_EQ(e["dur"].get<double>(), 0.500);
      EXPECT_DOUBLE_EQ(e["args"]["measured_dur"].get<double>(), 1.0);
    }
  }
  EXPECT_EQ(complete, 4);
  // A missing output folder is made (issue 16); a file where the folder should be is an error.
  EXPECT_TRUE(
      writeSimulatedTimeline((dir / "no" / "such" / "dir.json").string(), std::span(&rank, 1))
          .ok());
  EXPECT_FALSE(writeSimulatedTimeline((dir / "no" / "such" / "dir.json" / "x.json").string(),
                                      std::span(&rank, 1))
                   .ok());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace sutra
