// SPDX-License-Identifier: MIT
// Prediction from the graph alone on every real trace in ../shared/traces that converts: the
// Chakra file Sutra writes, simulated from its durations and dependencies only (what ASTRA-sim and
// `sutra-cli simulate --graph-only` do), lands within 3 % of the measured span, and the replay
// with the file's start times stays exact. The figures before the measured-gap export (CPU ops'
// exclusive times, the converter's --no-gaps) are in docs/performance.md: -13.6 % on param linear,
// -92.8 % on the multi-stream event-sync trace, -99.97 % on trace_compare.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "chakra/convert_files.h"
#include "simulate/chakra_simulation.h"
#include "simulate/simulator.h"
#include "test_support.h"

namespace sutra {
namespace {

struct GraphCase {
  const char* kineto;
  const char* et;  // "" for a Kineto trace alone
};

class GraphOnly : public ::testing::TestWithParam<GraphCase> {};

// The graph's simulated span against its measured one (first start to last end in the file).
double relativeError(const chakra::ChakraTrace& t, bool graphOnly, TimeNs* measuredOut) {
  ChakraSimOptions options;
  options.dependenciesOnly = graphOnly;
  const auto sim = prepareChakraSimulation(t, 0, options);
  EXPECT_TRUE(sim->measuredTimes);
  auto run = simulate(sim->graph);
  EXPECT_TRUE(run.ok());
  if (!run.ok()) return 1.0;
  EXPECT_EQ(run->forcedNodes, 0u);
  const Step& whole = sim->steps.front();
  const TimeNs measured = whole.end - whole.start;
  *measuredOut = measured;
  return static_cast<double>(run->finish - run->begin - measured) / static_cast<double>(measured);
}

TEST_P(GraphOnly, PredictsTheMeasuredSpanWithinThreePercent) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const std::string et = *GetParam().et ? test::sharedTrace(GetParam().et) : std::string();
  auto conv = chakra::convertTracePair(et, test::sharedTrace(GetParam().kineto));
  ASSERT_TRUE(conv.ok()) << conv.error().message;
  TimeNs measured = 0;
  const double graphOnly = relativeError(conv->chakra.trace, true, &measured);
  const double replay = relativeError(conv->chakra.trace, false, &measured);
  std::printf(
      "%s: measured %lld ns, graph only %+.2f%%, replay %+.4f%% (%zu host, %zu device gaps)\n",
      GetParam().kineto, static_cast<long long>(measured), 100 * graphOnly, 100 * replay,
      conv->chakra.stats.hostGapNodes, conv->chakra.stats.deviceGapNodes);
  EXPECT_LE(std::abs(graphOnly), 0.03);
  EXPECT_LE(std::abs(replay), 0.0005);
}

INSTANTIATE_TEST_SUITE_P(
    RealTraces, GraphOnly,
    ::testing::Values(GraphCase{"param/linear_kineto.json.gz", "param/linear_et.json.gz"},
                      GraphCase{"hta/execution_trace/simple_add_kineto.json.gz",
                                "hta/execution_trace/simple_add_et.json.gz"},
                      GraphCase{"hta/critical_path/alexnet.json.gz", ""},
                      GraphCase{"hta/critical_path/simple_add.json.gz", ""},
                      GraphCase{"hta/critical_path/cuda_event_sync.json.gz", ""},
                      GraphCase{"hta/critical_path/cuda_event_sync_multi_stream.json.gz", ""},
                      GraphCase{"hta/amd/mi250_minitoy_train_rocm6.2.json.gz", ""},
                      GraphCase{"hta/triton/triton_example.json.gz", ""},
                      GraphCase{"hta/mtia/mtia_inference_rank_0.json.gz", ""},
                      GraphCase{"hta/cpu_only/rank-34.pt.trace.json.gz", ""},
                      GraphCase{"hta/trace_compare/base.json.gz", ""},
                      GraphCase{"hta/trace_compare/test.json.gz", ""},
                      GraphCase{"kineto/resnet50_2021_autograd_api.pt.trace.json.gz", ""},
                      GraphCase{"kineto/resnet50_2020_top_level_array.pt.trace.json.gz", ""}));

}  // namespace
}  // namespace sutra
