// SPDX-License-Identifier: MIT
#pragma once
// How many ops were queued on each device stream over time, after Holistic Trace Analysis' queue
// length (hta/analyzers/trace_counters.py): the series rises by one when a launch call starts and
// falls by one when the op it launched starts on the stream, so it counts the ops launched and not
// yet running. The summary is HTA's get_queue_length_summary: pandas' describe() of the series'
// values, one sample per change (count, mean, sample standard deviation, min, quartiles by linear
// interpolation, max), not weighted by time; the time-weighted mean is given beside it.
// The ops are those of the window (deviceOpsInWindow) whose launch call is in the trace; changes at
// one time are taken rises first.
//
// Where Sutra differs from HTA, deliberately: every launch call counts (LaunchIndex: any runtime
// or driver call that shares the op's correlation, so cudaMemcpy, cudaGraphLaunch and
// cudaLaunchCooperativeKernel too); HTA counts only the calls it names (cudaLaunchKernel,
// cudaLaunchKernelExC, cuLaunchKernel, cudaMemcpyAsync, cudaMemsetAsync, their hip twins and
// MTIA's job submission), though the others queue ops on the stream as well.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "model/trace.h"

namespace sutra {

class LaunchIndex;

struct QueueLengthSummary {
  std::size_t count = 0;  // samples: two per op
  double mean = 0, std = 0;
  double min = 0, p25 = 0, p50 = 0, p75 = 0, max = 0;
  double timeWeightedMean = 0;  // over the series' first to last change
};

struct StreamQueueLength {
  LaneId lane = 0;
  std::int32_t device = -1;
  std::int64_t stream = -1;
  std::vector<std::pair<TimeNs, int>> series;  // (time, length after the change), by time
  QueueLengthSummary summary;
};

// One entry per stream with launched ops in the window, by device then stream.
std::vector<StreamQueueLength> queueLengths(const Trace& trace, const LaunchIndex& launches,
                                            const TimeWindow& window);

// {"streams":[{"device","stream","count","mean","std","min","p25","p50","p75","max",
//  "time_weighted_mean"}]}
nlohmann::json queueLengthJson(const std::vector<StreamQueueLength>& streams);
std::string queueLengthText(const std::vector<StreamQueueLength>& streams);

}  // namespace sutra
