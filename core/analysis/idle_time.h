// SPDX-License-Identifier: MIT
#pragma once
// Why each device stream stood idle between its ops, after Holistic Trace Analysis' idle time
// breakdown (hta/analyzers/breakdown_analysis.py, get_idle_time_breakdown). Each gap between an op
// and the op before it on the same stream (from the latest end so far to its start) is:
// - host wait: the op's launch call started after the stream had gone idle, so the host was not
//   queueing work fast enough;
// - kernel wait: else, a gap shorter than `kernelWaitThreshold`, the cost of launching back to
//   back;
// - other: the rest (e.g. a stream waiting for another stream or an event).
// The ops are the kernels, memcpy and memset of the window (deviceOpsInWindow); the first op of a
// stream has no gap.
//
// Where Sutra differs from HTA, deliberately: HTA takes the gap from the end of the previous op by
// start, so where ops overlap on a stream it sums a negative gap (as kernel wait); here a gap
// starts at the latest end so far and is never negative. HTA documents its threshold as 30 ns but
// compares it with times in microseconds, so it acts as 30 us: Sutra's default is 30 us.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/trace.h"

namespace sutra {

class LaunchIndex;

struct IdleTimeOptions {
  TimeNs kernelWaitThreshold = 30'000;
};

struct StreamIdleTime {
  LaneId lane = 0;
  std::int32_t device = -1;
  std::int64_t stream = -1;
  std::size_t ops = 0;
  TimeNs hostWait = 0, kernelWait = 0, other = 0;
  std::size_t hostWaitGaps = 0, kernelWaitGaps = 0, otherGaps = 0;
  TimeNs total() const { return hostWait + kernelWait + other; }
};

// One entry per stream with ops in the window, by device then stream.
std::vector<StreamIdleTime> idleTimeBreakdown(const Trace& trace, const LaunchIndex& launches,
                                              const TimeWindow& window,
                                              const IdleTimeOptions& options = {});

// {"kernel_wait_threshold_ns","streams":[{"device","stream","ops","idle_ns","host_wait_ns",
//  "kernel_wait_ns","other_ns","host_wait_gaps","kernel_wait_gaps","other_gaps"}]}
nlohmann::json idleTimeJson(const std::vector<StreamIdleTime>& streams,
                            const IdleTimeOptions& options);
std::string idleTimeText(const std::vector<StreamIdleTime>& streams,
                         const IdleTimeOptions& options);

}  // namespace sutra
