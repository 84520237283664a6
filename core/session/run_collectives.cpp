// SPDX-License-Identifier: MIT
#include "session/run_collectives.h"

#include <algorithm>
#include <limits>

#include "session/run.h"
#include "simulate/transfer_model.h"

namespace sutra {

const std::vector<RunCollectives::Member>* RunCollectives::collectiveOf(int rank,
                                                                        EventId event) const {
  if (rank < 0 || rank >= static_cast<int>(byEvent.size())) return nullptr;
  const auto& index = byEvent[static_cast<std::size_t>(rank)];
  auto it = std::lower_bound(index.begin(), index.end(), std::make_pair(event, std::uint32_t{0}));
  if (it == index.end() || it->first != event) return nullptr;
  return &collectives[it->second];
}

RunCollectives matchRunCollectives(const std::vector<std::shared_ptr<const RankRun>>& ranks) {
  RunCollectives out;
  out.byEvent.resize(ranks.size());
  std::vector<RankComms> comms;
  std::vector<const SimGraph*> graphs;
  std::vector<bool> measured;
  for (const auto& rank : ranks) {
    const RankSimulation& sim = *rank->simulation;
    comms.push_back({sim.rank, sim.comms});
    graphs.push_back(&sim.graph);
    measured.push_back(sim.measuredTimes);
  }
  out.matching = matchCollectives(comms);
  out.clockOffsets = estimateClockOffsets(graphs, out.matching, measured);
  // Each member's end as measured, beyond the last arrival plus the transfer (the shortest span,
  // the simulator's), on the aligned clocks.
  for (SimCollective& collective : out.matching.collectives) {
    if (collective.pointToPoint || collective.members.size() < 2) continue;
    bool allMeasured = true;
    TimeNs lastArrival = kNoAnchor, transfer = std::numeric_limits<TimeNs>::max();
    for (const auto& m : collective.members) {
      allMeasured = allMeasured && measured[m.rank];
      const SimNode& n = graphs[m.rank]->nodes[m.node];
      lastArrival = std::max(lastArrival, n.measured + out.clockOffsets[m.rank]);
      transfer = std::min(transfer, n.span);
    }
    if (!allMeasured) continue;
    for (const auto& m : collective.members) {
      const SimNode& n = graphs[m.rank]->nodes[m.node];
      collective.endResiduals.push_back(n.measured + n.span + out.clockOffsets[m.rank] -
                                        lastArrival - transfer);
    }
  }
  // The network model of the transfers: each collective's last arrival's span against its kind
  // and size, so that a network what-if moves the bandwidth's part alone.
  std::vector<TransferSample> samples;
  for (const SimCollective& collective : out.matching.collectives) {
    TimeNs transfer = std::numeric_limits<TimeNs>::max();
    bool allMeasured = true;
    for (const auto& m : collective.members) {
      allMeasured = allMeasured && measured[m.rank];
      transfer = std::min(transfer, graphs[m.rank]->nodes[m.node].span);
    }
    samples.push_back({collective.collective, collective.pointToPoint ? 0 : collective.bytes,
                       collective.members.size(), allMeasured ? transfer : 0});
  }
  out.network = fitTransferModel(out.matching.collectives, samples);
  out.matchedOps = out.matching.matchedOps;
  out.unmatchedOps = out.matching.unmatchedOps;
  out.problems = out.matching.problems;
  for (const SimCollective& collective : out.matching.collectives) {
    if (collective.pointToPoint || collective.members.size() < 2) continue;
    std::vector<RunCollectives::Member> members;
    for (const auto& m : collective.members) {
      const auto& nodes = graphs[m.rank]->nodes;
      if (m.node < nodes.size() && nodes[m.node].event != kNoEvent)
        members.push_back({static_cast<int>(m.rank), nodes[m.node].event});
    }
    if (members.size() < 2) continue;
    std::sort(members.begin(), members.end(),
              [](const auto& a, const auto& b) { return a.rank < b.rank; });
    const auto index = static_cast<std::uint32_t>(out.collectives.size());
    for (const auto& m : members)
      out.byEvent[static_cast<std::size_t>(m.rank)].emplace_back(m.event, index);
    out.collectives.push_back(std::move(members));
  }
  for (auto& index : out.byEvent) std::sort(index.begin(), index.end());
  return out;
}

}  // namespace sutra
