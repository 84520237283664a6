// SPDX-License-Identifier: MIT
#include "simulate/simulator.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>
#include <queue>

namespace sutra {
namespace {

TimeNs scaled(TimeNs value, double factor) {
  return factor == 1.0 ? value : static_cast<TimeNs>(std::llround(static_cast<double>(value) * factor));
}

}  // namespace

Result<SimRun> simulate(const SimGraph& g, const SimKnobs& knobs) {
  if (auto ok = validateKnobs(knobs); !ok) return ok.error();
  auto scalerResult = DurationScaler::create(knobs.scales);
  if (!scalerResult) return scalerResult.error();
  DurationScaler scaler = std::move(scalerResult.value());

  const std::size_t n = g.nodes.size();
  SimRun run;
  run.cpuSpeed = knobs.cpuSpeed;
  run.start.assign(n, kNoAnchor);
  run.end.assign(n, kNoAnchor);
  if (n == 0) return run;

  // Simulated spans: device ops scaled by name.
  std::vector<TimeNs> span(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const SimNode& node = g.nodes[i];
    if (node.kind != SimNodeKind::DeviceOp) continue;
    const double f = scaler.empty() ? 1.0 : scaler.factor(g.trace->events[node.event].name, g.trace->names);
    span[i] = scaled(node.span, f);
  }
  const double cpuFactor = 1.0 / knobs.cpuSpeed;
  auto weightOf = [&](const SimEdge& e) -> std::optional<TimeNs> {
    switch (e.kind) {
      case SimEdgeKind::Cpu: return scaled(e.weight, cpuFactor);
      case SimEdgeKind::LaunchLatency:
        return scaled(knobs.launchLatencyNs ? *knobs.launchLatencyNs : e.weight, knobs.launchLatencyScale);
      case SimEdgeKind::HostSync:
      case SimEdgeKind::StreamWaitEvent:
        if (knobs.dropSyncs) return std::nullopt;
        return e.weight;
      case SimEdgeKind::StreamOrder:
      case SimEdgeKind::InterThread: return e.weight;
    }
    return e.weight;
  };

  std::vector<std::uint32_t> pending(g.inDegree);
  std::vector<char> done(n, 0);
  std::vector<TimeNs>& value = run.start;
  using Item = std::pair<TimeNs, std::uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (g.nodes[i].anchor != kNoAnchor) value[i] = g.nodes[i].anchor;
    if (pending[i] == 0) queue.emplace(value[i] == kNoAnchor ? g.nodes[i].measured : value[i], i);
  }
  // Cycle breaking: nodes in measured order, scanned once when the queue runs dry.
  std::vector<std::uint32_t> byMeasured;
  std::size_t nextForced = 0;

  std::size_t resolved = 0;
  while (resolved < n) {
    if (queue.empty()) {
      if (byMeasured.empty()) {
        byMeasured.resize(n);
        std::iota(byMeasured.begin(), byMeasured.end(), 0u);
        std::stable_sort(byMeasured.begin(), byMeasured.end(), [&](std::uint32_t a, std::uint32_t b) {
          return g.nodes[a].measured < g.nodes[b].measured;
        });
      }
      while (nextForced < n && done[byMeasured[nextForced]]) ++nextForced;
      const std::uint32_t forced = byMeasured[nextForced];
      if (value[forced] == kNoAnchor) value[forced] = g.nodes[forced].measured;
      pending[forced] = 0;
      ++run.forcedNodes;
      queue.emplace(value[forced], forced);
    }
    const auto [time, id] = queue.top();
    queue.pop();
    if (done[id]) continue;
    done[id] = 1;
    ++resolved;
    if (value[id] == kNoAnchor) value[id] = time;
    const TimeNs out = value[id] + span[id];
    run.end[id] = out;
    for (std::uint32_t k = g.edgeOffsets[id]; k < g.edgeOffsets[id + 1]; ++k) {
      const SimEdge& e = g.edges[k];
      if (done[e.to]) continue;
      if (auto w = weightOf(e)) value[e.to] = std::max(value[e.to], out + *w);
      if (--pending[e.to] == 0) {
        // A node whose every incoming edge was dropped (no-sync) and that has no anchor sits at
        // its predecessor's end.
        if (value[e.to] == kNoAnchor) value[e.to] = out;
        queue.emplace(value[e.to], e.to);
      }
    }
  }
  run.begin = *std::min_element(run.start.begin(), run.start.end());
  run.finish = *std::max_element(run.end.begin(), run.end.end());
  // A thread ends with its last event, which need not be one of its points.
  for (std::uint32_t t = 0; t < g.tracks.size(); ++t)
    if (!g.tracks[t].device && !g.tracks[t].nodes.empty())
      run.finish = std::max(run.finish, mapHostTime(g, run, t, g.tracks[t].lastEnd, true));
  return run;
}

TimeNs mapHostTime(const SimGraph& g, const SimRun& run, std::uint32_t track, TimeNs t, bool isEnd) {
  const auto& keys = g.tracks[track].nodes;
  const auto& times = g.tracks[track].times;
  if (keys.empty()) return t;
  // First key at or after t, and the range of keys exactly at t.
  const auto lo = static_cast<std::size_t>(std::lower_bound(times.begin(), times.end(), t) - times.begin());
  std::size_t hi = lo;
  while (hi < times.size() && times[hi] == t) ++hi;
  if (lo != hi) return run.start[keys[isEnd ? hi - 1 : lo]];
  const double inv = 1.0 / run.cpuSpeed;
  if (lo == 0) return run.start[keys.front()] - scaled(times.front() - t, inv);
  TimeNs sim = run.start[keys[lo - 1]] + scaled(t - times[lo - 1], inv);
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
