// SPDX-License-Identifier: MIT
#include "advice/exposed_communication.h"

#include <algorithm>

#include "chakra/collective.h"

namespace sutra {

std::vector<Finding> findExposedCommunication(const AdviceScope& scope) {
  const Trace& trace = scope.trace;
  if (!scope.rank.launches()) return {};
  // Compute kernels' intervals per device, merged; and the communication kernels in the steps.
  std::vector<std::vector<std::pair<TimeNs, TimeNs>>> compute;
  std::vector<EventId> comms;
  for (const auto& l : scope.rank.launches()->launches()) {
    const Event& e = trace.events[l.deviceOp];
    if (e.klass != CategoryClass::Kernel) continue;
    const auto device = static_cast<std::size_t>(std::max(0, trace.lanes[e.lane].device));
    if (chakra::isCommKernelName(trace.name(e))) {
      const TimeNs launched =
          l.runtimeCall == kNoEvent ? e.start : trace.events[l.runtimeCall].start;
      if (stepAt(scope.steps, launched)) comms.push_back(l.deviceOp);
      continue;
    }
    if (compute.size() <= device) compute.resize(device + 1);
    compute[device].emplace_back(e.start, e.end());
  }
  if (comms.empty()) return {};
  for (auto& intervals : compute) {
    std::sort(intervals.begin(), intervals.end());
    std::vector<std::pair<TimeNs, TimeNs>> merged;
    for (const auto& [a, b] : intervals) {
      if (!merged.empty() && a <= merged.back().second)
        merged.back().second = std::max(merged.back().second, b);
      else
        merged.emplace_back(a, b);
    }
    intervals = std::move(merged);
  }
  Finding f = scope.newFinding(FindingKind::ExposedCommunication);
  TimeNs exposed = 0, total = 0;
  std::vector<const Step*> steps;
  for (EventId id : comms) {
    const Event& e = trace.events[id];
    const auto device = static_cast<std::size_t>(std::max(0, trace.lanes[e.lane].device));
    TimeNs overlapped = 0;
    if (device < compute.size()) {
      const auto& intervals = compute[device];
      auto it =
          std::lower_bound(intervals.begin(), intervals.end(), std::make_pair(e.start, e.start));
      if (it != intervals.begin()) --it;
      for (; it != intervals.end() && it->first < e.end(); ++it)
        overlapped +=
            std::max<TimeNs>(0, std::min(e.end(), it->second) - std::max(e.start, it->first));
    }
    total += e.dur;
    if (e.dur - overlapped <= 0) continue;
    exposed += e.dur - overlapped;
    f.evidence.push_back(id);
    ++f.occurrences;
    f.fix.deviceOpDurations.push_back({scope.rankIndex, id, overlapped});
    const Step* step = stepAt(scope.steps, e.start);
    noteStep(steps, step);
  }
  if (f.evidence.empty()) return {};
  f.steps = steps.size();
  f.measuredNs = scope.perStep(exposed);
  f.title = "exposed communication: " + formatDuration(f.measuredNs) + " per step of " +
            formatDuration(scope.perStep(total)) +
            " in communication kernels runs with no compute (" + std::to_string(f.occurrences) +
            " kernels)";
  f.explanation = "the collectives (" + topNames(trace, f.evidence, 2) +
                  ") run while the device computes nothing, so the step waits for them; "
                  "all-reducing gradients in buckets during the backward (DDP, FSDP) or "
                  "prefetching the next layer's parameters hides them behind compute.";
  f.price.model =
      "an upper bound: each communication kernel keeps only the time it already "
      "overlapped compute on its device";
  return {std::move(f)};
}

}  // namespace sutra
