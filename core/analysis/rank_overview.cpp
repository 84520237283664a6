// SPDX-License-Identifier: MIT
#include "analysis/rank_overview.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sutra {
namespace {

TimeNs median(std::vector<TimeNs> v) {
  if (v.empty()) return 0;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

std::string formatNs(TimeNs ns) {
  char buf[64];
  const double v = static_cast<double>(ns);
  if (std::llabs(ns) >= 1'000'000'000)
    std::snprintf(buf, sizeof buf, "%.2f s", v / 1e9);
  else if (std::llabs(ns) >= 1'000'000)
    std::snprintf(buf, sizeof buf, "%.2f ms", v / 1e6);
  else if (std::llabs(ns) >= 1'000)
    std::snprintf(buf, sizeof buf, "%.1f us", v / 1e3);
  else
    std::snprintf(buf, sizeof buf, "%lld ns", static_cast<long long>(ns));
  return buf;
}

// The share of its collectives a rank must arrive last at to be named: well above the 1/N that
// chance gives, and more than most of them for few ranks.
double lastShareNeeded(std::size_t ranks) {
  return std::min(0.9, std::max(0.5, 3.0 / static_cast<double>(ranks)));
}

}  // namespace

RankOverview buildRankOverview(std::vector<RankSummary> ranks) {
  RankOverview out;
  std::stable_sort(ranks.begin(), ranks.end(),
                   [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
  for (auto& r : ranks) {
    if (!out.ranks.empty() && out.ranks.back().rank == r.rank) {
      out.notes.push_back("rank " + std::to_string(r.rank) + " given twice: " + r.path +
                          " left out, " + out.ranks.back().path + " kept");
      continue;
    }
    out.ranks.push_back(std::move(r));
  }
  const std::size_t n = out.ranks.size();
  out.stats.resize(n);

  std::vector<RankComms> comms;
  comms.reserve(n);
  for (const auto& r : out.ranks) comms.push_back(r.commOps());
  CollectiveMatching matching = matchCollectives(comms);
  comms.clear();
  comms.shrink_to_fit();
  out.unmatchedComms = matching.unmatchedOps;
  for (const auto& p : matching.problems.all())
    out.notes.push_back(p.what + " (" + std::to_string(p.count) + ")" +
                        (p.example.empty() ? "" : ": " + p.example));

  out.clockOffsets = estimateClockOffsets(
      n, matching, std::vector<bool>(n, true),
      [&](std::uint32_t rank, std::uint32_t node) { return out.ranks[rank].comms[node].end; });

  for (const auto& c : matching.collectives) {
    if (c.pointToPoint) continue;
    RankOverview::Collective col;
    for (const auto& m : c.members) {
      const auto& a = out.ranks[m.rank].comms[m.node];
      col.members.push_back({m.rank, m.node, a.arrival + out.clockOffsets[m.rank], 0});
    }
    std::sort(col.members.begin(), col.members.end(),
              [](const auto& a, const auto& b) { return a.rank < b.rank; });
    const auto& first = out.ranks[col.members.front().rank].comms[col.members.front().comm];
    const auto& key = out.ranks[col.members.front().rank].commKeys[first.key];
    col.processGroup = key.processGroup;
    col.collective = key.collective;
    col.seq = first.seq;
    col.step = first.step;
    std::vector<TimeNs> arrivals;
    for (const auto& m : col.members) arrivals.push_back(m.arrival);
    std::sort(arrivals.begin(), arrivals.end());
    const TimeNs lastArrival = arrivals.back();
    col.delay = lastArrival - arrivals[arrivals.size() - 2];
    for (auto& m : col.members) {
      m.wait = lastArrival - m.arrival;
      out.stats[m.rank].collectives++;
      out.stats[m.rank].waitNs += m.wait;
    }
    // Of members that arrived together last, the lowest rank is named.
    for (const auto& m : col.members)
      if (m.arrival == lastArrival) {
        col.last = m.rank;
        break;
      }
    out.stats[col.last].lastArrivals++;
    out.stats[col.last].delayCausedNs += col.delay;
    out.collectives.push_back(std::move(col));
  }
  std::stable_sort(out.collectives.begin(), out.collectives.end(),
                   [](const auto& a, const auto& b) {
                     auto firstArrival = [](const RankOverview::Collective& c) {
                       TimeNs t = c.members.front().arrival;
                       for (const auto& m : c.members) t = std::min(t, m.arrival);
                       return t;
                     };
                     return firstArrival(a) < firstArrival(b);
                   });

  std::vector<TimeNs> steps, compute;
  for (const auto& r : out.ranks) {
    if (r.steps.empty()) continue;
    steps.push_back(r.meanStep());
    compute.push_back(r.meanCompute());
  }
  out.medianStep = median(steps);
  out.medianCompute = median(compute);
  std::vector<TimeNs> deviations;
  for (TimeNs c : compute) deviations.push_back(std::llabs(c - out.medianCompute));
  const TimeNs computeMad = median(deviations);

  // Stragglers: ranks the others wait for at collectives, and ranks whose compute stands out.
  struct Candidate {
    std::uint32_t rank;
    TimeNs delay;
    double computeRatio;
  };
  std::vector<Candidate> found;
  for (std::uint32_t i = 0; i < n; ++i) {
    const auto& r = out.ranks[i];
    const auto& st = out.stats[i];
    std::string reason;
    TimeNs stepTotal = 0;
    for (const auto& s : r.steps) stepTotal += s.duration;
    const bool late = n >= 2 && st.lastArrivals >= 2 &&
                      static_cast<double>(st.lastArrivals) >=
                          lastShareNeeded(n) * static_cast<double>(st.collectives) &&
                      st.delayCausedNs > 0 && st.delayCausedNs * 100 >= stepTotal;
    if (late)
      reason = "arrived last at " + std::to_string(st.lastArrivals) + " of " +
               std::to_string(st.collectives) + " collectives, " + formatNs(st.delayCausedNs) +
               " after the rank before it in all (" +
               formatNs(st.delayCausedNs / static_cast<TimeNs>(st.lastArrivals)) + " each)";
    const TimeNs c = r.steps.empty() ? 0 : r.meanCompute();
    const bool slowCompute = compute.size() >= 3 && out.medianCompute > 0 &&
                             c * 100 > out.medianCompute * 105 &&
                             c - out.medianCompute > 3 * computeMad;
    const double ratio = out.medianCompute > 0
                             ? static_cast<double>(c) / static_cast<double>(out.medianCompute)
                             : 1.0;
    if (slowCompute) {
      char buf[160];
      std::snprintf(buf, sizeof buf, "compute %.2fx the median rank's (%s a step against %s)",
                    ratio, formatNs(c).c_str(), formatNs(out.medianCompute).c_str());
      reason += (reason.empty() ? "" : "; ") + std::string(buf);
    }
    if (reason.empty()) continue;
    found.push_back({i, late ? st.delayCausedNs : 0, ratio});
    RankOverview::Straggler s;
    s.rank = i;
    s.reason = std::move(reason);
    for (std::uint32_t k = 0; k < out.collectives.size(); ++k)
      if (out.collectives[k].last == i && out.collectives[k].delay > 0)
        s.worst.push_back({k, out.collectives[k].delay});
    std::stable_sort(s.worst.begin(), s.worst.end(),
                     [](const auto& a, const auto& b) { return a.delay > b.delay; });
    if (s.worst.size() > 5) s.worst.resize(5);
    out.stragglers.push_back(std::move(s));
  }
  std::vector<std::size_t> order(found.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (found[a].delay != found[b].delay) return found[a].delay > found[b].delay;
    return found[a].computeRatio > found[b].computeRatio;
  });
  std::vector<RankOverview::Straggler> sorted;
  for (auto i : order) sorted.push_back(std::move(out.stragglers[i]));
  out.stragglers = std::move(sorted);
  return out;
}

}  // namespace sutra
