// SPDX-License-Identifier: MIT
#include "advice/advice_scope.h"

#include <algorithm>
#include <map>

namespace sutra {

bool AdviceScope::hasDeviceOps() const {
  return std::any_of(trace.events.begin(), trace.events.end(),
                     [](const Event& e) { return isDeviceOp(e.klass); });
}

Finding AdviceScope::newFinding(FindingKind kind) const {
  Finding f;
  f.kind = kind;
  f.rank = rank.rank;
  f.rankIndex = rankIndex;
  return f;
}

TimeNs AdviceScope::perStep(TimeNs total) const {
  return total / static_cast<TimeNs>(std::max<std::size_t>(steps.size(), 1));
}

void noteStep(std::vector<const Step*>& steps, const Step* step) {
  if (step && std::find(steps.begin(), steps.end(), step) == steps.end()) steps.push_back(step);
}

TimeNs nonLaunchRuntimeTime(const Trace& trace, const LaunchIndex& launches, EventId op) {
  const Event& e = trace.events[op];
  const Lane& lane = trace.lanes[e.lane];
  TimeNs total = 0, coveredUntil = e.start;
  for (EventId id = op + 1; id < lane.endEvent && trace.events[id].start < e.end(); ++id) {
    const Event& c = trace.events[id];
    if ((c.klass != CategoryClass::Runtime && c.klass != CategoryClass::Driver) ||
        c.start < coveredUntil)
      continue;
    coveredUntil = c.end();
    if (launches.deviceOpsOf(id).empty()) total += std::min(c.end(), e.end()) - c.start;
  }
  return total;
}

std::vector<EventId> outermostOps(const Trace& trace, LaneId lane, TimeNs start, TimeNs end) {
  std::vector<EventId> ops;
  const Lane& l = trace.lanes[lane];
  for (EventId id = trace.lowerBound(lane, start); id < l.endEvent; ++id) {
    const Event& e = trace.events[id];
    if (e.start >= end) break;
    if (e.klass != CategoryClass::CpuOp) continue;
    bool nested = false;
    for (EventId p = e.parent; p != kNoEvent; p = trace.events[p].parent)
      if (trace.events[p].klass == CategoryClass::CpuOp) {
        nested = true;
        break;
      }
    if (!nested) ops.push_back(id);
  }
  return ops;
}

const Step* stepAt(std::span<const Step> steps, TimeNs t) {
  for (const auto& s : steps)
    if (t >= s.start && t < s.end) return &s;
  return nullptr;
}

std::string topNames(const Trace& trace, std::span<const EventId> events, std::size_t limit) {
  std::map<std::string_view, std::pair<std::size_t, TimeNs>> byName;
  for (EventId id : events) {
    auto& [count, total] = byName[trace.name(trace.events[id])];
    ++count;
    total += trace.events[id].dur;
  }
  std::vector<std::pair<std::string_view, std::pair<std::size_t, TimeNs>>> sorted(byName.begin(),
                                                                                  byName.end());
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& a, const auto& b) { return a.second.second > b.second.second; });
  std::string text;
  for (std::size_t i = 0; i < sorted.size() && i < limit; ++i) {
    if (!text.empty()) text += ", ";
    text += std::string(sorted[i].first) + " (" + std::to_string(sorted[i].second.first) + ", " +
            formatDuration(sorted[i].second.second) + ")";
  }
  return text;
}

}  // namespace sutra
