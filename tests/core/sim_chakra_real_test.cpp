// SPDX-License-Identifier: MIT
// The simulator on real Chakra graphs and real multi-rank traces:
// - Sutra's own conversion of a linked pair simulates to the time the linked trace simulates to
//   (same ops, same window), within the microsecond rounding of the .et format;
// - ASTRA-sim's multi-rank examples match their collectives and point-to-point pairs;
// - the bundled two-rank all-reduce sample replays exactly when its ranks are coupled;
// - the MTIA trace's synchronizeStream calls block on the op their stream ran last.
// Expected numbers from tests/tools (check_simulate_chakra.py, backend_sync_expected.py) and the
// sample's own file (its kernels' ends, read by the python one-liner in the comment below).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "chakra/convert_files.h"
#include "chakra/et_file.h"
#include "io/readers.h"
#include "link/linked_trace.h"
#include "link/sync_dependencies.h"
#include "samples_support.h"
#include "simulate/chakra_simulation.h"
#include "simulate/collective_matching.h"
#include "simulate/simulator.h"
#include "test_support.h"

namespace sutra {
namespace {

struct Span {
  TimeNs begin = kNoAnchor, end = kNoAnchor;
  void add(TimeNs b, TimeNs e) {
    begin = begin == kNoAnchor ? b : std::min(begin, b);
    end = end == kNoAnchor ? e : std::max(end, e);
  }
  TimeNs length() const { return end - begin; }
};

struct PairCase {
  const char* et;
  const char* kineto;
};

class ConvertedPair : public ::testing::TestWithParam<PairCase> {};

// The span compared: from the first op's start to the end of the last device op (a CPU node of
// the graph ends at its start plus its exclusive time, so CPU ends differ by definition; the
// device work's end is the same op on both sides).
TimeNs graphSpan(const SimGraph& g, const SimRun& run) {
  TimeNs end = run.begin;
  for (std::uint32_t n = 0; n < g.nodes.size(); ++n)
    if (g.nodes[n].kind == SimNodeKind::DeviceOp) end = std::max(end, run.end[n]);
  return end - run.begin;
}

// The Kineto simulation of the linked trace, over the ops the converted graph holds (every linked
// op with a Kineto event).
TimeNs linkedSpan(const chakra::PairConversion& conv, const RankSimulation& sim,
                  const SimRun& run) {
  Span s;
  for (const auto& op : conv.linked.ops) {
    if (op.kinetoEvent == kNoEvent) continue;
    const auto t = simulatedTimes(sim.graph, run, op.kinetoEvent);
    if (t) s.add(t->first, op.isDevice() ? t->second : t->first);
  }
  return s.length();
}

TEST_P(ConvertedPair, SimulatesLikeTheLinkedTraceItCameFrom) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto conv = chakra::convertTracePair(test::sharedTrace(GetParam().et),
                                       test::sharedTrace(GetParam().kineto));
  ASSERT_TRUE(conv.ok()) << conv.error().message;
  const auto graph = prepareChakraSimulation(conv->chakra.trace, 0);
  ASSERT_TRUE(graph->measuredTimes);
  const auto kineto = prepareRankSimulation(conv->linked.kineto, 0, &conv->linked);

  ChakraSimOptions graphOnly;
  graphOnly.dependenciesOnly = true;
  const auto bare = prepareChakraSimulation(conv->chakra.trace, 0, graphOnly);

  SimKnobs none, halfDevice;
  halfDevice.scales.push_back({".", 0.5});  // every device op twice as fast
  for (const SimKnobs* knobs : {&none, &halfDevice}) {
    auto c = simulate(graph->graph, *knobs);
    auto k = simulate(kineto->graph, *knobs);
    auto b = simulate(bare->graph, *knobs);
    ASSERT_TRUE(c.ok() && k.ok() && b.ok());
    EXPECT_EQ(c->forcedNodes, 0u);
    const TimeNs chakraNs = graphSpan(graph->graph, *c), bareNs = graphSpan(bare->graph, *b);
    const TimeNs kinetoNs = linkedSpan(*conv, *kineto, *k);
    std::printf(
        "%s%s: converted graph %lld ns, linked trace %lld ns (%+.3f%%), graph only %lld ns "
        "(%+.2f%%)\n",
        GetParam().kineto, knobs == &none ? "" : " (device ops x0.5)",
        static_cast<long long>(chakraNs), static_cast<long long>(kinetoNs),
        100.0 * static_cast<double>(chakraNs - kinetoNs) / static_cast<double>(kinetoNs),
        static_cast<long long>(bareNs),
        100.0 * static_cast<double>(bareNs - kinetoNs) / static_cast<double>(kinetoNs));
    // The .et keeps integer microseconds: the first start and the last end each round by at
    // most half a microsecond, and under a knob so may a device gap (the launch latency a
    // device op waited, a node of its own) on the way. Without the knob both real pairs agree
    // to the nanosecond (their Kineto times are whole microseconds).
    EXPECT_LE(std::llabs(chakraNs - kinetoNs), knobs == &none ? 0 : 2000)
        << chakraNs << " vs " << kinetoNs;
  }
}

INSTANTIATE_TEST_SUITE_P(
    RealPairs, ConvertedPair,
    ::testing::Values(PairCase{"param/linear_et.json.gz", "param/linear_kineto.json.gz"},
                      PairCase{"hta/execution_trace/simple_add_et.json.gz",
                               "hta/execution_trace/simple_add_kineto.json.gz"}));

struct Loaded {
  std::vector<std::unique_ptr<RankSimulation>> sims;
  CollectiveMatching matching;
  std::vector<SimRun> runs;
};

Loaded loadChakraRanks(const std::string& dir, const char* prefix, int ranks) {
  Loaded out;
  std::vector<const SimGraph*> graphs;
  std::vector<RankComms> comms;
  for (int r = 0; r < ranks; ++r) {
    auto et = chakra::readChakraTrace(dir + "/" + prefix + "." + std::to_string(r) + ".et");
    EXPECT_TRUE(et.ok()) << et.error().message;
    if (!et.ok()) return out;
    out.sims.push_back(prepareChakraSimulation(*et, r));
    graphs.push_back(&out.sims.back()->graph);
    comms.push_back({r, out.sims.back()->comms});
  }
  out.matching = matchCollectives(comms);
  auto runs = simulateRanks(graphs, out.matching.collectives);
  EXPECT_TRUE(runs.ok());
  if (runs.ok()) out.runs = std::move(runs.value());
  return out;
}

TEST(SimChakraReal, AstraSimAllGatherMatchesOneCollectiveOverFourRanks) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const auto l = loadChakraRanks(test::sharedTrace("astra-sim/all_gather_4npus"), "all_gather", 4);
  ASSERT_EQ(l.matching.collectives.size(), 1u);
  EXPECT_EQ(l.matching.collectives[0].members.size(), 4u);
  EXPECT_EQ(l.matching.unmatchedOps, 0u);
}

TEST(SimChakraReal, AstraSimRingAllReducePairsEverySendWithItsRecv) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const auto l =
      loadChakraRanks(test::sharedTrace("astra-sim/custom_allreduce_8npus"), "custom_allreduce", 8);
  // 14 COMM_SEND_NODE and 14 COMM_RECV_NODE per rank (counted in `sutra-cli jsonize` output):
  // 8 x 14 pairs.
  EXPECT_EQ(l.matching.collectives.size(), 112u);
  EXPECT_EQ(l.matching.matchedOps, 224u);
  EXPECT_EQ(l.matching.unmatchedOps, 0u);
  // 7 reductions of 7 us each in a chain; transfers take no time (no sizes over bandwidth).
  for (const auto& run : l.runs) {
    EXPECT_EQ(run.forcedNodes, 0u);
    EXPECT_EQ(run.finish - run.begin, 49'000);
  }
}

TEST(SimChakraReal, TwoRankAllReduceSampleReplaysExactlyWhenCoupled) {
  const std::string dir = test::samplesRoot() + "/allreduce_2ranks";
  std::vector<std::unique_ptr<RankSimulation>> sims;
  std::vector<const SimGraph*> graphs;
  std::vector<RankComms> comms;
  for (int r = 0; r < 2; ++r) {
    auto trace = readKinetoTrace(dir + "/rank" + std::to_string(r) + ".kineto.json.gz");
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    sims.push_back(
        prepareRankSimulation(std::make_shared<const Trace>(std::move(trace.value())), r));
    graphs.push_back(&sims.back()->graph);
    comms.push_back({r, sims.back()->comms});
  }
  const auto matching = matchCollectives(comms);
  ASSERT_EQ(matching.collectives.size(), 3u);
  EXPECT_EQ(matching.unmatchedOps, 0u);
  auto runs = simulateRanks(graphs, matching.collectives);
  ASSERT_TRUE(runs.ok());
  // Both ranks' all-reduce kernels end together, where they were measured (python3 -c "import
  // gzip,json; [print(e['ts']+e['dur']) for e in json.load(gzip.open(F))['traceEvents'] if
  // e.get('name','').startswith('ncclDevKernel')]": 5417712.111, 5417919.591, 5418111.396 us on
  // both ranks, although rank 0's kernels start up to 137 us earlier).
  ASSERT_EQ(sims[0]->comms.size(), 3u);
  ASSERT_EQ(sims[1]->comms.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    TimeNs measured[2], simulated[2];
    for (int r = 0; r < 2; ++r) {
      const auto node = sims[r]->comms[k].node;
      measured[r] = sims[r]->trace->events[sims[r]->graph.nodes[node].event].end();
      simulated[r] = (*runs)[r].end[node];
    }
    EXPECT_EQ(measured[0], measured[1]) << "#" << k;
    EXPECT_EQ(simulated[0], measured[0]) << "#" << k;
    EXPECT_EQ(simulated[1], measured[1]) << "#" << k;
  }
}

TEST(SimChakraReal, ConvertedTwoRankSampleSimulatesLikeItsLinkedRanks) {
  // Each rank's converted graph counts from its own first op: the clock offsets put the ranks
  // back together, and the coupled graphs then simulate like the coupled Kineto ranks.
  const std::string dir = test::samplesRoot() + "/allreduce_2ranks";
  std::vector<chakra::PairConversion> convs;
  std::vector<std::unique_ptr<RankSimulation>> graphs, kinetos;
  for (int r = 0; r < 2; ++r) {
    LinkOptions link;
    link.rank = r;
    auto conv =
        chakra::convertTracePair(dir + "/rank" + std::to_string(r) + ".et.json.gz",
                                 dir + "/rank" + std::to_string(r) + ".kineto.json.gz", link);
    ASSERT_TRUE(conv.ok()) << conv.error().message;
    convs.push_back(std::move(conv.value()));
  }
  for (int r = 0; r < 2; ++r) {
    graphs.push_back(prepareChakraSimulation(convs[r].chakra.trace, r));
    kinetos.push_back(prepareRankSimulation(convs[r].linked.kineto, r, &convs[r].linked));
  }
  auto coupled = [](const std::vector<std::unique_ptr<RankSimulation>>& sims,
                    std::vector<TimeNs>* offsetsOut) {
    std::vector<const SimGraph*> g;
    std::vector<RankComms> comms;
    for (const auto& s : sims) {
      g.push_back(&s->graph);
      comms.push_back({s->rank, s->comms});
    }
    const auto matching = matchCollectives(comms);
    EXPECT_EQ(matching.collectives.size(), 3u);
    const auto offsets = estimateClockOffsets(g, matching, {true, true});
    if (offsetsOut) *offsetsOut = offsets;
    auto runs = simulateRanks(g, matching.collectives, {}, offsets);
    EXPECT_TRUE(runs.ok());
    return runs.ok() ? std::move(runs.value()) : std::vector<SimRun>{};
  };
  std::vector<TimeNs> graphOffsets, kinetoOffsets;
  const auto graphRuns = coupled(graphs, &graphOffsets);
  const auto kinetoRuns = coupled(kinetos, &kinetoOffsets);
  ASSERT_EQ(graphRuns.size(), 2u);
  ASSERT_EQ(kinetoRuns.size(), 2u);
  EXPECT_EQ(kinetoOffsets, (std::vector<TimeNs>{0, 0}));  // one host: the clocks agree
  for (int r = 0; r < 2; ++r) {
    const TimeNs g = graphSpan(graphs[r]->graph, graphRuns[r]);
    const TimeNs k = linkedSpan(convs[r], *kinetos[r], kinetoRuns[r]);
    std::printf(
        "allreduce_2ranks rank %d: converted graph %lld ns, linked trace %lld ns, clock offset "
        "%lld ns\n",
        r, static_cast<long long>(g), static_cast<long long>(k),
        static_cast<long long>(graphOffsets[r]));
    // Microsecond rounding of the first start and of the last end (and of the ends the clock
    // offset is taken from): within 2 us.
    EXPECT_LE(std::llabs(g - k), 2000) << "rank " << r;
  }
}

TEST(SimChakraReal, MtiaStreamSynchronizeBlocksOnItsStream) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto trace = readKinetoTrace(test::sharedTrace("hta/mtia/mtia_inference_rank_0.json.gz"));
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  const auto sim =
      prepareRankSimulation(std::make_shared<const Trace>(std::move(trace.value())), 0);
  // tests/tools/backend_sync_expected.py: 113 host synchronizeStream calls, 113 dependencies.
  const auto deps = findSyncDependencies(*sim->trace, *sim->launches);
  std::size_t blocking = 0;
  for (const auto& d : deps) blocking += d.kind == SyncKind::BlockingCall;
  EXPECT_EQ(blocking, 113u);
  EXPECT_EQ(sim->graph.hostWaitsUsed, 113u);
  auto run = simulate(sim->graph);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->forcedNodes, 0u);
}

}  // namespace
}  // namespace sutra
