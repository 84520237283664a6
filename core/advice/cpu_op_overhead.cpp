// SPDX-License-Identifier: MIT
#include "advice/cpu_op_overhead.h"

#include <algorithm>
#include <map>

namespace sutra {

std::vector<Finding> findCpuOpOverhead(const AdviceScope& scope) {
  const Trace& trace = scope.trace;
  if (!scope.rank.launches()) return {};
  const LaunchIndex& launches = *scope.rank.launches();
  // Per outermost op: its device time and its launch calls' host time.
  struct OpWork {
    TimeNs device = 0;
    TimeNs launching = 0;
    std::vector<EventId> calls;
  };
  std::map<EventId, OpWork> work;
  for (const auto& l : launches.launches()) {
    if (l.runtimeCall == kNoEvent) continue;
    EventId op = kNoEvent;
    for (EventId p = trace.events[l.runtimeCall].parent; p != kNoEvent; p = trace.events[p].parent)
      if (trace.events[p].klass == CategoryClass::CpuOp) op = p;
    if (op == kNoEvent || !stepAt(scope.steps, trace.events[op].start)) continue;
    OpWork& w = work[op];
    w.device += trace.events[l.deviceOp].dur;
    if (std::find(w.calls.begin(), w.calls.end(), l.runtimeCall) == w.calls.end()) {
      w.calls.push_back(l.runtimeCall);
      w.launching += trace.events[l.runtimeCall].dur;
    }
  }
  struct Group {
    std::vector<EventId> ops;
    TimeNs cpu = 0, device = 0, overhead = 0;
    std::vector<const Step*> steps;
  };
  std::map<std::string_view, Group> groups;
  // An op's dispatch: its host time less its runtime calls' (launches, and the calls that launch
  // nothing: a blocking wait, a cudaMalloc, the context's creation are not dispatch, and the
  // blocking-sync and runtime set-up findings price them).
  std::map<EventId, TimeNs> dispatchOf;
  for (auto& [op, w] : work) {
    const Event& e = trace.events[op];
    const TimeNs dispatch =
        std::max<TimeNs>(0, e.dur - w.launching - nonLaunchRuntimeTime(trace, launches, op));
    if (w.device > kTinyKernelNs ||
        static_cast<double>(dispatch) < kOverheadRatio * double(w.device))
      continue;
    dispatchOf[op] = dispatch;
    Group& g = groups[trace.name(e)];
    g.ops.push_back(op);
    g.cpu += e.dur;
    g.device += w.device;
    g.overhead += dispatch;
    const Step* step = stepAt(scope.steps, e.start);
    noteStep(g.steps, step);
  }
  std::vector<Finding> findings;
  for (auto& [name, g] : groups) {
    Finding f = scope.newFinding(FindingKind::CpuOpOverhead);
    f.evidence = g.ops;
    f.occurrences = g.ops.size();
    f.steps = g.steps.size();
    f.measuredNs = scope.perStep(g.overhead);
    for (EventId op : g.ops) {
      const Event& e = trace.events[op];
      f.fix.hostCuts.push_back({scope.rankIndex, e.lane, e.start, e.end(), dispatchOf[op]});
    }
    f.title = "CPU overhead of " + std::string(name) + ": " + formatDuration(f.measuredNs) +
              " of dispatch per step (" + formatDuration(scope.perStep(g.cpu)) +
              " on the host) for " + formatDuration(scope.perStep(g.device)) + " of device work (" +
              std::to_string(g.ops.size()) + " calls)";
    f.explanation =
        "each call spends its time in dispatch (argument checks, allocation, the "
        "autograd record) around a kernel of at most " +
        formatDuration(kTinyKernelNs) +
        "; many small ops keep the host, not the device, busy. Fuse them "
        "(torch.compile) or capture the step in a CUDA graph.";
    f.price.model =
        "each call's host time beyond its runtime calls removed (the launches replayed "
        "without the dispatch, as a CUDA graph does)";
    findings.push_back(std::move(f));
  }
  std::sort(findings.begin(), findings.end(),
            [](const Finding& a, const Finding& b) { return a.measuredNs > b.measuredNs; });
  if (findings.size() > 5) findings.resize(5);
  return findings;
}

}  // namespace sutra
