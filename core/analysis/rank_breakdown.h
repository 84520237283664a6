// SPDX-License-Identifier: MIT
#pragma once
// The step breakdown (breakdown.h) across the ranks of a job opened together: per step number
// that two ranks or more hold, the rank whose step is longest against the one whose step is
// shortest, and the part of the step (kernel, communication, device idle, ...) that differs most.
//
// Ranks of a data-parallel job wait for each other at their collectives, so their steps often end
// together: where every rank's step is within kEvenPercent of the longest, the steps are "even"
// and the ranks are ranked by the time they compute instead (kernel time on the device, CPU ops
// on the host): the rank that computes longest is the one the others wait for.
//
// Parts are compared on the devices (each part summed over a rank's devices) where both steps
// have device work, else on the host thread.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "analysis/breakdown.h"

namespace sutra {

inline constexpr double kEvenPercent = 1.0;

struct RankBreakdown {
  int rank = 0;
  Breakdown breakdown;
};

struct LongestRankStep {
  std::int64_t step = 0;  // Step::number
  int longestRank = 0, shortestRank = 0;
  TimeNs longest = 0, shortest = 0;  // the two steps' durations (Step::duration)
  bool even = false;                 // within kEvenPercent: ranked by compute time instead
  std::string part;                  // "kernel", "communication", "device idle", "CPU ops" ...
  TimeNs partLongest = 0, partShortest = 0;
};

// By step number, for the steps two ranks or more hold (ranks in any order).
std::vector<LongestRankStep> longestRankSteps(std::span<const RankBreakdown> ranks);

// "step 3: rank 2 is longest, 12.30 ms against 10.10 ms on rank 0, by kernel: 5.20 ms against
// 3.10 ms"; even: "step 3: the ranks end together (1.45 ms, within 1 %); rank 3 is longest by
// kernel: 1.56 ms against 1.20 ms on rank 0".
std::string longestRankStepText(const LongestRankStep& step);

// One line for all the steps: "rank 2 is longest in 3 of 3 steps; " then the text of the step
// where its part differs most from the shortest rank's. Empty without steps.
std::string longestRanksHeadline(std::span<const LongestRankStep> steps);

// [{"step","longest_rank","longest_ns","shortest_rank","shortest_ns","even","part",
//   "part_longest_ns","part_shortest_ns","text"}]
nlohmann::json longestRankStepsJson(std::span<const LongestRankStep> steps);

}  // namespace sutra
