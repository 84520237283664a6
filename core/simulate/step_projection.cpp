// SPDX-License-Identifier: MIT
#include "simulate/step_projection.h"

#include <algorithm>

namespace sutra {

RankProjection projectSteps(const SimGraph& g, const SimRun& run, std::span<const Step> steps) {
  RankProjection out;
  if (steps.empty() || g.nodes.empty()) return out;
  const Trace& trace = *g.trace;

  // Simulated start and end of each step's own span.
  std::vector<TimeNs> simStart(steps.size()), simEnd(steps.size());
  // The modelled part of the trace, for steps with no annotation.
  TimeNs measuredBegin = kNoAnchor, measuredFinish = kNoAnchor;
  for (const auto& node : g.nodes) {
    const TimeNs b = node.measured, f = node.measured + node.span;
    measuredBegin = measuredBegin == kNoAnchor ? b : std::min(measuredBegin, b);
    measuredFinish = std::max(measuredFinish, f);
  }
  for (const auto& track : g.tracks)
    if (!track.device && !track.nodes.empty())
      measuredFinish = std::max(measuredFinish, track.lastEnd);
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const Step& s = steps[k];
    const auto track =
        s.annotation == kNoEvent ? kNoTrack : g.trackOfLane[trace.events[s.annotation].lane];
    if (track == kNoTrack || g.tracks[track].device) {
      // Whole trace (or an annotation on no replayed thread): shift by the simulated change of
      // the modelled span, keeping the rest as measured.
      simStart[k] = s.start + (run.begin - measuredBegin);
      simEnd[k] = simStart[k] + (s.end - s.start) +
                  ((run.finish - run.begin) - (measuredFinish - measuredBegin));
    } else {
      simStart[k] = mapHostTime(g, run, track, s.start, false);
      simEnd[k] = std::max(simStart[k], mapHostTime(g, run, track, s.end, true));
    }
  }

  // Device ops extend every step whose [start, end) holds their launch call's start.
  std::vector<TimeNs> starts, maxEndSoFar;
  for (const auto& s : steps) {
    starts.push_back(s.start);
    maxEndSoFar.push_back(std::max(maxEndSoFar.empty() ? s.end : maxEndSoFar.back(), s.end));
  }
  const bool sorted = std::is_sorted(starts.begin(), starts.end());
  for (std::uint32_t n = 0; n < g.nodes.size(); ++n) {
    const SimNode& node = g.nodes[n];
    if (node.kind != SimNodeKind::DeviceOp || node.launchCall == kNoEvent) continue;
    const TimeNs t = trace.events[node.launchCall].start;
    if (!sorted) {
      for (std::size_t k = 0; k < steps.size(); ++k)
        if (t >= steps[k].start && t < steps[k].end && steps[k].annotation != kNoEvent)
          simEnd[k] = std::max(simEnd[k], run.end[n]);
      continue;
    }
    auto k = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), t) -
                                      starts.begin());
    while (k > 0 && maxEndSoFar[k - 1] > t) {
      --k;
      if (t < steps[k].end && steps[k].annotation != kNoEvent)
        simEnd[k] = std::max(simEnd[k], run.end[n]);
    }
  }

  TimeNs measuredFirst = steps[0].start, measuredLast = steps[0].deviceEnd;
  TimeNs simFirst = simStart[0], simLast = simEnd[0];
  for (std::size_t k = 0; k < steps.size(); ++k) {
    const Step& s = steps[k];
    out.steps.push_back(
        {s.number, s.name, s.start, s.duration(), simStart[k], simEnd[k] - simStart[k]});
    measuredFirst = std::min(measuredFirst, s.start);
    measuredLast = std::max(measuredLast, s.deviceEnd);
    simFirst = std::min(simFirst, simStart[k]);
    simLast = std::max(simLast, simEnd[k]);
  }
  out.measuredNs = measuredLast - measuredFirst;
  out.simulatedNs = simLast - simFirst;
  return out;
}

}  // namespace sutra
