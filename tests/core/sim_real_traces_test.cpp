// SPDX-License-Identifier: MIT
// The simulator on every real Kineto trace in ../shared/traces: with no knobs it replays each
// trace exactly, and knobs move the projection in the direction they should.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "io/readers.h"
#include "link/launch_index.h"
#include "link/sync_dependencies.h"
#include "simulate/rank_simulation.h"
#include "simulate/sim_inputs.h"
#include "simulate/simulator.h"
#include "simulate/step_projection.h"
#include "test_support.h"

namespace sutra {
namespace {

const char* const kKinetoTraces[] = {
    "param/linear_kineto.json.gz",
    "hta/critical_path/alexnet.json.gz",
    "hta/critical_path/simple_add.json.gz",
    "hta/critical_path/cuda_event_sync.json.gz",
    "hta/critical_path/cuda_event_sync_multi_stream.json.gz",
    "hta/trace_compare/base.json.gz",
    "hta/trace_compare/test.json.gz",
    "hta/amd/mi250_minitoy_train_rocm6.2.json.gz",
    "hta/triton/triton_example.json.gz",
    "hta/cpu_only/rank-34.pt.trace.json.gz",
    "hta/mtia/mtia_inference_rank_0.json.gz",
    "hta/execution_trace/simple_add_kineto.json.gz",
};

class SimRealTrace : public ::testing::TestWithParam<const char*> {};

TEST_P(SimRealTrace, ReplaysExactlyWithNoKnobs) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto trace = readKinetoTrace(test::sharedTrace(GetParam()));
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  const LaunchIndex index = LaunchIndex::build(*trace);
  const auto syncs = findSyncDependencies(*trace, index);
  const SimGraph graph = buildSimGraph(*trace, simInputsFromKineto(index, syncs));
  auto run = simulate(graph);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->forcedNodes, 0u);
  std::size_t modelled = 0, off = 0;
  for (EventId e = 0; e < trace->events.size(); ++e) {
    auto t = simulatedTimes(graph, *run, e);
    if (!t) continue;
    ++modelled;
    const Event& ev = trace->events[e];
    if (t->first != ev.start || t->second != ev.end()) {
      if (off++ < 5)
        ADD_FAILURE() << trace->name(ev) << " measured " << ev.start << ".." << ev.end()
                      << " simulated " << t->first << ".." << t->second;
    }
  }
  EXPECT_EQ(off, 0u);
  std::printf(
      "%s: %zu nodes, %zu edges, %zu device ops, %zu of %zu events replayed, waits %llu/%llu\n",
      GetParam(), graph.nodes.size(), graph.edges.size(), graph.deviceOpCount(), modelled,
      trace->events.size(), static_cast<unsigned long long>(graph.hostWaitsUsed),
      static_cast<unsigned long long>(graph.streamWaitsUsed));
  for (const auto& p : graph.problems.all())
    std::printf("  problem: %s x%llu (%s)\n", p.what.c_str(),
                static_cast<unsigned long long>(p.count), p.example.c_str());
}

TEST_P(SimRealTrace, FasterDevicesOrCpusNeverMakeAnythingLater) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto trace = readKinetoTrace(test::sharedTrace(GetParam()));
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  const LaunchIndex index = LaunchIndex::build(*trace);
  const SimGraph graph =
      buildSimGraph(*trace, simInputsFromKineto(index, findSyncDependencies(*trace, index)));
  auto base = simulate(graph);
  ASSERT_TRUE(base.ok());
  SimKnobs fasterDevice, fasterCpu, noLatency;
  fasterDevice.scales.push_back({".", 0.5});
  fasterCpu.cpuSpeed = 2;
  noLatency.launchLatencyNs = 0;
  for (const SimKnobs* knobs : {&fasterDevice, &fasterCpu, &noLatency}) {
    auto run = simulate(graph, *knobs);
    ASSERT_TRUE(run.ok());
    EXPECT_LE(run->finish - run->begin, base->finish - base->begin);
    std::size_t later = 0;
    for (std::size_t i = 0; i < graph.nodes.size(); ++i) later += run->end[i] > base->end[i];
    EXPECT_EQ(later, 0u);
  }
  // Where the trace ends with device work, halving it shortens the projection.
  TimeNs lastDeviceEnd = kNoAnchor;
  for (std::size_t i = 0; i < graph.nodes.size(); ++i)
    if (graph.nodes[i].kind == SimNodeKind::DeviceOp)
      lastDeviceEnd = std::max(lastDeviceEnd, base->end[i]);
  if (lastDeviceEnd == base->finish) {
    auto run = simulate(graph, fasterDevice);
    ASSERT_TRUE(run.ok());
    EXPECT_LT(run->finish - run->begin, base->finish - base->begin);
  }
}

// The bar: with no knobs, each step's simulated time within 3% of its measured time.
TEST_P(SimRealTrace, EachStepWithinThreePercentOfMeasured) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto trace = readKinetoTrace(test::sharedTrace(GetParam()));
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  auto sim = prepareRankSimulation(std::make_shared<const Trace>(std::move(trace.value())), 0);
  auto run = simulate(sim->graph);
  ASSERT_TRUE(run.ok());
  const RankProjection p = projectSteps(sim->graph, *run, sim->steps);
  ASSERT_FALSE(p.steps.empty());
  double worst = 0;
  for (const auto& s : p.steps) {
    EXPECT_GT(s.measuredNs, 0) << s.name;
    EXPECT_LE(std::abs(s.relativeError()), 0.03)
        << s.name << " measured " << s.measuredNs << " simulated " << s.simulatedNs;
    worst = std::max(worst, std::abs(s.relativeError()));
  }
  std::printf("%s: %zu steps, worst step error %.4f%%, total measured %lld ns simulated %lld ns\n",
              GetParam(), p.steps.size(), 100 * worst, static_cast<long long>(p.measuredNs),
              static_cast<long long>(p.simulatedNs));
}

INSTANTIATE_TEST_SUITE_P(Shared, SimRealTrace, ::testing::ValuesIn(kKinetoTraces));

// The traces with both an ET and a Kineto trace, linked: the linked trace's inter-thread
// dependencies join the graph, and each step stays within 3% (the replay stays exact).
TEST(SimLinkedTrace, EachStepWithinThreePercentOfMeasured) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const std::pair<const char*, const char*> pairs[] = {
      {"param/linear_et.json.gz", "param/linear_kineto.json.gz"},
      {"hta/execution_trace/simple_add_et.json.gz",
       "hta/execution_trace/simple_add_kineto.json.gz"},
  };
  for (const auto& [etPath, kinetoPath] : pairs) {
    auto et = readPytorchEt(test::sharedTrace(etPath));
    ASSERT_TRUE(et.ok()) << et.error().message;
    auto kineto = readKinetoTrace(test::sharedTrace(kinetoPath));
    ASSERT_TRUE(kineto.ok()) << kineto.error().message;
    auto trace = std::make_shared<const Trace>(std::move(kineto.value()));
    auto linked = linkTraces(std::make_shared<const EtTrace>(std::move(et.value())), trace);
    ASSERT_TRUE(linked.ok()) << linked.error().message;
    auto sim = prepareRankSimulation(trace, 0, &linked.value());
    auto run = simulate(sim->graph);
    ASSERT_TRUE(run.ok());
    EXPECT_EQ(run->forcedNodes, 0u);
    const RankProjection p = projectSteps(sim->graph, *run, sim->steps);
    double worst = 0;
    for (const auto& s : p.steps) {
      EXPECT_LE(std::abs(s.relativeError()), 0.03) << kinetoPath << " " << s.name;
      worst = std::max(worst, std::abs(s.relativeError()));
    }
    std::printf(
        "%s + %s: %zu steps, %llu inter-thread dependencies used, worst step error %.4f%%\n",
        etPath, kinetoPath, p.steps.size(),
        static_cast<unsigned long long>(sim->graph.threadDepsUsed), 100 * worst);
  }
}

}  // namespace
}  // namespace sutra
