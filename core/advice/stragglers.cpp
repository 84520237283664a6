// SPDX-License-Identifier: MIT
#include "advice/stragglers.h"

#include <algorithm>
#include <map>

#include "advice/advice_scope.h"
#include "session/run_collectives.h"

namespace sutra {

std::vector<Finding> findStragglers(const Run& run) {
  if (!run.collectives || run.ranks.size() < 2) return {};
  const RunCollectives& rc = *run.collectives;
  struct Late {
    std::vector<EventId> events;
    TimeNs othersWaited = 0;
    std::size_t count = 0;
  };
  std::map<int, Late> byRank;  // rank index -> the collectives it arrived last at
  for (const auto& members : rc.collectives) {
    if (members.size() < 2) continue;
    std::vector<std::pair<TimeNs, int>> arrivals;  // on the common clock
    for (const auto& m : members) {
      if (m.rank < 0 || std::size_t(m.rank) >= run.ranks.size() || !run.ranks[m.rank]->trace)
        continue;
      const TimeNs offset =
          std::size_t(m.rank) < rc.clockOffsets.size() ? rc.clockOffsets[m.rank] : 0;
      arrivals.emplace_back(run.ranks[m.rank]->trace->events[m.event].start + offset, m.rank);
    }
    if (arrivals.size() < 2) continue;
    std::sort(arrivals.begin(), arrivals.end());
    const auto [last, lateRank] = arrivals.back();
    if (last - arrivals[arrivals.size() - 2].first < kStragglerMinNs) continue;
    Late& late = byRank[lateRank];
    ++late.count;
    for (const auto& [at, r] : arrivals) late.othersWaited += last - at;
    for (const auto& m : members)
      if (m.rank == lateRank) late.events.push_back(m.event);
  }
  std::vector<Finding> findings;
  for (auto& [index, late] : byRank) {
    const RankRun& rank = *run.ranks[index];
    Finding f;
    f.kind = FindingKind::Straggler;
    f.rank = rank.rank;
    f.rankIndex = static_cast<std::uint32_t>(index);
    f.evidence = late.events;
    f.occurrences = late.count;
    f.steps = rank.steps.size();
    const auto stepCount = static_cast<TimeNs>(std::max<std::size_t>(rank.steps.size(), 1));
    f.measuredNs = late.othersWaited / stepCount;
    f.title = "straggler: rank " + std::to_string(rank.rank) + " arrives last at " +
              std::to_string(late.count) + " of " + std::to_string(rc.collectives.size()) +
              " collectives; the other ranks wait " + formatDuration(f.measuredNs) + " per step";
    f.explanation = "a collective ends only when its last rank has arrived; rank " +
                    std::to_string(rank.rank) + "'s " + topNames(*rank.trace, f.evidence, 2) +
                    " started after every other rank's, by " + formatDuration(kStragglerMinNs) +
                    " or more: what ran before it on that rank (its launches, its kernels) is "
                    "what delays the whole job.";
    f.price.model = "the late rank arriving with the others";
    f.price.notPriced =
        "no what-if here moves a rank's arrival by itself; its cause is in the "
        "events before the evidence on that rank";
    findings.push_back(std::move(f));
  }
  return findings;
}

}  // namespace sutra
