// SPDX-License-Identifier: MIT
#include "rank_collectives.h"

#include <algorithm>
#include <memory>

#include "simulate/collective_matching.h"
#include "simulate/sim_graph.h"
#include "simulate/sim_inputs.h"

namespace sutra::widgets {

const std::vector<RankCollectives::Member>* RankCollectives::collectiveOf(int rank,
                                                                          EventId event) const {
  if (rank < 0 || rank >= static_cast<int>(byEvent.size())) return nullptr;
  const auto& index = byEvent[static_cast<std::size_t>(rank)];
  auto it = std::lower_bound(index.begin(), index.end(), std::make_pair(event, std::uint32_t{0}));
  if (it == index.end() || it->first != event) return nullptr;
  return &collectives[it->second];
}

RankCollectives matchRankCollectives(const std::vector<RankLinks>& ranks,
                                     const std::function<bool()>& keepGoing) {
  RankCollectives out;
  out.byEvent.resize(ranks.size());
  // The communication kernels come keyed by simulation-graph node: build each rank's graph, keep
  // only its communication nodes (renumbered) in a graph of their own, and let the rest go: the
  // matching and the clock offsets read nothing else.
  std::vector<RankComms> comms;
  std::vector<SimGraph> commGraphs(ranks.size());
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    if (keepGoing && !keepGoing()) return {};
    const RankLinks& rank = ranks[r];
    const SimGraph graph =
        buildSimGraph(*rank.trace, simInputsFromKineto(*rank.launches, *rank.syncs));
    RankComms rankComms{static_cast<int>(r), kinetoCommOps(*rank.trace, *rank.launches, graph)};
    for (RankCommOp& op : rankComms.ops) {
      commGraphs[r].nodes.push_back(graph.nodes[op.node]);
      op.node = static_cast<std::uint32_t>(commGraphs[r].nodes.size() - 1);
    }
    comms.push_back(std::move(rankComms));
  }
  const CollectiveMatching matching = matchCollectives(comms);
  std::vector<const SimGraph*> graphs;
  for (const SimGraph& graph : commGraphs) graphs.push_back(&graph);
  out.clockOffsets = estimateClockOffsets(graphs, matching, std::vector<bool>(ranks.size(), true));
  out.unmatchedOps = matching.unmatchedOps;
  for (const SimCollective& collective : matching.collectives) {
    if (collective.pointToPoint || collective.members.size() < 2) continue;
    std::vector<RankCollectives::Member> members;
    for (const auto& m : collective.members) {
      const auto& nodes = commGraphs[m.rank].nodes;
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

}  // namespace sutra::widgets
