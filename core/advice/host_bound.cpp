// SPDX-License-Identifier: MIT
#include "advice/host_bound.h"

#include <algorithm>

namespace sutra {

std::vector<Finding> findHostBoundSteps(const AdviceScope& scope) {
  const Trace& trace = scope.trace;
  if (!scope.rank.launches() || !scope.hasDeviceOps()) return {};
  const LaunchIndex& launches = *scope.rank.launches();
  // Every device op, by device start: one whose launch the trace lacks (a sampled trace, another
  // thread's) still kept the device busy.
  std::vector<EventId> ops;
  for (EventId id = 0; id < trace.events.size(); ++id)
    if (isDeviceOp(trace.events[id].klass)) ops.push_back(id);
  std::sort(ops.begin(), ops.end(),
            [&](EventId a, EventId b) { return trace.events[a].start < trace.events[b].start; });

  Finding f = scope.newFinding(FindingKind::HostBound);
  TimeNs idle = 0;         // the device idle until the launch call: what the host caused
  TimeNs afterLaunch = 0;  // and from the call to the op's start (launch latency, module load)
  std::vector<EventId> hostOps;
  std::vector<const Step*> steps;
  TimeNs busyUntil = kNoAnchor;
  for (EventId id : ops) {
    const Event& op = trace.events[id];
    if (launches.runtimeCallOf(id) == kNoEvent) {
      busyUntil = busyUntil == kNoAnchor ? op.end() : std::max(busyUntil, op.end());
      continue;
    }
    const Event& call = trace.events[launches.runtimeCallOf(id)];
    const Step* step = stepAt(scope.steps, call.start);
    // Idle since busyUntil, and the op was launched only after the device went idle.
    if (step && busyUntil != kNoAnchor && busyUntil >= step->start &&
        op.start - busyUntil >= kHostBoundMinGapNs && call.start > busyUntil) {
      const TimeNs waited = std::min(op.start, call.start) - busyUntil;
      if (waited >= kHostBoundMinGapNs) {
        idle += waited;
        afterLaunch += op.start - busyUntil - waited;
        ++f.occurrences;
        f.evidence.push_back(id);
        f.evidence.push_back(launches.runtimeCallOf(id));
        for (EventId h : outermostOps(trace, call.lane, busyUntil, call.start)) {
          f.evidence.push_back(h);
          hostOps.push_back(h);
        }
        f.fix.hostCuts.push_back({scope.rankIndex, call.lane, busyUntil, call.start, waited});
        noteStep(steps, step);
      }
    }
    busyUntil = busyUntil == kNoAnchor ? op.end() : std::max(busyUntil, op.end());
  }
  if (f.occurrences == 0) return {};
  f.steps = steps.size();
  f.measuredNs = scope.perStep(idle);
  f.title = "host-bound: the device idles " + formatDuration(f.measuredNs) +
            " per step waiting for launches (" + std::to_string(f.occurrences) + " gaps)";
  f.explanation =
      "the device had finished all it was given and the next op was launched only after: the "
      "launch queue was empty, so the host, not the device, set the pace. The launching thread "
      "was busy with: " +
      (hostOps.empty() ? std::string("no framework op (runtime or Python time)")
                       : topNames(trace, hostOps, 4)) +
      (afterLaunch * 10 >= idle
           ? ". A further " + formatDuration(scope.perStep(afterLaunch)) +
                 " per step passed between those launch calls and their ops' start (launch "
                 "latency, a module loaded on first use), which no host fix removes"
           : std::string());
  f.price.model =
      "the launching thread's time from the device going idle to the launch removed "
      "(the host keeps ahead, as with CUDA graphs or the work moved off that thread)";
  return {std::move(f)};
}

}  // namespace sutra
