// SPDX-License-Identifier: MIT
#include "analysis/rank_breakdown.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <utility>

namespace sutra {
namespace {

struct Part {
  const char* name;
  TimeNs value;
};

std::vector<Part> deviceParts(const StepBreakdown& s) {
  DeviceBreakdown sum;
  for (const DeviceBreakdown& d : s.devices) {
    sum.kernel += d.kernel;
    sum.memcpy += d.memcpy;
    sum.memset += d.memset;
    sum.communication += d.communication;
    sum.idle += d.idle;
  }
  return {{"kernel", sum.kernel},
          {"memcpy", sum.memcpy},
          {"memset", sum.memset},
          {"communication", sum.communication},
          {"device idle", sum.idle}};
}

std::vector<Part> hostParts(const StepBreakdown& s) {
  return {{"CPU ops", s.host.cpuOps},
          {"runtime", s.host.runtime},
          {"dataloader", s.host.dataloader},
          {"other", s.host.other}};
}

// The parts two steps are compared by; the first is the compute part.
std::vector<Part> partsOf(const StepBreakdown& s, bool onDevice) {
  return onDevice ? deviceParts(s) : hostParts(s);
}

TimeNs durationOf(const StepBreakdown& s) { return s.deviceEnd - s.start; }

}  // namespace

std::vector<LongestRankStep> longestRankSteps(std::span<const RankBreakdown> ranks) {
  std::map<std::int64_t, std::vector<std::pair<int, const StepBreakdown*>>> byStep;
  for (const RankBreakdown& r : ranks)
    for (const StepBreakdown& s : r.breakdown.steps) byStep[s.step].push_back({r.rank, &s});
  std::vector<LongestRankStep> out;
  for (auto& [number, held] : byStep) {
    if (held.size() < 2) continue;
    std::sort(held.begin(), held.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    const bool onDevice = std::all_of(held.begin(), held.end(),
                                      [](const auto& h) { return !h.second->devices.empty(); });
    TimeNs low = durationOf(*held.front().second), high = low;
    for (const auto& h : held) {
      low = std::min(low, durationOf(*h.second));
      high = std::max(high, durationOf(*h.second));
    }
    const bool even = double(high - low) * 100.0 <= kEvenPercent * double(high);
    // Ranked by duration, or where even by compute; ties go to the lowest rank.
    auto key = [&](const StepBreakdown& s) {
      return even ? partsOf(s, onDevice).front().value : durationOf(s);
    };
    const auto* longest = &held.front();
    const auto* shortest = &held.front();
    for (const auto& h : held) {
      if (key(*h.second) > key(*longest->second)) longest = &h;
      if (key(*h.second) < key(*shortest->second)) shortest = &h;
    }
    LongestRankStep step;
    step.step = number;
    step.longestRank = longest->first;
    step.shortestRank = shortest->first;
    step.longest = durationOf(*longest->second);
    step.shortest = durationOf(*shortest->second);
    step.even = even;
    // The part the longest step has most more of than the shortest.
    const auto a = partsOf(*longest->second, onDevice);
    const auto b = partsOf(*shortest->second, onDevice);
    std::size_t most = 0;
    for (std::size_t k = 1; k < a.size(); ++k)
      if (a[k].value - b[k].value > a[most].value - b[most].value) most = k;
    step.part = a[most].name;
    step.partLongest = a[most].value;
    step.partShortest = b[most].value;
    out.push_back(std::move(step));
  }
  return out;
}

std::string longestRankStepText(const LongestRankStep& s) {
  const std::string longest = "rank " + std::to_string(s.longestRank);
  const std::string shortest = "rank " + std::to_string(s.shortestRank);
  const std::string part =
      s.part + ": " + formatDuration(s.partLongest) + " against " + formatDuration(s.partShortest);
  std::string out = "step " + std::to_string(s.step) + ": ";
  if (s.longestRank == s.shortestRank)
    return out + "every rank takes " + formatDuration(s.longest) + " and computes as long";
  if (s.even) {
    char percent[16];
    std::snprintf(percent, sizeof percent, "%g", kEvenPercent);
    return out + "the ranks end together (" + formatDuration(s.longest) + ", within " + percent +
           " %); " + longest + " is longest by " + part + " on " + shortest;
  }
  return out + longest + " is longest, " + formatDuration(s.longest) + " against " +
         formatDuration(s.shortest) + " on " + shortest + ", by " + part;
}

std::string longestRanksHeadline(std::span<const LongestRankStep> steps) {
  if (steps.empty()) return {};
  std::map<int, std::size_t> times;
  for (const LongestRankStep& s : steps) ++times[s.longestRank];
  auto most = times.begin();
  for (auto it = times.begin(); it != times.end(); ++it)
    if (it->second > most->second) most = it;
  const LongestRankStep* widest = &steps.front();
  for (const LongestRankStep& s : steps)
    if (s.partLongest - s.partShortest > widest->partLongest - widest->partShortest) widest = &s;
  return "rank " + std::to_string(most->first) + " is longest in " + std::to_string(most->second) +
         " of " + std::to_string(steps.size()) + (steps.size() == 1 ? " step; " : " steps; ") +
         longestRankStepText(*widest);
}

nlohmann::json longestRankStepsJson(std::span<const LongestRankStep> steps) {
  nlohmann::json out = nlohmann::json::array();
  for (const LongestRankStep& s : steps)
    out.push_back({{"step", s.step},
                   {"longest_rank", s.longestRank},
                   {"longest_ns", s.longest},
                   {"shortest_rank", s.shortestRank},
                   {"shortest_ns", s.shortest},
                   {"even", s.even},
                   {"part", s.part},
                   {"part_longest_ns", s.partLongest},
                   {"part_shortest_ns", s.partShortest},
                   {"text", longestRankStepText(s)}});
  return out;
}

}  // namespace sutra
