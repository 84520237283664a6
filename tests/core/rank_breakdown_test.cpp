// SPDX-License-Identifier: MIT
// The step breakdown across ranks (core/analysis/rank_breakdown.h): on a generated folder of ranks
// (tests/support/rank_folder_generator.h), whose generator computes each step's compute and
// exposed communication time itself, in true time, independently of Sutra's reader, steps and
// interval unions; and on hand-made breakdowns with exact answers.
#include "analysis/rank_breakdown.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "rank_folder_generator.h"
#include "session/run.h"

namespace sutra {
namespace {

namespace fs = std::filesystem;

// 4 ranks, 3 steps, rank 2's compute 30 % slower. The ranks wait for each other at every
// all-reduce, so each step ends at the same time on every rank: the steps are even, and the rank
// named longest is the one that computes longest, by its kernel time.
TEST(RankBreakdown, GeneratedRanksAgainstTheGeneratorsOwnNumbers) {
  const fs::path dir =
      fs::temp_directory_path() / ("sutra_rank_breakdown_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  gen::RankFolderSpec spec;
  spec.ranks = 4;
  spec.steps = 3;
  spec.bucketsPerStep = 2;
  spec.kernelsPerBucket = 5;
  spec.slowRank = 2;
  auto generated = gen::generateRankFolder(dir.string(), spec);
  ASSERT_TRUE(generated.ok()) << generated.error().message;
  auto run = openRun({dir.string()}, RunOptions::upTo(RunStage::Analyse));
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->ranks.size(), 4u);
  std::vector<RankBreakdown> ranks;
  for (const auto& rank : run->ranks) {
    ranks.push_back({rank->rank, buildBreakdown(*rank->trace, rank->steps())});
    const auto& truth = generated->steps[std::size_t(rank->rank)];
    const auto& steps = ranks.back().breakdown.steps;
    ASSERT_EQ(steps.size(), truth.size());
    for (std::size_t s = 0; s < steps.size(); ++s) {
      ASSERT_EQ(steps[s].step, truth[s].number);
      ASSERT_EQ(steps[s].devices.size(), 1u);
      EXPECT_EQ(steps[s].devices[0].kernel, truth[s].compute) << rank->rank << " step " << s;
      EXPECT_EQ(steps[s].devices[0].communication, truth[s].exposedComm)
          << rank->rank << " step " << s;
    }
  }
  const auto longest = longestRankSteps(ranks);
  ASSERT_EQ(longest.size(), 3u);
  for (std::size_t s = 0; s < longest.size(); ++s) {
    // From the generator: the ranks ranked by compute (ties to the lowest rank), and the part
    // whose difference between the two is the largest (its idle differs as our device idle does:
    // the annotation's tail after the device work is the same on every rank).
    int most = 0, least = 0;
    for (int r = 1; r < 4; ++r) {
      if (generated->steps[r][s].compute > generated->steps[most][s].compute) most = r;
      if (generated->steps[r][s].compute < generated->steps[least][s].compute) least = r;
    }
    const gen::GeneratedStep& a = generated->steps[most][s];
    const gen::GeneratedStep& b = generated->steps[least][s];
    const std::vector<std::pair<std::string, std::int64_t>> deltas{
        {"kernel", a.compute - b.compute},
        {"communication", a.exposedComm - b.exposedComm},
        {"device idle", a.idle - b.idle}};
    const auto part = std::max_element(deltas.begin(), deltas.end(),
                                       [](auto& x, auto& y) { return x.second < y.second; });
    EXPECT_EQ(most, 2);  // the slow rank
    EXPECT_EQ(longest[s].step, generated->steps[0][s].number);
    EXPECT_TRUE(longest[s].even);
    EXPECT_EQ(longest[s].longestRank, most);
    EXPECT_EQ(longest[s].shortestRank, least);
    EXPECT_EQ(longest[s].part, part->first);
    EXPECT_EQ(longest[s].part, "kernel");
    EXPECT_EQ(longest[s].partLongest, a.compute);
    EXPECT_EQ(longest[s].partShortest, b.compute);
    EXPECT_EQ(longest[s].longest, longest[s].shortest);  // they end together
  }
  // The headline names rank 2 in every step, then the step where its kernel time leads most.
  std::size_t widest = 0;
  for (std::size_t s = 1; s < longest.size(); ++s)
    if (longest[s].partLongest - longest[s].partShortest >
        longest[widest].partLongest - longest[widest].partShortest)
      widest = s;
  EXPECT_EQ(longestRanksHeadline(longest),
            "rank 2 is longest in 3 of 3 steps; " + longestRankStepText(longest[widest]));
  fs::remove_all(dir);
}

StepBreakdown deviceStep(std::int64_t number, TimeNs kernel, TimeNs communication, TimeNs idle) {
  StepBreakdown s;
  s.step = number;
  s.start = 1'000;
  s.deviceEnd = s.end = s.start + kernel + communication + idle;
  DeviceBreakdown d;
  d.device = 0;
  d.kernel = kernel;
  d.communication = communication;
  d.idle = idle;
  s.devices = {d};
  return s;
}

// Uneven steps: the longest by duration, the part most above the shortest rank's; a step one rank
// alone holds is left out; ranks without device work compare on the host.
TEST(RankBreakdown, LongestRankByDurationAndThePartThatMakesIt) {
  std::vector<RankBreakdown> ranks(3);
  ranks[0].rank = 0;
  ranks[1].rank = 1;
  ranks[2].rank = 5;
  // step 3: 10 ms, 12.3 ms, 11 ms; rank 1 has 2 ms more communication and 0.3 ms more kernel.
  ranks[0].breakdown.steps = {deviceStep(3, 6'000'000, 3'000'000, 1'000'000)};
  ranks[1].breakdown.steps = {deviceStep(3, 6'300'000, 5'000'000, 1'000'000),
                              deviceStep(4, 1'000'000, 0, 0)};
  ranks[2].breakdown.steps = {deviceStep(3, 6'000'000, 3'000'000, 2'000'000)};
  const auto longest = longestRankSteps(ranks);
  ASSERT_EQ(longest.size(), 1u);  // step 4 is rank 1's alone
  EXPECT_EQ(longest[0].step, 3);
  EXPECT_FALSE(longest[0].even);
  EXPECT_EQ(longest[0].longestRank, 1);
  EXPECT_EQ(longest[0].longest, 12'300'000);
  EXPECT_EQ(longest[0].shortestRank, 0);
  EXPECT_EQ(longest[0].shortest, 10'000'000);
  EXPECT_EQ(longest[0].part, "communication");
  EXPECT_EQ(longestRankStepText(longest[0]),
            "step 3: rank 1 is longest, 12.30 ms against 10.00 ms on rank 0, by communication: "
            "5.000 ms against 3.000 ms");
  EXPECT_EQ(longestRanksHeadline(longest),
            "rank 1 is longest in 1 of 1 step; " + longestRankStepText(longest[0]));
  EXPECT_EQ(longestRanksHeadline({}), "");
  const auto json = longestRankStepsJson(longest);
  EXPECT_EQ(json[0]["longest_rank"], 1);
  EXPECT_EQ(json[0]["part_longest_ns"], 5'000'000);
  EXPECT_EQ(json[0]["part_shortest_ns"], 3'000'000);

  // Host only: the CPU ops, runtime, dataloader and other time of the step's thread. Within 1 %:
  // even, ranked by CPU ops.
  std::vector<RankBreakdown> hosts(2);
  hosts[1].rank = 1;
  for (auto& [cpu, runtime, rank] : {std::tuple{700, 300, 0}, std::tuple{900, 105, 1}}) {
    StepBreakdown s;
    s.step = 0;
    s.start = 0;
    s.end = s.deviceEnd = cpu + runtime;
    s.host.cpuOps = cpu;
    s.host.runtime = runtime;
    hosts[std::size_t(rank)].breakdown.steps = {s};
  }
  const auto host = longestRankSteps(hosts);
  ASSERT_EQ(host.size(), 1u);
  EXPECT_TRUE(host[0].even);  // 1000 ns and 1005 ns
  EXPECT_EQ(host[0].longestRank, 1);
  EXPECT_EQ(host[0].part, "CPU ops");
  EXPECT_EQ(longestRankStepText(host[0]),
            "step 0: the ranks end together (1.005 us, within 1 %); rank 1 is longest by CPU ops: "
            "900 ns against 700 ns on rank 0");
}

}  // namespace
}  // namespace sutra
