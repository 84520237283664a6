// SPDX-License-Identifier: MIT
#include "link/launch_index.h"

#include <algorithm>
#include <string>

namespace sutra {
namespace {

bool isLaunchSide(CategoryClass c) {
  return c == CategoryClass::Runtime || c == CategoryClass::Driver;
}

bool hasCorrelation(std::int64_t correlation) {
  // Some ROCm traces write -1; 0 is never a valid CUPTI/roctracer id either.
  return correlation != kNoId && correlation > 0;
}

std::string describe(const Trace& trace, EventId id) {
  const Event& e = trace.events[id];
  const Lane& lane = trace.lanes[e.lane];
  std::string text(trace.name(e));
  text += " (pid " + lane.pid + " tid " + lane.tid + " at " + std::to_string(e.start) + " ns";
  if (e.correlation != kNoId) text += ", correlation " + std::to_string(e.correlation);
  return text + ")";
}

}  // namespace

EventId enclosingFrameworkOp(const Trace& trace, EventId event) {
  if (event == kNoEvent) return kNoEvent;
  for (EventId p = trace.events[event].parent; p != kNoEvent; p = trace.events[p].parent)
    if (isFramework(trace.events[p].klass)) return p;
  return kNoEvent;
}

LaunchIndex LaunchIndex::build(const Trace& trace, ProblemLog* problems) {
  LaunchIndex index;
  const auto& events = trace.events;

  // Runtime calls by correlation; where two share one (rare, a driver call inside a runtime call
  // reported with the same id), the runtime-class one and then the earlier wins.
  for (EventId i = 0; i < events.size(); ++i)
    if (isLaunchSide(events[i].klass) && hasCorrelation(events[i].correlation))
      index.byCorrelation_.emplace_back(events[i].correlation, i);
  std::sort(index.byCorrelation_.begin(), index.byCorrelation_.end(),
            [&](const auto& a, const auto& b) {
              if (a.first != b.first) return a.first < b.first;
              const Event& x = events[a.second];
              const Event& y = events[b.second];
              if (x.klass != y.klass) return x.klass == CategoryClass::Runtime;
              if (x.start != y.start) return x.start < y.start;
              return a.second < b.second;
            });
  std::uint64_t duplicates = 0;
  std::string duplicateExample;
  {
    std::vector<std::pair<std::int64_t, EventId>> unique;
    unique.reserve(index.byCorrelation_.size());
    for (const auto& entry : index.byCorrelation_) {
      if (!unique.empty() && unique.back().first == entry.first) {
        if (duplicates++ == 0) duplicateExample = describe(trace, entry.second);
        continue;
      }
      unique.push_back(entry);
    }
    index.byCorrelation_ = std::move(unique);
  }

  // Flows from a launch call to a device op: the fallback where a device op's correlation is
  // missing but the trace drew the arrow (ac2g flows carry the same id, so this rarely adds one).
  std::vector<std::pair<EventId, EventId>> flowTo;  // (device op, call)
  for (const auto& f : trace.flows)
    if (f.from < events.size() && f.to < events.size() && isLaunchSide(events[f.from].klass) &&
        isDeviceOp(events[f.to].klass))
      flowTo.emplace_back(f.to, f.from);
  std::sort(flowTo.begin(), flowTo.end());

  std::uint64_t noCorrelation = 0, noCall = 0, noLauncher = 0;
  std::string noCorrelationExample, noCallExample, noLauncherExample;
  for (EventId i = 0; i < events.size(); ++i) {
    const Event& e = events[i];
    if (!isDeviceOp(e.klass)) continue;
    DeviceLaunch launch{i, kNoEvent, kNoEvent};
    if (hasCorrelation(e.correlation))
      launch.runtimeCall = index.runtimeCallByCorrelation(e.correlation);
    if (launch.runtimeCall == kNoEvent) {
      auto it = std::lower_bound(flowTo.begin(), flowTo.end(), std::make_pair(i, EventId{0}));
      if (it != flowTo.end() && it->first == i) launch.runtimeCall = it->second;
    }
    if (launch.runtimeCall == kNoEvent) {
      if (!hasCorrelation(e.correlation)) {
        if (noCorrelation++ == 0) noCorrelationExample = describe(trace, i);
      } else if (noCall++ == 0) {
        noCallExample = describe(trace, i);
      }
    } else {
      launch.launcher = enclosingFrameworkOp(trace, launch.runtimeCall);
      if (launch.launcher == kNoEvent && noLauncher++ == 0)
        noLauncherExample =
            describe(trace, launch.runtimeCall) + " launching " + describe(trace, i);
      ++index.linked_;
    }
    index.launches_.push_back(launch);
  }

  // Device ops grouped by call, each group by device start.
  std::vector<std::uint32_t> order;
  order.reserve(index.launches_.size());
  for (std::uint32_t k = 0; k < index.launches_.size(); ++k)
    if (index.launches_[k].runtimeCall != kNoEvent) order.push_back(k);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const auto& x = index.launches_[a];
    const auto& y = index.launches_[b];
    if (x.runtimeCall != y.runtimeCall) return x.runtimeCall < y.runtimeCall;
    if (events[x.deviceOp].start != events[y.deviceOp].start)
      return events[x.deviceOp].start < events[y.deviceOp].start;
    return x.deviceOp < y.deviceOp;
  });
  index.callOrder_.reserve(order.size());
  index.deviceOrder_.reserve(order.size());
  for (auto k : order) {
    index.callOrder_.push_back(index.launches_[k].runtimeCall);
    index.deviceOrder_.push_back(index.launches_[k].deviceOp);
  }

  if (problems) {
    if (noCorrelation)
      problems->add(Severity::Warning, "device op without a correlation id", noCorrelation,
                    noCorrelationExample);
    if (noCall)
      problems->add(Severity::Warning, "device op whose correlation id matches no runtime call",
                    noCall, noCallExample);
    if (noLauncher)
      problems->add(Severity::Info, "launch call enclosed by no framework op", noLauncher,
                    noLauncherExample);
    if (duplicates)
      problems->add(Severity::Info, "runtime calls sharing one correlation id", duplicates,
                    duplicateExample);
  }
  return index;
}

EventId LaunchIndex::runtimeCallByCorrelation(std::int64_t correlation) const {
  auto it = std::lower_bound(byCorrelation_.begin(), byCorrelation_.end(),
                             std::make_pair(correlation, EventId{0}));
  return it != byCorrelation_.end() && it->first == correlation ? it->second : kNoEvent;
}

EventId LaunchIndex::runtimeCallOf(EventId deviceOp) const {
  auto it = std::lower_bound(launches_.begin(), launches_.end(), deviceOp,
                             [](const DeviceLaunch& l, EventId v) { return l.deviceOp < v; });
  return it != launches_.end() && it->deviceOp == deviceOp ? it->runtimeCall : kNoEvent;
}

EventId LaunchIndex::launcherOf(EventId deviceOp) const {
  auto it = std::lower_bound(launches_.begin(), launches_.end(), deviceOp,
                             [](const DeviceLaunch& l, EventId v) { return l.deviceOp < v; });
  return it != launches_.end() && it->deviceOp == deviceOp ? it->launcher : kNoEvent;
}

std::span<const EventId> LaunchIndex::deviceOpsOf(EventId runtimeCall) const {
  auto range = std::equal_range(callOrder_.begin(), callOrder_.end(), runtimeCall);
  const auto first = static_cast<std::size_t>(range.first - callOrder_.begin());
  const auto count = static_cast<std::size_t>(range.second - range.first);
  return std::span<const EventId>(deviceOrder_).subspan(first, count);
}

}  // namespace sutra
