// SPDX-License-Identifier: MIT
// Kineto ranks simulated together (collectives matched by process group and order), and blocking
// synchronize calls of non-CUDA backends (MTIA, PrivateUse1), on small hand-built traces whose
// expected times are worked out by hand in the comments (nanoseconds).
#include <gtest/gtest.h>

#include <memory>

#include "link/launch_index.h"
#include "link/sync_dependencies.h"
#include "sim_fixture.h"
#include "simulate/collective_matching.h"
#include "simulate/rank_simulation.h"
#include "simulate/sim_inputs.h"
#include "simulate/simulator.h"

namespace sutra {
namespace {

using test::eventNamed;
using test::SimFixture;
using Times = std::pair<TimeNs, TimeNs>;

constexpr const char* kAllReduceArgs =
    R"({"Collective name": "allreduce", "Process Group Name": "0"})";
constexpr const char* kNccl = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";

// Rank 0: record_param_comms 0-100 launches the all-reduce at 10 (correlation 1); its kernel runs
// 30-1130, waiting for rank 1. Rank 1: aten::mm 0-10 launches a gemm at 2 (correlation 2) that
// runs 20-1020; record_param_comms 12-100 launches the all-reduce at 15, queued behind the gemm:
// 1030-1130 (the transfer, 100).
std::shared_ptr<const Trace> allReduceRank(int rank) {
  SimFixture f;
  const auto t = f.thread("1"), s = f.stream("7");
  if (rank == 0) {
    f.add(t, "record_param_comms", 0, 100, "cpu_op", kNoId, kAllReduceArgs);
    f.add(t, "cudaLaunchKernel", 10, 10, "cuda_runtime", 1);
    f.add(s, kNccl, 30, 1100, "kernel", 1);
  } else {
    f.add(t, "aten::mm", 0, 10);
    f.add(t, "cudaLaunchKernel", 2, 6, "cuda_runtime", 2);
    f.add(s, "gemm", 20, 1000, "kernel", 2);
    f.add(t, "record_param_comms", 12, 88, "cpu_op", kNoId, kAllReduceArgs);
    f.add(t, "cudaLaunchKernel", 15, 5, "cuda_runtime", 1);
    f.add(s, kNccl, 1030, 100, "kernel", 1);
  }
  return std::make_shared<const Trace>(f.finish());
}

struct TwoRanks {
  std::vector<std::unique_ptr<RankSimulation>> sims;
  CollectiveMatching matching;
  std::vector<SimRun> runs;
  TwoRanks(const SimKnobs& knobs = {}) {
    std::vector<const SimGraph*> graphs;
    std::vector<RankComms> comms;
    for (int r = 0; r < 2; ++r) {
      sims.push_back(prepareRankSimulation(allReduceRank(r), r));
      graphs.push_back(&sims.back()->graph);
      comms.push_back({r, sims.back()->comms});
    }
    matching = matchCollectives(comms);
    auto result = simulateRanks(graphs, matching.collectives, knobs);
    EXPECT_TRUE(result.ok());
    if (result.ok()) runs = std::move(result.value());
  }
  Times times(int rank, const char* name) const {
    const auto t =
        simulatedTimes(sims[rank]->graph, runs[rank], eventNamed(*sims[rank]->trace, name));
    EXPECT_TRUE(t.has_value()) << name;
    return t.value_or(Times{-1, -1});
  }
};

TEST(SimRanks, KinetoCollectivesMatchByProcessGroupAndReplayExactly) {
  const TwoRanks two;
  ASSERT_EQ(two.sims[0]->comms.size(), 1u);
  EXPECT_EQ(two.sims[0]->comms[0].collective, "allreduce");
  EXPECT_EQ(two.sims[0]->comms[0].processGroup, "0");
  ASSERT_EQ(two.matching.collectives.size(), 1u);
  EXPECT_EQ(two.matching.matchedOps, 2u);
  // Last arrival 1030 + the shortest span 100 = 1130 on both ranks, as measured.
  EXPECT_EQ(two.times(0, kNccl), Times(30, 1130));
  EXPECT_EQ(two.times(1, kNccl), Times(1030, 1130));
  EXPECT_EQ(two.runs[0].forcedNodes + two.runs[1].forcedNodes, 0u);
}

TEST(SimRanks, ASlowRankDelaysTheOthersAndAFasterOneReleasesThem) {
  SimKnobs halfGemm;
  halfGemm.scales.push_back({"^gemm$", 0.5});
  const TwoRanks two(halfGemm);
  // Rank 1's gemm 20-520; its all-reduce follows by the measured turnaround (10): 530; its
  // launch at 15 plus the stream's typical latency (18) does not hold it. Both end 530 + 100.
  EXPECT_EQ(two.times(1, "gemm"), Times(20, 520));
  EXPECT_EQ(two.times(1, kNccl), Times(530, 630));
  EXPECT_EQ(two.times(0, kNccl), Times(30, 630));
  EXPECT_EQ(two.runs[0].finish, 630);

  // Alone, rank 0 keeps its measured 1100.
  auto alone = prepareRankSimulation(allReduceRank(0), 0);
  auto run = simulate(alone->graph, halfGemm);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(run->finish, 1130);
}

// Backend synchronize calls. Thread 1 calls SYNC 100-1100 then runs "after" 1120-1170; the
// device (pid 0) runs "k" 50-1090 on stream 5 and "other" 0-2090 on stream 6 (streams in args).
std::unique_ptr<RankSimulation> backendSync(const char* cat, const char* name, const char* args,
                                            TimeNs callDur = 1000) {
  SimFixture f;
  const auto t = f.thread("1"), d5 = f.lane("0", "9"), d6 = f.lane("0", "10");
  f.add(t, name, 100, callDur, cat, kNoId, args);
  f.add(t, "after", 100 + callDur + 20, 50);
  f.add(d5, "k", 50, 1040, "mtia_ccp_events", kNoId, R"({"stream": 5})");
  f.add(d6, "other", 0, 2090, "mtia_ccp_events", kNoId, R"({"stream": 6})");
  return prepareRankSimulation(std::make_shared<const Trace>(f.finish()), 0);
}

std::vector<std::string> waitedOn(const RankSimulation& sim) {
  const auto deps = findSyncDependencies(*sim.trace, *sim.launches);
  std::vector<std::string> out;
  for (const auto& d : deps) {
    EXPECT_EQ(d.kind, SyncKind::BlockingCall);
    out.emplace_back(sim.trace->name(sim.trace->events[d.waitedOn]));
  }
  return out;
}

Times timesOf(const RankSimulation& sim, const SimRun& run, const char* name) {
  return simulatedTimes(sim.graph, run, eventNamed(*sim.trace, name)).value_or(Times{-1, -1});
}

TEST(SimRanks, MtiaStreamSynchronizeHoldsItsThreadUntilItsStreamsOpEnds) {
  const auto sim =
      backendSync("mtia_runtime", "synchronizeStream", R"({"stream_id": 5, "device": 0})");
  EXPECT_EQ(waitedOn(*sim), std::vector<std::string>{"k"});
  EXPECT_EQ(sim->graph.hostWaitsUsed, 1u);
  // k twice as long: 50-2130; the call releases 10 after it (its measured wake-up, 1100 - 1090):
  // 2140; "after" 20 later.
  SimKnobs slow;
  slow.scales.push_back({"^k$", 2});
  auto run = simulate(sim->graph, slow);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(timesOf(*sim, *run, "synchronizeStream"), Times(100, 2140));
  EXPECT_EQ(timesOf(*sim, *run, "after"), Times(2160, 2210));
  // k half as long: 50-570; release 580.
  SimKnobs fast;
  fast.scales.push_back({"^k$", 0.5});
  run = simulate(sim->graph, fast);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(timesOf(*sim, *run, "synchronizeStream"), Times(100, 580));
  EXPECT_EQ(timesOf(*sim, *run, "after"), Times(600, 650));
}

TEST(SimRanks, MtiaDeviceSynchronizeWaitsOnEveryStreamOfItsDevice) {
  // 100-2100: k (ends 1090) and other (ends 2090) both ended before it returned.
  const auto sim = backendSync("mtia_runtime", "synchronize", R"({"device": 0})", 2000);
  EXPECT_EQ(waitedOn(*sim), (std::vector<std::string>{"k", "other"}));
  // other halved: 0-1045; the last end waited on is k's 1090; release 1090 + 10.
  SimKnobs fast;
  fast.scales.push_back({"^other$", 0.5});
  auto run = simulate(sim->graph, fast);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(timesOf(*sim, *run, "synchronize"), Times(100, 1100));
  EXPECT_EQ(timesOf(*sim, *run, "after"), Times(1120, 1170));
}

TEST(SimRanks, PrivateUse1StreamSynchronizeIsBlockingToo) {
  const auto sim =
      backendSync("privateuse1_runtime", "aclrtSynchronizeStream", R"({"stream": "6"})", 2000);
  EXPECT_EQ(waitedOn(*sim), std::vector<std::string>{"other"});
  SimKnobs slow;
  slow.scales.push_back({"^other$", 1.5});  // 0-3135: release 3135 + 10
  auto run = simulate(sim->graph, slow);
  ASSERT_TRUE(run.ok());
  EXPECT_EQ(timesOf(*sim, *run, "aclrtSynchronizeStream"), Times(100, 3145));
}

TEST(SimRanks, BackendCallsThatDoNotBlockWaitOnNothing) {
  // An event synchronize is not covered; a synchronize the device records on its own process
  // is the device's view of a host call; an op that ended after the call returned was not waited
  // on.
  EXPECT_TRUE(
      waitedOn(*backendSync("mtia_runtime", "synchronizeEvent", R"({"device": 0})")).empty());
  SimFixture f;
  const auto dev = f.lane("0", "9");
  f.add(dev, "k", 50, 1040, "mtia_ccp_events", kNoId, R"({"stream": 5})");
  f.add(f.lane("0", "11"), "synchronize", 100, 1000, "mtia_runtime", kNoId, R"({"stream_id": 5})");
  auto sim = prepareRankSimulation(std::make_shared<const Trace>(f.finish()), 0);
  EXPECT_TRUE(waitedOn(*sim).empty());
  // 100-500 on stream 5: k ended at 1090, after the call returned.
  EXPECT_TRUE(
      waitedOn(*backendSync("mtia_runtime", "synchronizeStream", R"({"stream_id": 5})", 400))
          .empty());
}

}  // namespace
}  // namespace sutra
