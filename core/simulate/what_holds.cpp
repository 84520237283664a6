// SPDX-License-Identifier: MIT
#include "simulate/what_holds.h"

#include <algorithm>

namespace sutra {

WhatHolds whatHolds(std::span<const SimGraph* const> graphs, std::span<const SimRun> runs,
                    std::span<const SimCollective> collectives,
                    std::span<const TimeNs> clockOffsets, std::uint32_t rank) {
  WhatHolds out;
  auto offsetOf = [&](std::uint32_t r) { return r < clockOffsets.size() ? clockOffsets[r] : 0; };
  const SimGraph& g = *graphs[rank];
  const SimRun& run = runs[rank];
  if (g.nodes.empty()) return out;
  // Incoming edges grouped by target (CSR over the graph's in-degrees): one allocation, not one a
  // node, since every simulation of a run walks each rank.
  std::vector<std::uint32_t> firstIn(g.nodes.size() + 1, 0), incoming(g.edges.size());
  for (std::size_t n = 0; n < g.nodes.size(); ++n) firstIn[n + 1] = firstIn[n] + g.inDegree[n];
  {
    std::vector<std::uint32_t> fill(firstIn.begin(), firstIn.end() - 1);
    for (std::uint32_t e = 0; e < g.edges.size(); ++e) incoming[fill[g.edges[e].to]++] = e;
  }
  // The last arrival of each collective a node of this rank is a member of.
  std::vector<TimeNs> lastArrival(g.nodes.size(), kNoAnchor);
  for (const auto& c : collectives) {
    if (c.pointToPoint) continue;
    TimeNs last = kNoAnchor;
    bool mine = false;
    for (const auto& m : c.members) {
      last = std::max(last, runs[m.rank].start[m.node] + offsetOf(m.rank));
      mine |= m.rank == rank;
    }
    if (!mine) continue;
    for (const auto& m : c.members)
      if (m.rank == rank) lastArrival[m.node] = last - offsetOf(rank);
  }
  std::uint32_t node = 0;
  for (std::uint32_t n = 1; n < g.nodes.size(); ++n)
    if (run.end[n] > run.end[node]) node = n;
  const TimeNs first = *std::min_element(run.start.begin(), run.start.end());
  out.pathNs = run.end[node] - first;
  for (std::size_t guard = 0; guard <= g.nodes.size(); ++guard) {
    const SimNode& n = g.nodes[node];
    const TimeNs own = run.end[node] - run.start[node];
    if (n.kind == SimNodeKind::HostOp) {
      out.hostNs += own;
    } else if (n.kind == SimNodeKind::DeviceOp && lastArrival[node] != kNoAnchor) {
      const TimeNs wait = std::clamp<TimeNs>(lastArrival[node] - run.start[node], 0, own);
      out.commWaitNs += wait;
      out.commTransferNs += own - wait;
    } else if (n.kind == SimNodeKind::DeviceOp || n.kind == SimNodeKind::DeviceDelay) {
      out.deviceNs += own;
    }
    // The predecessor whose end came latest before this node started.
    std::uint32_t from = kNoNode;
    SimEdgeKind kind = SimEdgeKind::Cpu;
    for (std::uint32_t k = firstIn[node]; k < firstIn[node + 1]; ++k) {
      const std::uint32_t e = incoming[k];
      const SimEdge& edge = g.edges[e];
      if (run.end[edge.from] > run.start[node]) continue;
      if (from == kNoNode || run.end[edge.from] > run.end[from]) {
        from = edge.from;
        kind = edge.kind;
      }
    }
    if (from == kNoNode) break;
    const TimeNs gap = run.start[node] - run.end[from];
    switch (kind) {
      case SimEdgeKind::Cpu:
        out.hostNs += gap;
        break;
      case SimEdgeKind::LaunchLatency:
        out.launchNs += gap;
        break;
      case SimEdgeKind::GraphDependency:
        out.deviceNs += gap;  // a Chakra graph's wait for its dependencies: the op's own delay
        break;
      default:
        out.heldGapNs += gap;
    }
    node = from;
  }
  return out;
}

}  // namespace sutra
