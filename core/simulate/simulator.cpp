// SPDX-License-Identifier: MIT
#include "simulate/simulator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>

namespace sutra {
namespace {

TimeNs scaled(TimeNs value, double factor) { return scaleDuration(value, factor); }

// Host time cuts sorted by lane and start, with the longest stretch, so that the cuts that reach
// into a range are found by a binary search (a host-bound fix has one cut per idle gap).
void sortCuts(std::vector<HostTimeCut>& cuts) {
  std::sort(cuts.begin(), cuts.end(), [](const HostTimeCut& a, const HostTimeCut& b) {
    return a.lane != b.lane ? a.lane < b.lane : a.start < b.start;
  });
}
TimeNs longestCut(const std::vector<HostTimeCut>& cuts) {
  TimeNs longest = 0;
  for (const auto& cut : cuts) longest = std::max(longest, cut.end - cut.start);
  return longest;
}

// The CPU time that `cuts` (sorted) take out of [from, to] on `lane`: each cut's removed time in
// proportion to how much of its stretch lies inside.
TimeNs cutTime(std::span<const HostTimeCut> cuts, TimeNs longest, LaneId lane, TimeNs from,
               TimeNs to) {
  if (cuts.empty()) return 0;
  auto it =
      std::lower_bound(cuts.begin(), cuts.end(), std::make_pair(lane, from - longest),
                       [](const HostTimeCut& c, const std::pair<LaneId, TimeNs>& key) {
                         return c.lane != key.first ? c.lane < key.first : c.start < key.second;
                       });
  double removed = 0;
  for (; it != cuts.end() && it->lane == lane && it->start < to; ++it) {
    if (it->end <= it->start) continue;
    const TimeNs overlap = std::min(to, it->end) - std::max(from, it->start);
    if (overlap <= 0) continue;
    removed += static_cast<double>(it->removeNs) * static_cast<double>(overlap) /
               static_cast<double>(it->end - it->start);
  }
  return static_cast<TimeNs>(std::llround(removed));
}

// The host time cuts that --scale-cpu makes on one rank: each host event whose name matches a
// pattern (the outermost of a nesting) loses (1 - factor) of its time, or gains it for a factor
// above 1 (a negative cut).
std::vector<HostTimeCut> hostScaleCuts(const SimGraph& g, std::uint32_t rankIndex,
                                       DurationScaler& scaler) {
  std::vector<HostTimeCut> cuts;
  const Trace& trace = *g.trace;
  for (const auto& track : g.tracks) {
    if (track.device || track.opNodes) continue;
    TimeNs coveredUntil = kNoAnchor;
    for (const Event& e : trace.laneEvents(track.lane)) {
      if (e.start < coveredUntil || e.dur <= 0) continue;
      const double f = scaler.factor(e.name, trace.names);
      if (f == 1.0) continue;
      coveredUntil = e.end();
      cuts.push_back({rankIndex, track.lane, e.start, e.end(), e.dur - scaled(e.dur, f)});
    }
  }
  return cuts;
}

}  // namespace

TimeNs transferAtNetworkSpeed(const SimCollective& c, TimeNs measured, double speed) {
  if (speed == 1.0) return measured;
  // The latency the model gives is held; the rest moves with the bandwidth: what the model leaves
  // unexplained in a transfer is the link shared with another transfer or congested, which a
  // faster link shortens as much.
  const TimeNs held = std::clamp<TimeNs>(c.transferLatencyNs, 0, std::max<TimeNs>(measured, 0));
  return held + scaled(measured - held, 1.0 / speed);
}

Result<SimRun> simulate(const SimGraph& g, const SimKnobs& knobs) {
  const SimGraph* graphs[] = {&g};
  auto runs = simulateRanks(graphs, {}, knobs);
  if (!runs) return runs.error();
  return std::move(runs.value().front());
}

Result<std::vector<SimRun>> simulateRanks(std::span<const SimGraph* const> graphs,
                                          std::span<const SimCollective> collectives,
                                          const SimKnobs& knobs,
                                          std::span<const TimeNs> clockOffsets) {
  if (auto ok = validateKnobs(knobs); !ok) return ok.error();
  if (!clockOffsets.empty() && clockOffsets.size() != graphs.size())
    return Error{"simulateRanks: " + std::to_string(clockOffsets.size()) + " clock offsets for " +
                 std::to_string(graphs.size()) + " ranks"};
  auto offsetOf = [&](std::size_t r) { return clockOffsets.empty() ? TimeNs{0} : clockOffsets[r]; };
  // One pass over all ranks: node ids are global (offset of the rank + local id).
  std::vector<std::size_t> offset(graphs.size() + 1, 0);
  for (std::size_t r = 0; r < graphs.size(); ++r)
    offset[r + 1] = offset[r] + graphs[r]->nodes.size();
  const std::size_t n = offset.back();
  std::vector<std::uint32_t> rankOf(n);
  for (std::size_t r = 0; r < graphs.size(); ++r)
    std::fill(rankOf.begin() + static_cast<std::ptrdiff_t>(offset[r]),
              rankOf.begin() + static_cast<std::ptrdiff_t>(offset[r + 1]),
              static_cast<std::uint32_t>(r));
  auto nodeAt = [&](std::size_t id) -> const SimNode& {
    return graphs[rankOf[id]]->nodes[id - offset[rankOf[id]]];
  };
  // A node's measured time on the common clock.
  auto measuredAt = [&](std::size_t id) { return nodeAt(id).measured + offsetOf(rankOf[id]); };

  constexpr std::uint32_t kNoCollective = UINT32_MAX;
  std::vector<std::uint32_t> collectiveOf(n, kNoCollective);
  for (std::uint32_t c = 0; c < collectives.size(); ++c) {
    for (const auto& m : collectives[c].members) {
      if (m.rank >= graphs.size() || m.node >= graphs[m.rank]->nodes.size())
        return Error{"collective " + std::to_string(c) + ": member node " + std::to_string(m.node) +
                     " of rank index " + std::to_string(m.rank) + " does not exist"};
      const std::size_t id = offset[m.rank] + m.node;
      if (collectiveOf[id] != kNoCollective)
        return Error{"collective " + std::to_string(c) + ": node " + std::to_string(m.node) +
                     " of rank index " + std::to_string(m.rank) + " is already in collective " +
                     std::to_string(collectiveOf[id])};
      collectiveOf[id] = c;
    }
  }

  // Simulated spans: device ops scaled by name, host ops by the CPU speed.
  const double cpuFactor = 1.0 / knobs.cpuSpeed;
  std::vector<TimeNs> span(n, 0);
  std::vector<std::vector<HostTimeCut>> cutsOf(graphs.size());
  for (std::size_t r = 0; r < graphs.size(); ++r) {
    const SimGraph& g = *graphs[r];
    auto scalerResult = DurationScaler::create(knobs.scales);
    if (!scalerResult) return scalerResult.error();
    DurationScaler scaler = std::move(scalerResult.value());
    auto hostScalerResult = DurationScaler::create(knobs.hostScales, "--scale-cpu");
    if (!hostScalerResult) return hostScalerResult.error();
    DurationScaler hostScaler = std::move(hostScalerResult.value());
    if (!hostScaler.empty())
      cutsOf[r] = hostScaleCuts(g, static_cast<std::uint32_t>(r), hostScaler);
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      const SimNode& node = g.nodes[i];
      if (node.kind == SimNodeKind::HostOp) {
        const double f = hostScaler.empty()
                             ? 1.0
                             : hostScaler.factor(g.trace->events[node.event].name, g.trace->names);
        span[offset[r] + i] = scaled(node.span, cpuFactor * f);
      } else if (node.kind == SimNodeKind::DeviceOp) {
        const double f =
            scaler.empty() ? 1.0 : scaler.factor(g.trace->events[node.event].name, g.trace->names);
        span[offset[r] + i] = scaled(node.span, f);
      } else if (node.kind == SimNodeKind::DeviceDelay) {
        span[offset[r] + i] = scaled(knobs.launchLatencyNs ? *knobs.launchLatencyNs : node.span,
                                     knobs.launchLatencyScale);
      }
    }
    for (const auto& d : knobs.deviceOpDurations)
      if (d.rankIndex == r && d.event < g.nodeOfDeviceOp.size() &&
          g.nodeOfDeviceOp[d.event] != kNoNode)
        span[offset[r] + g.nodeOfDeviceOp[d.event]] = d.durationNs;
  }
  // The targeted knobs of each rank.
  for (const auto& cut : knobs.hostCuts)
    if (cut.rankIndex < graphs.size()) cutsOf[cut.rankIndex].push_back(cut);
  std::vector<TimeNs> longestCutOf(graphs.size(), 0);
  for (std::size_t r = 0; r < graphs.size(); ++r) {
    sortCuts(cutsOf[r]);
    longestCutOf[r] = longestCut(cutsOf[r]);
  }
  std::vector<std::vector<EventId>> syncsRemovedOf(graphs.size());
  for (const auto& sync : knobs.syncsRemoved)
    if (sync.rankIndex < graphs.size()) syncsRemovedOf[sync.rankIndex].push_back(sync.call);
  auto cpuWeight = [&](const SimEdge& e, std::uint32_t r) {
    const auto& cuts = cutsOf[r];
    if (cuts.empty()) return e.weight;
    const SimGraph& g = *graphs[r];
    const SimNode& from = g.nodes[e.from];
    const TimeNs a = from.measured + from.span;
    const TimeNs b = std::max(a, g.nodes[e.to].measured);
    return std::max<TimeNs>(
        0, e.weight - cutTime(cuts, longestCutOf[r], g.tracks[from.track].lane, a, b));
  };
  auto syncRemoved = [&](const SimEdge& e, std::uint32_t r) {
    const auto& calls = syncsRemovedOf[r];
    return !calls.empty() &&
           std::find(calls.begin(), calls.end(), graphs[r]->nodes[e.to].event) != calls.end();
  };
  auto weightOf = [&](const SimEdge& e, std::uint32_t r) -> std::optional<TimeNs> {
    switch (e.kind) {
      case SimEdgeKind::Cpu:
        return scaled(cpuWeight(e, r), cpuFactor);
      case SimEdgeKind::LaunchLatency:
        return scaled(knobs.launchLatencyNs ? *knobs.launchLatencyNs : e.weight,
                      knobs.launchLatencyScale);
      case SimEdgeKind::HostSync:
        if (syncRemoved(e, r)) return std::nullopt;
        [[fallthrough]];
      case SimEdgeKind::StreamWaitEvent:
        if (knobs.dropSyncs) return std::nullopt;
        return e.weight;
      case SimEdgeKind::WorkerIssue:
      case SimEdgeKind::StreamOrder:
      case SimEdgeKind::InterThread:
      case SimEdgeKind::GraphDependency:
        return e.weight;
    }
    return e.weight;
  };

  std::vector<std::uint32_t> pending(n);
  std::vector<TimeNs> value(n, kNoAnchor), end(n, kNoAnchor);
  std::vector<char> done(n, 0);
  using Item = std::pair<TimeNs, std::size_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  for (std::size_t r = 0; r < graphs.size(); ++r) {
    const SimGraph& g = *graphs[r];
    for (std::size_t i = 0; i < g.nodes.size(); ++i) {
      const std::size_t id = offset[r] + i;
      pending[id] = g.inDegree[i];
      if (g.nodes[i].anchor != kNoAnchor) value[id] = g.nodes[i].anchor + offsetOf(r);
      if (pending[id] == 0) queue.emplace(value[id] == kNoAnchor ? measuredAt(id) : value[id], id);
    }
  }
  // Collectives: how many members arrived, and the latest arrival.
  std::vector<std::uint32_t> arrived(collectives.size(), 0);
  std::vector<TimeNs> lastArrival(collectives.size(), kNoAnchor);
  // Cycle breaking: nodes in measured order, scanned once when the queue runs dry.
  std::vector<std::size_t> byMeasured;
  std::size_t nextForced = 0;
  std::vector<std::uint64_t> forcedNodes(graphs.size(), 0);

  // A node's end is known: release what depends on it.
  auto release = [&](std::size_t id) {
    const std::uint32_t r = rankOf[id];
    const SimGraph& g = *graphs[r];
    const std::size_t local = id - offset[r];
    const TimeNs out = end[id];
    for (std::uint32_t k = g.edgeOffsets[local]; k < g.edgeOffsets[local + 1]; ++k) {
      const SimEdge& e = g.edges[k];
      const std::size_t to = offset[r] + e.to;
      if (done[to]) continue;
      if (auto w = weightOf(e, r)) value[to] = std::max(value[to], out + *w);
      if (--pending[to] == 0) {
        // A node whose every incoming edge was dropped (no-sync) and that has no anchor sits at
        // its predecessor's end.
        if (value[to] == kNoAnchor) value[to] = out;
        queue.emplace(value[to], to);
      }
    }
  };

  std::size_t resolved = 0;
  while (resolved < n) {
    if (queue.empty()) {
      if (byMeasured.empty()) {
        byMeasured.resize(n);
        std::iota(byMeasured.begin(), byMeasured.end(), std::size_t{0});
        std::stable_sort(byMeasured.begin(), byMeasured.end(), [&](std::size_t a, std::size_t b) {
          return measuredAt(a) < measuredAt(b);
        });
      }
      while (nextForced < n && done[byMeasured[nextForced]]) ++nextForced;
      const std::size_t forced = byMeasured[nextForced];
      if (value[forced] == kNoAnchor) value[forced] = measuredAt(forced);
      pending[forced] = 0;
      ++forcedNodes[rankOf[forced]];
      queue.emplace(value[forced], forced);
    }
    const auto [time, id] = queue.top();
    queue.pop();
    if (done[id]) continue;
    done[id] = 1;
    ++resolved;
    if (value[id] == kNoAnchor) value[id] = time;
    const std::uint32_t c = collectiveOf[id];
    const SimCollective* coll = c == kNoCollective ? nullptr : &collectives[c];
    // The send of a point-to-point pair ends on its own; every other member waits.
    auto isSender = [&](const SimCollective::Member& m) {
      return coll->pointToPoint && &m == &coll->members.front();
    };
    auto globalId = [&](const SimCollective::Member& m) { return offset[m.rank] + m.node; };
    if (!coll || (isSender(coll->members.front()) && globalId(coll->members.front()) == id)) {
      end[id] = value[id] + span[id];
      release(id);
      if (!coll) continue;
    }
    // A member of a collective waits for the others; the last one to arrive ends them all.
    lastArrival[c] = std::max(lastArrival[c], value[id]);
    if (++arrived[c] < coll->members.size()) continue;
    TimeNs transfer = std::numeric_limits<TimeNs>::max();
    for (const auto& m : coll->members) transfer = std::min(transfer, span[globalId(m)]);
    transfer = transferAtNetworkSpeed(*coll, transfer, knobs.networkSpeed);
    // A recv ends when the message has arrived (the send's start plus the transfer), or at its
    // own start when the message was there first; the others when the last one has arrived plus
    // the transfer.
    for (std::size_t i = 0; i < coll->members.size(); ++i) {
      const auto& m = coll->members[i];
      if (isSender(m)) continue;
      // A member's end beyond the last arrival plus the transfer: a ring's ranks finish one after
      // another as the last pieces arrive, so it moves with the network as the transfer does.
      const TimeNs residual =
          i < coll->endResiduals.size()
              ? scaled(std::max<TimeNs>(coll->endResiduals[i], 0), 1.0 / knobs.networkSpeed) +
                    std::min<TimeNs>(coll->endResiduals[i], 0)
              : 0;
      end[globalId(m)] =
          coll->pointToPoint
              ? std::max(value[globalId(m)], value[globalId(coll->members.front())] + transfer)
              : std::max(value[globalId(m)], lastArrival[c] + transfer + residual);
    }
    for (const auto& m : coll->members)
      if (!isSender(m)) release(globalId(m));
  }

  std::vector<SimRun> runs(graphs.size());
  for (std::size_t r = 0; r < graphs.size(); ++r) {
    const SimGraph& g = *graphs[r];
    SimRun& run = runs[r];
    run.cpuSpeed = knobs.cpuSpeed;
    run.forcedNodes = forcedNodes[r];
    run.hostCuts = cutsOf[r];
    run.longestHostCut = longestCutOf[r];
    const auto first = value.begin() + static_cast<std::ptrdiff_t>(offset[r]);
    const auto last = value.begin() + static_cast<std::ptrdiff_t>(offset[r + 1]);
    run.start.assign(first, last);
    run.end.assign(end.begin() + static_cast<std::ptrdiff_t>(offset[r]),
                   end.begin() + static_cast<std::ptrdiff_t>(offset[r + 1]));
    if (const TimeNs shift = offsetOf(r); shift != 0) {
      for (auto& t : run.start) t -= shift;
      for (auto& t : run.end) t -= shift;
    }
    if (g.nodes.empty()) continue;
    run.begin = *std::min_element(run.start.begin(), run.start.end());
    run.finish = *std::max_element(run.end.begin(), run.end.end());
    // A thread ends with its last event, which need not be one of its points.
    for (std::uint32_t t = 0; t < g.tracks.size(); ++t)
      if (!g.tracks[t].device && !g.tracks[t].opNodes && !g.tracks[t].nodes.empty())
        run.finish = std::max(run.finish, mapHostTime(g, run, t, g.tracks[t].lastEnd, true));
  }
  return runs;
}

TimeNs mapHostTime(const SimGraph& g, const SimRun& run, std::uint32_t track, TimeNs t,
                   bool isEnd) {
  const auto& keys = g.tracks[track].nodes;
  const auto& times = g.tracks[track].times;
  if (keys.empty()) return t;
  // First key at or after t, and the range of keys exactly at t.
  const auto lo =
      static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), t) - times.begin());
  std::size_t hi = lo;
  while (hi < times.size() && times[hi] == t) ++hi;
  if (lo != hi) return run.start[keys[isEnd ? hi - 1 : lo]];
  const double inv = 1.0 / run.cpuSpeed;
  const LaneId lane = g.tracks[track].lane;
  if (lo == 0)
    return run.start[keys.front()] -
           scaled(times.front() - t -
                      cutTime(run.hostCuts, run.longestHostCut, lane, t, times.front()),
                  inv);
  TimeNs sim =
      run.start[keys[lo - 1]] +
      scaled(t - times[lo - 1] - cutTime(run.hostCuts, run.longestHostCut, lane, times[lo - 1], t),
             inv);
  if (lo != keys.size()) sim = std::min(sim, run.start[keys[lo]]);
  return sim;
}

std::optional<std::pair<TimeNs, TimeNs>> simulatedTimes(const SimGraph& g, const SimRun& run,
                                                        EventId event) {
  const Trace& trace = *g.trace;
  if (event >= trace.events.size()) return std::nullopt;
  if (const auto node = g.nodeOfDeviceOp[event]; node != kNoNode)
    return std::make_pair(run.start[node], run.end[node]);
  const Event& e = trace.events[event];
  const auto track = g.trackOfLane[e.lane];
  if (track == kNoTrack || g.tracks[track].device) return std::nullopt;
  const TimeNs s = mapHostTime(g, run, track, e.start, false);
  const TimeNs f = mapHostTime(g, run, track, e.end(), true);
  return std::make_pair(s, std::max(s, f));
}

}  // namespace sutra
