// SPDX-License-Identifier: MIT
#include "advice/blocking_syncs.h"

#include <algorithm>
#include <map>

namespace sutra {

std::vector<Finding> findBlockingSyncs(const AdviceScope& scope) {
  const Trace& trace = scope.trace;
  if (!scope.rank.syncs()) return {};
  // The calls that waited, with what they waited on, grouped by "op > call".
  struct Group {
    std::vector<EventId> calls;
    std::vector<EventId> waitedOn;
    std::vector<const Step*> steps;
    TimeNs blocked = 0;
  };
  std::map<std::string, Group> groups;
  EventId lastCall = kNoEvent;
  for (const auto& dep : *scope.rank.syncs()) {
    if (dep.kind == SyncKind::StreamWaitEvent) continue;
    const Event& call = trace.events[dep.waiter];
    if (isDeviceOp(call.klass) || call.dur < kBlockingSyncMinNs) continue;
    const Step* step = stepAt(scope.steps, call.start);
    if (!step) continue;
    const EventId op = enclosingFrameworkOp(trace, dep.waiter);
    std::string key = std::string(trace.name(call));
    if (op != kNoEvent) key = std::string(trace.name(trace.events[op])) + " > " + key;
    Group& g = groups[key];
    g.waitedOn.push_back(dep.waitedOn);
    if (dep.waiter == lastCall) continue;  // sorted by waiter: one call, several ops
    lastCall = dep.waiter;
    g.calls.push_back(dep.waiter);
    if (op != kNoEvent) g.calls.push_back(op);
    g.blocked += call.dur;
    noteStep(g.steps, step);
  }
  std::vector<Finding> findings;
  for (auto& [key, g] : groups) {
    Finding f = scope.newFinding(FindingKind::BlockingSync);
    f.evidence = g.calls;
    f.evidence.insert(f.evidence.end(), g.waitedOn.begin(), g.waitedOn.end());
    std::size_t calls = 0;
    for (EventId id : g.calls)
      if (isRuntime(trace.events[id].klass)) {
        ++calls;
        f.fix.syncsRemoved.push_back({scope.rankIndex, id});
      }
    f.occurrences = calls;
    f.steps = g.steps.size();
    f.measuredNs = scope.perStep(g.blocked);
    f.title = "blocking sync " + key + ": the host waits " + formatDuration(f.measuredNs) +
              " per step (" + std::to_string(calls) + " calls)";
    f.explanation = "the host stops until the device has finished " +
                    topNames(trace, g.waitedOn, 3) +
                    "; meanwhile it launches nothing, so the device runs dry after the wait. "
                    "Record an event and wait on it where the value is needed, or keep the value "
                    "on the device (no .item() in the step).";
    f.price.model =
        "each call no longer blocks the host (an event wait: the device order is "
        "kept, the host goes on launching)";
    findings.push_back(std::move(f));
  }
  return findings;
}

}  // namespace sutra
