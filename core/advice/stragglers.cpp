// SPDX-License-Identifier: MIT
#include "advice/stragglers.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>

#include "advice/advice_scope.h"
#include "session/run_collectives.h"
#include "simulate/rank_simulation.h"

namespace sutra {
namespace {

// The late rank's simulation graph, walked back from its collectives.
class ArrivalChains {
 public:
  ArrivalChains(const SimGraph& g, std::vector<char> isCollective, std::uint32_t rankIndex)
      : g_(g),
        isCollective_(std::move(isCollective)),
        rankIndex_(rankIndex),
        incoming_(g.nodes.size()) {
    for (std::uint32_t e = 0; e < g.edges.size(); ++e) incoming_[g.edges[e].to].push_back(e);
  }

  // Moves the arrival at `node` earlier by `lateness`: walks back over the edges that set each
  // node's measured time (a tight edge: its source's end plus its weight is the node's time) to
  // the rank's previous collective (where the ranks last met) or the chain's start, and takes the
  // time from what that chain spent, latest first: a host thread's time between two of its points
  // (a HostTimeCut) and a device op's duration (a DeviceOpDuration). Launch latencies, stream
  // turnarounds and waits on other threads are not work: they are passed, not cut. What earlier
  // arrivals already took from the same chain counts (a compute stream slow since the step began
  // makes each arrival later than the one before: the second needs only what the first did not
  // take). Returns the events whose time was taken.
  std::vector<EventId> advance(std::uint32_t node, TimeNs lateness, SimKnobs& fix) {
    struct Link {
      std::uint32_t edge;  // the tight edge into the chain's later node
      TimeNs capacity;     // what can be taken on it
    };
    std::vector<Link> chain;  // latest first
    TimeNs already = 0;
    std::uint32_t cur = node;
    for (std::size_t guard = 0; guard < g_.nodes.size(); ++guard) {
      const SimNode& to = g_.nodes[cur];
      std::uint32_t tight = kNoNode;
      for (std::uint32_t e : incoming_[cur]) {
        const SimEdge& edge = g_.edges[e];
        if (end(edge.from) + edge.weight != to.measured) continue;
        if (tight == kNoNode || end(edge.from) > end(g_.edges[tight].from)) tight = e;
      }
      if (tight == kNoNode) break;
      const SimEdge& edge = g_.edges[tight];
      const SimNode& source = g_.nodes[edge.from];
      if (isCollective_[edge.from]) break;
      TimeNs capacity = 0;
      if (edge.kind == SimEdgeKind::Cpu)
        capacity = edge.weight;
      else if (source.kind == SimNodeKind::DeviceOp && source.event != kNoEvent)
        capacity = source.span;
      if (capacity > 0) {
        chain.push_back({tight, capacity});
        already += taken(keyOf(edge, tight));
      }
      cur = edge.from;
    }
    std::vector<EventId> events;
    TimeNs need = lateness - already;
    for (const Link& link : chain) {
      if (need <= 0) break;
      const SimEdge& edge = g_.edges[link.edge];
      const SimNode& source = g_.nodes[edge.from];
      TimeNs& sofar = taken_[keyOf(edge, link.edge)];
      const TimeNs take = std::min(link.capacity - sofar, need);
      if (take <= 0) continue;
      sofar += take;
      need -= take;
      if (edge.kind == SimEdgeKind::Cpu) {
        // The edge's stretch of the thread: the source's end to the next point.
        const LaneId lane = g_.tracks[source.track].lane;
        const TimeNs a = end(edge.from), b = g_.nodes[edge.to].measured;
        fix.hostCuts.push_back({rankIndex_, lane, a, b, take});
        for (EventId op : outermostOps(*g_.trace, lane, a, b)) events.push_back(op);
      } else {
        fix.deviceOpDurations.push_back({rankIndex_, source.event, source.span - sofar});
        events.push_back(source.event);
      }
    }
    unmet_ += std::max<TimeNs>(0, need);
    return events;
  }

  // The lateness no chain held (the rank started late, or waited on something that is not work).
  TimeNs unmet() const { return unmet_; }

 private:
  TimeNs end(std::uint32_t n) const { return g_.nodes[n].measured + g_.nodes[n].span; }
  // What a cut takes from: a thread's stretch is its edge; a device op is its node, whichever edge
  // the chain left it by.
  static std::uint64_t keyOf(const SimEdge& edge, std::uint32_t index) {
    return edge.kind == SimEdgeKind::Cpu ? index : (std::uint64_t{1} << 32) | edge.from;
  }
  TimeNs taken(std::uint64_t key) const {
    const auto it = taken_.find(key);
    return it == taken_.end() ? 0 : it->second;
  }

  const SimGraph& g_;
  std::vector<char> isCollective_;
  std::uint32_t rankIndex_;
  std::vector<std::vector<std::uint32_t>> incoming_;
  std::unordered_map<std::uint64_t, TimeNs> taken_;  // what the cuts took, by keyOf
  TimeNs unmet_ = 0;
};

// An event's name as every rank's process names it: Python frames name objects by their address
// ("<built-in method wait of ... object at 0x7fc3ae06d190>"), which differs between processes.
std::string stableName(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '0' && i + 1 < name.size() && name[i + 1] == 'x') {
      std::size_t j = i + 2;
      while (j < name.size() && std::isxdigit(static_cast<unsigned char>(name[j]))) ++j;
      if (j > i + 2) {
        out += "0x?";
        i = j - 1;
        continue;
      }
    }
    out += name[i];
  }
  return out;
}

// Host time per event name on a rank's host threads, per step: what a rank spends that its peers
// do not is what made it late (a straggler's own work, named as the trace names it).
std::unordered_map<std::string, TimeNs> hostTimePerStep(const RankRun& rank) {
  std::unordered_map<std::string, TimeNs> byName;
  const Trace& trace = *rank.trace;
  const auto steps = static_cast<TimeNs>(std::max<std::size_t>(rank.steps().size(), 1));
  const TimeNs from = rank.steps().empty() ? kNoAnchor : rank.steps().front().start;
  const TimeNs to = rank.steps().empty()
                        ? std::numeric_limits<TimeNs>::max()
                        : rank.steps().back().start + rank.steps().back().duration();
  std::vector<TimeNs> byId(trace.names.size(), 0);  // summed by interned name, named once after
  for (const Event& e : trace.events)
    if (isSimulatedHostEvent(e.klass) && e.start >= from && e.end() <= to) byId[e.name] += e.dur;
  for (StringId id = 0; id < byId.size(); ++id)
    if (byId[id] > 0) byName[stableName(trace.names.view(id))] += byId[id] / steps;
  return byName;
}

// The host events of the late rank that its peers (nearly) never spend time in, per step: cut by
// that excess, outermost first, as `--scale-cpu` cuts a name. Empty where no name's excess
// reaches a fifth of the lateness.
struct ExcessHostWork {
  std::vector<EventId> events;
  TimeNs perStepNs = 0;
};
using HostTimeByName = std::unordered_map<std::string, TimeNs>;
// Each rank's host time by name, computed once the first time a straggler asks for it.
class HostTimes {
 public:
  explicit HostTimes(const Run& run) : run_(run), byRank_(run.ranks.size()) {}
  const HostTimeByName& of(std::size_t rank) {
    if (!byRank_[rank]) byRank_[rank] = hostTimePerStep(*run_.ranks[rank]);
    return *byRank_[rank];
  }

 private:
  const Run& run_;
  std::vector<std::optional<HostTimeByName>> byRank_;
};

ExcessHostWork excessHostWork(const Run& run, HostTimes& times, std::size_t lateIndex,
                              TimeNs latenessPerStep, SimKnobs& fix) {
  ExcessHostWork out;
  const RankRun& late = *run.ranks[lateIndex];
  if (!late.trace || !late.simulation) return out;
  const HostTimeByName& mine = times.of(lateIndex);
  std::vector<const HostTimeByName*> peers;
  for (std::size_t r = 0; r < run.ranks.size(); ++r)
    if (r != lateIndex && run.ranks[r]->trace) peers.push_back(&times.of(r));
  if (peers.empty()) return out;
  const TimeNs threshold = std::max<TimeNs>(kStragglerMinNs, latenessPerStep / 5);
  std::unordered_map<std::string, double> share;  // name -> the share of its time to cut
  for (const auto& [name, ns] : mine) {
    std::vector<TimeNs> theirs;
    for (const HostTimeByName* p : peers) {
      const auto it = p->find(name);
      theirs.push_back(it == p->end() ? 0 : it->second);
    }
    std::nth_element(theirs.begin(), theirs.begin() + theirs.size() / 2, theirs.end());
    // Work its peers (nearly) never do: a rank's own delay. A shared op that ran slower there is
    // the chain's to shorten (findStragglers walks it), not a name to remove.
    const TimeNs excess = ns - theirs[theirs.size() / 2];
    if (excess >= threshold && ns > 0 && theirs[theirs.size() / 2] * 10 < ns)
      share[name] = static_cast<double>(excess) / static_cast<double>(ns);
  }
  if (share.empty()) return out;
  const Trace& trace = *late.trace;
  const SimGraph& g = late.simulation->graph;
  const TimeNs from = late.steps().empty() ? kNoAnchor : late.steps().front().start;
  std::vector<double> shareOf(trace.names.size(), 0);  // by interned name: each named once
  for (StringId id = 0; id < shareOf.size(); ++id)
    if (const auto it = share.find(stableName(trace.names.view(id))); it != share.end())
      shareOf[id] = it->second;
  for (const auto& track : g.tracks) {
    if (track.device || track.opNodes) continue;
    TimeNs coveredUntil = kNoAnchor;
    for (EventId e = trace.lanes[track.lane].firstEvent; e < trace.lanes[track.lane].endEvent;
         ++e) {
      const Event& ev = trace.events[e];
      if (ev.start < coveredUntil || ev.start < from) continue;
      if (shareOf[ev.name] <= 0) continue;
      coveredUntil = ev.end();
      const auto cut =
          static_cast<TimeNs>(static_cast<double>(ev.dur) * std::min(1.0, shareOf[ev.name]));
      fix.hostCuts.push_back(
          {static_cast<std::uint32_t>(lateIndex), track.lane, ev.start, ev.end(), cut});
      out.events.push_back(e);
      out.perStepNs += cut;
    }
  }
  out.perStepNs /= static_cast<TimeNs>(std::max<std::size_t>(late.steps().size(), 1));
  return out;
}

}  // namespace

std::vector<Finding> findStragglers(const Run& run) {
  if (!run.collectives || run.ranks.size() < 2) return {};
  const RunCollectives& rc = *run.collectives;
  struct LateArrival {
    EventId event = kNoEvent;
    TimeNs lateness = 0;  // after the next-latest rank, on the common clock
  };
  struct Late {
    std::vector<LateArrival> arrivals;
    TimeNs othersWaited = 0;
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
    const TimeNs lateness = last - arrivals[arrivals.size() - 2].first;
    if (lateness < kStragglerMinNs) continue;
    Late& late = byRank[lateRank];
    for (const auto& [at, r] : arrivals) late.othersWaited += last - at;
    for (const auto& m : members)
      if (m.rank == lateRank) late.arrivals.push_back({m.event, lateness});
  }
  std::vector<Finding> findings;
  HostTimes hostTimes(run);
  for (auto& [index, late] : byRank) {
    const RankRun& rank = *run.ranks[index];
    const Trace& trace = *rank.trace;
    Finding f;
    f.kind = FindingKind::Straggler;
    f.rank = rank.rank;
    f.rankIndex = static_cast<std::uint32_t>(index);
    for (const auto& a : late.arrivals) f.evidence.push_back(a.event);
    f.occurrences = late.arrivals.size();
    f.steps = rank.steps().size();
    const auto stepCount = static_cast<TimeNs>(std::max<std::size_t>(rank.steps().size(), 1));
    f.measuredNs = late.othersWaited / stepCount;
    f.title = "straggler: rank " + std::to_string(rank.rank) + " arrives last at " +
              std::to_string(late.arrivals.size()) + " of " +
              std::to_string(rc.collectives.size()) + " collectives; the other ranks wait " +
              formatDuration(f.measuredNs) + " per step";
    f.price.model =
        "the late rank arriving with the next-latest: the work on the chain that set its arrival "
        "(host time and device ops since its previous collective, latest first) shortened by its "
        "lateness";

    // What the late rank spends that its peers do not (a straggler's own work, by name), else
    // the chain behind each late arrival, on the rank's simulation graph, in time order.
    std::vector<EventId> chainOps;
    TimeNs lateness = 0;
    for (const auto& a : late.arrivals) lateness += a.lateness;
    TimeNs unmet = lateness;
    const ExcessHostWork excess =
        excessHostWork(run, hostTimes, index, lateness / stepCount, f.fix);
    if (!excess.events.empty()) {
      f.price.model =
          "the late rank without the host work its peers do not do: " +
          topNames(trace, excess.events, 3) + ", " + formatDuration(excess.perStepNs) +
          " per step more than the other ranks' median, removed on its thread (as --scale-cpu "
          "removes a name)";
      f.title += "; rank " + std::to_string(rank.rank) + " alone spends " +
                 formatDuration(excess.perStepNs) + " per step in " +
                 topNames(trace, excess.events, 2);
      chainOps = excess.events;
      unmet = 0;
    } else if (rank.simulation) {
      const SimGraph& g = rank.simulation->graph;
      std::vector<char> isCollective(g.nodes.size(), 0);
      if (std::size_t(index) < rc.byEvent.size())
        for (const auto& [event, c] : rc.byEvent[index])
          if (event < g.nodeOfDeviceOp.size() && g.nodeOfDeviceOp[event] != kNoNode)
            isCollective[g.nodeOfDeviceOp[event]] = 1;
      ArrivalChains chains(g, std::move(isCollective), f.rankIndex);
      std::sort(late.arrivals.begin(), late.arrivals.end(), [&](const auto& x, const auto& y) {
        return trace.events[x.event].start < trace.events[y.event].start;
      });
      for (const auto& a : late.arrivals) {
        if (a.event >= g.nodeOfDeviceOp.size() || g.nodeOfDeviceOp[a.event] == kNoNode) continue;
        const auto events = chains.advance(g.nodeOfDeviceOp[a.event], a.lateness, f.fix);
        chainOps.insert(chainOps.end(), events.begin(), events.end());
      }
      unmet = chains.unmet();
    }
    f.explanation = "a collective ends only when its last rank has arrived; rank " +
                    std::to_string(rank.rank) + "'s " + topNames(trace, f.evidence, 2) +
                    " started after every other rank's, by " + formatDuration(kStragglerMinNs) +
                    " or more (" + formatDuration(lateness / stepCount) +
                    " per step after the next-latest rank, its late arrivals summed). What set "
                    "its arrival: " +
                    (chainOps.empty() ? std::string("no op on that rank's chain (its launches "
                                                    "or the runtime's time)")
                                      : topNames(trace, chainOps, 3)) +
                    ".";
    f.evidence.insert(f.evidence.end(), chainOps.begin(), chainOps.end());
    if (!f.fix.any())
      f.price.notPriced =
          "the chain that set the late arrival holds no host time or device op to shorten "
          "since the rank's previous collective";
    else if (unmet > 0)
      f.price.model += "; " + formatDuration(unmet) +
                       " of the lateness is not on that chain (the rank started late, or its "
                       "chain reaches its previous collective first), so it stays";
    findings.push_back(std::move(f));
  }
  return findings;
}

}  // namespace sutra
