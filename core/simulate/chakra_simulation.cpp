// SPDX-License-Identifier: MIT
#include "simulate/chakra_simulation.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <queue>
#include <string>

#include "chakra/chakra_timeline.h"
#include "chakra/converter.h"
#include "chakra/node_dependencies.h"
#include "simulate/chakra_comm_cost.h"

namespace sutra {
namespace {

using ChakraProtoMsg::Node;

bool isCommNode(const Node& n) {
  return n.type() == ChakraProtoMsg::COMM_COLL_NODE || n.type() == ChakraProtoMsg::COMM_SEND_NODE ||
         n.type() == ChakraProtoMsg::COMM_RECV_NODE;
}

// A communication node with no stream or thread runs beside everything else (chakra_timeline puts
// it on its "communication" lane, which is no resource).
bool runsFree(const Node& n, const Trace& trace, const Event& e) {
  return isCommNode(n) && trace.lanes[e.lane].tid == "comm";
}

std::string commTypeName(std::int64_t type) {
  if (ChakraProtoMsg::CollectiveCommType_IsValid(static_cast<int>(type)))
    return ChakraProtoMsg::CollectiveCommType_Name(
        static_cast<ChakraProtoMsg::CollectiveCommType>(type));
  return "comm_type " + std::to_string(type);
}

// What costing communication nodes on the network model needs: the process groups' sizes and
// the world's (options, else the graph's world_size, else the network's NPUs).
struct ChakraCommCosting {
  std::map<std::string, std::int64_t> groupSizes;
  std::int64_t worldSize = 0;
  ProblemLog notCosted;
};

ChakraCommCosting commCostingFor(const chakra::ChakraTrace& et, const ChakraSimOptions& options) {
  ChakraCommCosting out;
  if (!options.network) return out;
  out.worldSize = options.worldSize;
  for (const auto& attr : et.meta.attr())
    if (out.worldSize <= 0 && attr.name() == "world_size")
      if (const auto v = chakra::attrIntValue(attr)) out.worldSize = *v;
  if (out.worldSize <= 0) out.worldSize = options.network->network().npusCount();
  out.groupSizes = processGroupSizes(et.meta, out.worldSize);
  return out;
}

}  // namespace

std::unique_ptr<RankSimulation> prepareChakraSimulation(const chakra::ChakraTrace& et, int rank,
                                                        const ChakraSimOptions& options) {
  auto sim = std::make_unique<RankSimulation>();
  sim->rank = rank;
  sim->chakra = true;
  sim->trace = std::make_shared<const Trace>(chakra::chakraToTimeline(et, /*withDetails=*/false));
  const Trace& trace = *sim->trace;
  sim->problems.merge(et.problems);
  sim->problems.merge(trace.problems);
  SimGraph& g = sim->graph;
  g.trace = &trace;
  const std::size_t n = et.nodes.size();

  bool anyStart = false;
  for (const auto& node : et.nodes) anyStart = anyStart || node.start_time_micros() != 0;
  sim->measuredTimes = anyStart;
  const bool keepGaps = anyStart && !options.dependenciesOnly;

  // The timeline's event of each node (its args index is the node's index in the file).
  std::vector<EventId> eventOf(n, kNoEvent);
  for (EventId e = 0; e < trace.events.size(); ++e)
    if (trace.events[e].args < n) eventOf[trace.events[e].args] = e;
  auto startOf = [&](std::size_t i) { return trace.events[eventOf[i]].start; };

  // Dependencies by position: both kinds, on nodes present, not on the node itself, once each.
  const chakra::NodeDependencies graph =
      chakra::NodeDependencies::build(et.nodes, chakra::NodeIndex(et.nodes));

  // Execution order: dependencies first, then start time, then file order. A cycle is broken at
  // its earliest node; the dependencies that then point forward are left out.
  std::vector<std::uint32_t> order;
  order.reserve(n);
  {
    std::vector<std::uint32_t> pending(n, 0);
    for (std::uint32_t i = 0; i < n; ++i)
      pending[i] = static_cast<std::uint32_t>(graph.of(i).size());
    using Item = std::pair<TimeNs, std::uint32_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> ready;
    for (std::uint32_t i = 0; i < n; ++i)
      if (pending[i] == 0) ready.emplace(startOf(i), i);
    std::vector<std::uint32_t> byStart;  // filled the first time a cycle is met
    std::vector<char> placed(n, 0);
    std::size_t nextForced = 0;
    std::uint64_t forced = 0;
    std::string forcedExample;
    while (order.size() < n) {
      if (ready.empty()) {
        if (byStart.empty()) {
          byStart.resize(n);
          for (std::uint32_t i = 0; i < n; ++i) byStart[i] = i;
          std::stable_sort(byStart.begin(), byStart.end(),
                           [&](auto a, auto b) { return startOf(a) < startOf(b); });
        }
        while (placed[byStart[nextForced]]) ++nextForced;
        const auto i = byStart[nextForced];
        if (forced++ == 0)
          forcedExample = "node " + std::to_string(et.nodes[i].id()) + " " + et.nodes[i].name();
        pending[i] = 0;
        ready.emplace(startOf(i), i);
      }
      const auto [t, i] = ready.top();
      ready.pop();
      if (placed[i]) continue;
      placed[i] = 1;
      order.push_back(i);
      for (const auto d : graph.dependantsOf(i))
        if (!placed[d] && pending[d] > 0 && --pending[d] == 0) ready.emplace(startOf(d), d);
    }
    if (forced)
      sim->problems.add(Severity::Warning,
                        "dependency cycle broken (dependencies on later nodes left out)", forced,
                        et.path + ": " + forcedExample);
  }
  std::vector<std::uint32_t> position(n);
  for (std::uint32_t k = 0; k < n; ++k) position[order[k]] = k;

  // Tracks: one per lane of the timeline.
  g.trackOfLane.assign(trace.lanes.size(), kNoTrack);
  for (LaneId l = 0; l < trace.lanes.size(); ++l) {
    if (trace.lanes[l].firstEvent == trace.lanes[l].endEvent) continue;
    const bool device = trace.events[trace.lanes[l].firstEvent].klass == CategoryClass::Kernel;
    g.trackOfLane[l] = static_cast<std::uint32_t>(g.tracks.size());
    SimTrack track{l, device, {}, 0, {}};
    track.opNodes = true;
    g.tracks.push_back(std::move(track));
  }

  // Nodes in execution order: node k is the k-th op executed.
  g.nodes.resize(n);
  g.nodeOfDeviceOp.assign(trace.events.size(), kNoNode);
  TimeNs base = kNoAnchor;
  ChakraCommCosting comm = commCostingFor(et, options);
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    const Node& node = et.nodes[i];
    const Event& e = trace.events[eventOf[i]];
    SimNode& s = g.nodes[k];
    s.measured = e.start;
    s.span = std::max<TimeNs>(0, e.dur);
    if (s.span == 0 && isCommNode(node) && options.network) {
      auto cost = chakraCommCost(node, rank, comm.groupSizes, comm.worldSize, *options.network);
      if (cost)
        s.span = *cost;
      else
        comm.notCosted.add(Severity::Warning,
                           "communication node not costed by the network model (keeps 0)", 1,
                           et.path + ": node " + std::to_string(node.id()) + " " + node.name() +
                               ": " + cost.error().message);
    } else if (s.span == 0 && isCommNode(node) && options.commBytesPerNs > 0) {
      const auto bytes = chakra::attrInt(node, "comm_size", 0);
      if (bytes > 0)
        s.span =
            static_cast<TimeNs>(std::llround(static_cast<double>(bytes) / options.commBytesPerNs));
    }
    s.event = eventOf[i];
    s.track = g.trackOfLane[e.lane];
    SimTrack& track = g.tracks[s.track];
    s.kind = !track.device                           ? SimNodeKind::HostOp
             : node.name() == chakra::kDeviceGapName ? SimNodeKind::DeviceDelay
                                                     : SimNodeKind::DeviceOp;
    g.nodeOfDeviceOp[s.event] = k;
    track.nodes.push_back(k);
    track.lastEnd = std::max(track.lastEnd, s.measured + s.span);
    base = base == kNoAnchor ? s.measured : std::min(base, s.measured);
  }

  // Edges into each node: the previous op of its thread or stream and its dependencies, weighted
  // by the measured slack (keepGaps) or 0.
  sim->problems.merge(comm.notCosted);
  std::vector<std::uint32_t> previousOnTrack(n, kNoNode);
  for (const auto& track : g.tracks)
    for (std::size_t k = 1; k < track.nodes.size(); ++k)
      previousOnTrack[track.nodes[k]] = track.nodes[k - 1];
  struct Pred {
    std::uint32_t from;
    SimEdgeKind kind;
  };
  std::vector<Pred> preds;
  auto endOf = [&](std::uint32_t k) { return g.nodes[k].measured + g.nodes[k].span; };
  for (std::uint32_t k = 0; k < n; ++k) {
    const std::uint32_t i = order[k];
    SimNode& node = g.nodes[k];
    preds.clear();
    if (previousOnTrack[k] != kNoNode && !runsFree(et.nodes[i], trace, trace.events[node.event])) {
      preds.push_back({previousOnTrack[k],
                       g.tracks[node.track].device ? SimEdgeKind::StreamOrder : SimEdgeKind::Cpu});
    }
    for (const auto dep : graph.of(i))
      if (position[dep] < k) preds.push_back({position[dep], SimEdgeKind::GraphDependency});
    if (preds.empty()) {
      node.anchor = keepGaps ? node.measured : base;
      continue;
    }
    std::uint32_t tight = preds.front().from;
    for (const auto& p : preds)
      if (endOf(p.from) > endOf(tight)) tight = p.from;
    for (const auto& p : preds) {
      TimeNs weight = 0;
      if (keepGaps) {
        const TimeNs slack = node.measured - endOf(p.from);
        weight = p.from == tight ? slack : std::min<TimeNs>(slack, 0);
      }
      g.edges.push_back({p.from, k, weight, p.kind});
    }
  }
  // Communication ops, in execution order, for matching across ranks: the device-side ones (a
  // CPU comm node such as c10d::broadcast_ only enqueues the work and waits for no one).
  for (std::uint32_t k = 0; k < n; ++k) {
    const Node& node = et.nodes[order[k]];
    if (!isCommNode(node) || g.nodes[k].kind != SimNodeKind::DeviceOp) continue;
    RankCommOp op;
    op.node = k;
    op.bytes = chakra::attrInt(node, "comm_size", 0);
    if (node.type() == ChakraProtoMsg::COMM_COLL_NODE) {
      op.kind = CommKind::Collective;
      op.processGroup = chakra::attrString(node, "pg_name");
      op.collective = commTypeName(chakra::attrInt(node, "comm_type", -1));
    } else if (node.type() == ChakraProtoMsg::COMM_SEND_NODE) {
      op.kind = CommKind::Send;
      op.peer = static_cast<int>(chakra::attrInt(node, "comm_dst", -1));
      op.tag = chakra::attrInt(node, "comm_tag", 0);
    } else {
      op.kind = CommKind::Recv;
      op.peer = static_cast<int>(chakra::attrInt(node, "comm_src", -1));
      op.tag = chakra::attrInt(node, "comm_tag", 0);
    }
    sim->comms.push_back(std::move(op));
  }

  // One step: the whole graph, from its first start to its last end.
  Step whole;
  whole.name = "whole graph";
  whole.start = base == kNoAnchor ? 0 : base;
  TimeNs last = whole.start;
  for (std::uint32_t k = 0; k < n; ++k) last = std::max(last, endOf(k));
  whole.end = whole.deviceEnd = last;
  sim->steps.push_back(whole);

  finishSimGraph(g);
  return sim;
}

}  // namespace sutra
