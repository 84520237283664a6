// SPDX-License-Identifier: MIT
#pragma once
// What a comparison of two runs says, in a few numbers and sentences a user can paste: the device
// and CPU time, the kernels launched and the host's idle time of each run, a headline ("B: 3.14x
// less device time, 5 kernels -> 1") and which operators one run replaced with others ("5 ops only
// in A (aten::pow, ...) replaced by 1 only in B (aten::rms_norm)"). The compare window and
// `sutra-cli compare` both say it.
#include <cstdint>
#include <string>

#include "analysis/compare.h"
#include "model/trace.h"

namespace sutra {

// One run's side of the story, over its comparison window.
struct RunTotals {
  TimeNs window = 0;            // the window's length
  TimeNs selfDevice = 0;        // Self <DEV> total, as the operator table sums it
  TimeNs selfCpu = 0;           // Self CPU total
  std::uint64_t kernels = 0;    // kernel events starting in the window
  std::uint64_t deviceOps = 0;  // kernels, memcpys and memsets starting in the window
  // The window's time in which no framework op ran on any host thread (annotations such as
  // ProfilerStep#N do not count as work): the host's gaps between ops, launches' latency included.
  TimeNs hostIdle = 0;
  std::size_t steps = 0;  // the steps the window holds (1 for a step; 0 where none are known)
};

RunTotals runTotals(const Trace& trace, const TimeWindow& window, TimeNs selfCpu,
                    TimeNs selfDevice);

struct ComparisonStory {
  RunTotals a, b;
  // "B (fused) against A (naive): 3.14x less device time (2.355 ms -> 750.0 us), 5 kernels -> 1,
  // 1.41x less CPU time (...), host idle 120.0 us -> 80.0 us"
  std::string headline;
  // "5 ops only in A (aten::pow, aten::mean, ...) replaced by 1 only in B (aten::rms_norm)", or
  // empty where every operator is in both.
  std::string replaced;
};

// `stepsA` and `stepsB`: the steps each window holds. Where both hold the same number, the kernels
// are counted per step ("5 kernels -> 1 per step", as a user thinks of one iteration).
ComparisonStory tellComparison(const OpComparison& comparison, const Trace& a, const Trace& b,
                               std::size_t stepsA = 0, std::size_t stepsB = 0);

}  // namespace sutra
