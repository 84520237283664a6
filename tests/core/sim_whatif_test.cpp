// SPDX-License-Identifier: MIT
// The what-if knobs of measured traces (--scale-cpu, --network-speed), the network model fitted to
// a run's collectives, and the wake-up of a thread by a gloo worker's collective, on small
// hand-built traces whose expected times are worked out by hand in the comments (nanoseconds).
#include <gtest/gtest.h>

#include <memory>

#include "sim_fixture.h"
#include "simulate/collective_matching.h"
#include "simulate/rank_simulation.h"
#include "simulate/simulator.h"
#include "simulate/transfer_model.h"
#include "simulate/what_holds.h"

namespace sutra {
namespace {

using test::eventNamed;
using test::SimFixture;
using Times = std::pair<TimeNs, TimeNs>;

Times timesOf(const RankSimulation& sim, const SimRun& run, const char* name) {
  return simulatedTimes(sim.graph, run, eventNamed(*sim.trace, name)).value_or(Times{-1, -1});
}

SimRun runOf(const RankSimulation& sim, const SimKnobs& knobs = {}) {
  auto run = simulate(sim.graph, knobs);
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
  return run.ok() ? std::move(run.value()) : SimRun{};
}

// Thread 1: "outer" 0-40 holds "straggle" 10-30; a launch at 50 (correlation 1) starts kernel k
// at 60 for 100.
std::unique_ptr<RankSimulation> stragglerRank() {
  SimFixture f;
  const auto t = f.thread("1"), s = f.stream("7");
  f.add(t, "outer", 0, 40, "user_annotation");
  f.add(t, "straggle", 10, 20, "user_annotation");
  f.add(t, "cudaLaunchKernel", 50, 5, "cuda_runtime", 1);
  f.add(s, "k", 60, 100, "kernel", 1);
  return prepareRankSimulation(std::make_shared<const Trace>(f.finish()), 0);
}

TEST(SimWhatIf, ScaleCpuRemovesANamedAnnotationAndWhatFollowsMoves) {
  const auto sim = stragglerRank();
  EXPECT_EQ(timesOf(*sim, runOf(*sim), "k"), Times(60, 160));
  SimKnobs removed;
  removed.hostScales.push_back({"^straggle$", 0});
  // The launch loses straggle's 20: 30; k after the measured latency of 10.
  EXPECT_EQ(timesOf(*sim, runOf(*sim, removed), "cudaLaunchKernel"), Times(30, 35));
  EXPECT_EQ(timesOf(*sim, runOf(*sim, removed), "k"), Times(40, 140));
  SimKnobs doubled;
  doubled.hostScales.push_back({"^straggle$", 2});
  EXPECT_EQ(timesOf(*sim, runOf(*sim, doubled), "k"), Times(80, 180));
  // Nested matches count once: the outermost (outer's 40 halved, straggle inside it not again).
  SimKnobs nested;
  nested.hostScales.push_back({"outer|straggle", 0.5});
  EXPECT_EQ(timesOf(*sim, runOf(*sim, nested), "k"), Times(40, 140));
}

TEST(SimWhatIf, KnobsOutOfRangeAreRefusedWithTheirText) {
  EXPECT_TRUE(parseHostScale("straggle=0").ok());
  EXPECT_FALSE(parseHostScale("straggle=-1").ok());
  EXPECT_FALSE(parseHostScale("=2").ok());
  EXPECT_NE(parseHostScale("x=abc").error().message.find("--scale-cpu 'x=abc'"), std::string::npos);
  EXPECT_DOUBLE_EQ(parseNetworkSpeed("0.25").value(), 0.25);
  EXPECT_FALSE(parseNetworkSpeed("0").ok());
  EXPECT_FALSE(parseNetworkSpeed("fast").ok());
  SimKnobs bad;
  bad.hostScales.push_back({"(", 0});
  const auto refused = validateKnobs(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("--scale-cpu pattern '('"), std::string::npos);
}

// Two gloo ranks (microseconds): each queues an all-reduce (c10d::allreduce_) that its worker
// thread runs as gloo:all_reduce of 1 MiB. Rank 0 queues at 100 and its worker waits 200-2100 for
// rank 1, which queues at 1000 and transfers 1100-2100 (1000). Each main thread waits inside
// ProfilerStep#1 (no wait op) and resumes with "after" 100 past the collective's end.
constexpr const char* kGlooArgs = R"({"Input Dims": [[262144]], "Input type": ["float"]})";
constexpr TimeNs kUs = 1000;
std::shared_ptr<const Trace> glooRank(int rank) {
  SimFixture f;
  const auto t = f.thread("1"), w = f.thread("2");
  const TimeNs issue = (rank == 0 ? 100 : 1000) * kUs;
  f.add(t, "ProfilerStep#1", 0, 2300 * kUs, "user_annotation");
  f.add(t, "work", 0, issue);
  f.add(t, "c10d::allreduce_", issue, 10 * kUs);
  f.add(w, "gloo:all_reduce", issue + 100 * kUs, 2000 * kUs - issue, "user_annotation", kNoId,
        kGlooArgs);
  f.add(t, "after", 2200 * kUs, 50 * kUs);
  return std::make_shared<const Trace>(f.finish());
}

struct GlooRanks {
  std::vector<std::unique_ptr<RankSimulation>> sims;
  CollectiveMatching matching;
  GlooRanks() {
    std::vector<RankComms> comms;
    for (int r = 0; r < 2; ++r) {
      sims.push_back(prepareRankSimulation(glooRank(r), r));
      comms.push_back({r, sims.back()->comms});
    }
    matching = matchCollectives(comms);
  }
  std::vector<SimRun> run(const SimKnobs& knobs) const {
    std::vector<const SimGraph*> graphs{&sims[0]->graph, &sims[1]->graph};
    auto runs = simulateRanks(graphs, matching.collectives, knobs);
    EXPECT_TRUE(runs.ok());
    return runs.ok() ? std::move(runs.value()) : std::vector<SimRun>{};
  }
};

TEST(SimWhatIf, AThreadResumingAsAGlooCollectiveEndsFollowsIt) {
  const GlooRanks ranks;
  ASSERT_EQ(ranks.matching.collectives.size(), 1u);
  EXPECT_EQ(ranks.matching.collectives[0].bytes, 262144 * 4);
  EXPECT_EQ(ranks.sims[0]->graph.wakeupsInferred, 1u);
  const auto replay = ranks.run({});
  EXPECT_EQ(timesOf(*ranks.sims[0], replay[0], "after"), Times(2200 * kUs, 2250 * kUs));
  // Both ranks' work removed: each queues at 0 and its worker starts 100 later; both end at 100 +
  // the transfer 1000 = 1100, and "after" resumes 100 later on both ranks.
  SimKnobs noWork;
  noWork.hostScales.push_back({"^work$", 0});
  const auto runs = ranks.run(noWork);
  EXPECT_EQ(timesOf(*ranks.sims[0], runs[0], "gloo:all_reduce"), Times(100 * kUs, 1100 * kUs));
  EXPECT_EQ(timesOf(*ranks.sims[0], runs[0], "after"), Times(1200 * kUs, 1250 * kUs));
  EXPECT_EQ(timesOf(*ranks.sims[1], runs[1], "after"), Times(1200 * kUs, 1250 * kUs));
}

TEST(SimWhatIf, WhatHoldsARankIsItsCriticalPathByCause) {
  const GlooRanks ranks;
  const auto runs = ranks.run({});
  std::vector<const SimGraph*> graphs{&ranks.sims[0]->graph, &ranks.sims[1]->graph};
  // Rank 0, back from its wake-up at 2200: the worker's end 2100 + the wake-up's 100 (held); the
  // all-reduce 200-2100 waited for rank 1's arrival at 1100 (900) and transferred 1000; it was
  // picked up 100 after c10d::allreduce_ (held), which "work" reached after 100 of host time.
  const WhatHolds h = whatHolds(graphs, runs, ranks.matching.collectives, {}, 0);
  EXPECT_EQ(h.pathNs, 2200 * kUs);
  EXPECT_EQ(h.hostNs, 100 * kUs);
  EXPECT_EQ(h.commWaitNs, 900 * kUs);
  EXPECT_EQ(h.commTransferNs, 1000 * kUs);
  EXPECT_EQ(h.heldGapNs, 200 * kUs);
  EXPECT_EQ(h.deviceNs + h.launchNs, 0);
}

TEST(SimWhatIf, NetworkSpeedDividesTheTransferAndHoldsTheLatency) {
  GlooRanks ranks;
  SimKnobs faster;
  faster.networkSpeed = 4;
  // No model: the whole transfer (1000) divided: the collective ends at 1100 + 250.
  auto runs = ranks.run(faster);
  EXPECT_EQ(timesOf(*ranks.sims[1], runs[1], "gloo:all_reduce"), Times(1100 * kUs, 1350 * kUs));
  EXPECT_EQ(timesOf(*ranks.sims[0], runs[0], "after"), Times(1450 * kUs, 1500 * kUs));
  // A modelled latency of 200 is held: 200 + 800 / 4.
  ranks.matching.collectives[0].transferLatencyNs = 200 * kUs;
  ranks.matching.collectives[0].transferBandwidthNs = 800 * kUs;
  runs = ranks.run(faster);
  EXPECT_EQ(timesOf(*ranks.sims[1], runs[1], "gloo:all_reduce"), Times(1100 * kUs, 1500 * kUs));
}

TEST(SimWhatIf, TheTransferModelFitsLatencyAndBandwidthToTheCollectives) {
  // All-reduces on 2 ranks as ASTRA-sim's ring costs them: 8 steps (2 x (n - 1) x 4 chunks),
  // and each rank sends the whole size. Measured: 100 ns a step + 1 ns a byte.
  std::vector<SimCollective> collectives(3);
  std::vector<TransferSample> samples;
  for (std::int64_t bytes : {1'000'000, 2'000'000, 4'000'000})
    samples.push_back({"all_reduce", bytes, 2, 800 + bytes});
  const TransferFit fit = fitTransferModel(collectives, samples);
  EXPECT_EQ(fit.fitted, 3u);
  EXPECT_NEAR(fit.latencyNs, 100, 1e-6);
  EXPECT_NEAR(fit.bandwidthGBps(), 1.0, 1e-9);
  EXPECT_EQ(collectives[1].transferLatencyNs, 800);
  EXPECT_EQ(collectives[1].transferBandwidthNs, 2'000'000);
  EXPECT_NEAR(fit.residualRmsNs, 0, 1);
  // One size: latency and bandwidth cannot be told apart; all of it is the bandwidth's.
  std::vector<SimCollective> one(1);
  const TransferFit single = fitTransferModel(one, {{"all_reduce", 1000, 2, 5000}});
  EXPECT_EQ(single.latencyNs, 0);
  EXPECT_EQ(one[0].transferBandwidthNs, 5000);
  // No size: nothing fitted, the transfer scales whole.
  std::vector<SimCollective> unsized(1);
  EXPECT_EQ(fitTransferModel(unsized, {{"all_reduce", 0, 2, 5000}}).fitted, 0u);
  EXPECT_EQ(unsized[0].transferBandwidthNs, -1);
}

}  // namespace
}  // namespace sutra
