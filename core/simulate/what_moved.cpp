// SPDX-License-Identifier: MIT
#include "simulate/what_moved.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

namespace sutra {
namespace {

struct TrackTotals {
  TimeNs end = kNoAnchor;
  TimeNs busy = 0;
};

std::vector<TrackTotals> totals(const SimGraph& g, const SimRun& run) {
  std::vector<TrackTotals> out(g.tracks.size());
  for (std::uint32_t t = 0; t < g.tracks.size(); ++t) {
    const auto& nodes = g.tracks[t].nodes;
    for (std::size_t k = 0; k < nodes.size(); ++k) {
      const auto n = nodes[k];
      out[t].end = std::max(out[t].end, run.end[n]);
      if (g.tracks[t].device || g.nodes[n].kind == SimNodeKind::HostOp)
        out[t].busy += run.end[n] - run.start[n];
      else if (g.nodes[n].kind == SimNodeKind::HostRelease && k > 0)
        out[t].busy += run.start[n] - run.start[nodes[k - 1]];
    }
    if (!g.tracks[t].device && !g.tracks[t].opNodes && !nodes.empty()) {
      // A thread ends with its last event, which need not be one of its points.
      out[t].end = std::max(out[t].end, mapHostTime(g, run, t, g.tracks[t].lastEnd, true));
    }
  }
  return out;
}

TimeNs magnitude(TimeNs a, TimeNs b) { return std::llabs(a - b); }

}  // namespace

WhatMoved whatMoved(const SimGraph& g, const SimRun& baseline, const SimRun& variant,
                    std::size_t top) {
  WhatMoved out;
  out.baselineNs = baseline.finish - baseline.begin;
  out.variantNs = variant.finish - variant.begin;
  const Trace& trace = *g.trace;

  const auto before = totals(g, baseline), after = totals(g, variant);
  for (std::uint32_t t = 0; t < g.tracks.size(); ++t) {
    if (before[t].end == after[t].end && before[t].busy == after[t].busy) continue;
    const Lane& lane = trace.lanes[g.tracks[t].lane];
    TrackChange c;
    c.track = t;
    c.device = g.tracks[t].device;
    // A CPU collective backend's worker is replayed as a stream but is a thread.
    c.label = (lane.kind == LaneKind::DeviceStream ? "stream " : "thread ") + lane.tid + " (pid " +
              lane.pid + ")";
    c.baselineEnd = before[t].end;
    c.variantEnd = after[t].end;
    c.baselineBusy = before[t].busy;
    c.variantBusy = after[t].busy;
    out.tracks.push_back(std::move(c));
  }
  auto trackSize = [](const TrackChange& c) {
    return std::max(magnitude(c.baselineEnd, c.variantEnd),
                    magnitude(c.baselineBusy, c.variantBusy));
  };
  std::stable_sort(out.tracks.begin(), out.tracks.end(),
                   [&](const auto& a, const auto& b) { return trackSize(a) > trackSize(b); });
  if (out.tracks.size() > top) out.tracks.resize(top);

  std::unordered_map<StringId, OpChange> byName;
  for (std::uint32_t n = 0; n < g.nodes.size(); ++n) {
    const SimNode& node = g.nodes[n];
    if (node.kind != SimNodeKind::DeviceOp) continue;
    const TimeNs b = baseline.end[n] - baseline.start[n], v = variant.end[n] - variant.start[n];
    const StringId name = trace.events[node.event].name;
    auto& c = byName[name];
    ++c.count;
    c.baselineNs += b;
    c.variantNs += v;
  }
  for (auto& [name, c] : byName) {
    if (c.baselineNs == c.variantNs) continue;
    c.name = std::string(trace.names.view(name));
    out.ops.push_back(std::move(c));
  }
  std::sort(out.ops.begin(), out.ops.end(), [](const OpChange& a, const OpChange& b) {
    const auto x = magnitude(a.baselineNs, a.variantNs), y = magnitude(b.baselineNs, b.variantNs);
    return x != y ? x > y : a.name < b.name;
  });
  if (out.ops.size() > top) out.ops.resize(top);
  return out;
}

}  // namespace sutra
