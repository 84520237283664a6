// SPDX-License-Identifier: MIT
#include "analysis/idle_time.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <tuple>

#include "link/launch_index.h"
#include "link/steps.h"

namespace sutra {

std::vector<StreamIdleTime> idleTimeBreakdown(const Trace& trace, const LaunchIndex& launches,
                                              const TimeWindow& window,
                                              const IdleTimeOptions& options) {
  // Ops by lane; a lane's events are sorted by start, and so are the ids taken from them.
  std::map<std::tuple<std::int32_t, std::int64_t, LaneId>, std::vector<EventId>> byStream;
  for (EventId id : deviceOpsInWindow(trace, launches, window)) {
    const Lane& lane = trace.lanes[trace.events[id].lane];
    byStream[{lane.device, lane.stream, trace.events[id].lane}].push_back(id);
  }
  std::vector<StreamIdleTime> out;
  for (auto& [key, ops] : byStream) {
    std::sort(ops.begin(), ops.end(),
              [&](EventId a, EventId b) { return trace.events[a].start < trace.events[b].start; });
    StreamIdleTime s;
    s.device = std::get<0>(key);
    s.stream = std::get<1>(key);
    s.lane = std::get<2>(key);
    s.ops = ops.size();
    TimeNs busyUntil = trace.events[ops.front()].end();
    for (std::size_t i = 1; i < ops.size(); ++i) {
      const Event& op = trace.events[ops[i]];
      const TimeNs gap = std::max<TimeNs>(0, op.start - busyUntil);
      const EventId call = launches.runtimeCallOf(ops[i]);
      if (call != kNoEvent && trace.events[call].start > busyUntil) {
        s.hostWait += gap;
        ++s.hostWaitGaps;
      } else if (gap < options.kernelWaitThreshold) {
        s.kernelWait += gap;
        ++s.kernelWaitGaps;
      } else {
        s.other += gap;
        ++s.otherGaps;
      }
      busyUntil = std::max(busyUntil, op.end());
    }
    out.push_back(s);
  }
  return out;
}

nlohmann::json idleTimeJson(const std::vector<StreamIdleTime>& streams,
                            const IdleTimeOptions& options) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : streams)
    list.push_back({{"device", s.device},
                    {"stream", s.stream},
                    {"ops", s.ops},
                    {"idle_ns", s.total()},
                    {"host_wait_ns", s.hostWait},
                    {"kernel_wait_ns", s.kernelWait},
                    {"other_ns", s.other},
                    {"host_wait_gaps", s.hostWaitGaps},
                    {"kernel_wait_gaps", s.kernelWaitGaps},
                    {"other_gaps", s.otherGaps}});
  return {{"kernel_wait_threshold_ns", options.kernelWaitThreshold}, {"streams", std::move(list)}};
}

std::string idleTimeText(const std::vector<StreamIdleTime>& streams,
                         const IdleTimeOptions& options) {
  if (streams.empty()) return "No device ops.\n";
  std::string out = "Idle time between the ops of each stream (kernel wait: gaps under " +
                    formatDuration(options.kernelWaitThreshold) + "):\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-16s %8s %12s %12s %12s %12s\n", "device/stream", "ops",
                "idle", "host wait", "kernel wait", "other");
  out += line;
  for (const auto& s : streams) {
    const std::string name = std::to_string(s.device) + "/" + std::to_string(s.stream);
    std::snprintf(line, sizeof line, "  %-16s %8zu %12s %12s %12s %12s\n", name.c_str(), s.ops,
                  formatDuration(s.total()).c_str(), formatDuration(s.hostWait).c_str(),
                  formatDuration(s.kernelWait).c_str(), formatDuration(s.other).c_str());
    out += line;
  }
  return out;
}

}  // namespace sutra
