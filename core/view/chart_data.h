// SPDX-License-Identifier: MIT
#pragma once
// The numbers behind the charts, computed from core results with no Qt: device utilisation per
// stream over time, the kernel-duration histogram, top operators by device time, a comparison's
// per-op bars and measured against simulated time per step. Plain data, so tests check it exactly.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/compare.h"
#include "analysis/op_table.h"
#include "link/steps.h"
#include "model/trace.h"
#include "simulate/simulator.h"
#include "view/widgets_names.h"

namespace sutra::view {

struct StreamUtilisation {
  LaneId lane = 0;
  std::string label;         // "stream 7 (device 0)"
  std::vector<double> busy;  // per bucket: the busy fraction, 0..1
};

struct UtilisationSeries {
  TimeNs start = 0;                        // the first bucket's start
  TimeNs bucketNs = 0;                     // every bucket's length
  std::vector<StreamUtilisation> streams;  // device stream lanes, in lane order
};

// The trace's extent cut into `buckets` equal buckets (the last one may reach past the end);
// a stream's busy time is the union of its device ops (kernels, copies, sets).
UtilisationSeries deviceUtilisation(const Trace& trace, std::size_t buckets);

struct DurationHistogram {
  int firstPower = 0;  // bin i holds durations in [2^(firstPower+i), 2^(firstPower+i+1)) ns
  std::vector<std::uint64_t> counts;  // empty when the trace has no kernel
};

// Kernels (not copies or sets) by duration, in power-of-two bins of nanoseconds; durations of 0
// count in the first bin.
DurationHistogram kernelDurationHistogram(const Trace& trace);

struct NamedTime {
  std::string name;
  TimeNs value = 0;
};

// The device rows of `table` with the largest device total, largest first (ties by name).
std::vector<NamedTime> topOperatorsByDeviceTime(const OpTable& table, std::size_t count);

// One operator's change, B minus A: self device time and self CPU time (the bars of all
// operators add up to the change of the totals). With a third run, C minus A too.
struct DeltaBar {
  std::string name;
  std::string inputShapes;
  bool onDevice = false;
  TimeNs device = 0, cpu = 0;    // B - A
  TimeNs deviceC = 0, cpuC = 0;  // C - A, where a third run is compared
};

// The first `count` operators that changed, in the comparison's order (largest change first);
// those whose self times did not change are left out.
std::vector<DeltaBar> comparisonDeltas(const OpComparison& comparison, std::size_t count);

struct StepTiming {
  std::int64_t number = 0;
  std::string name;
  TimeNs measured = 0;
  TimeNs simulated = 0;
};

// Each step's measured time and its simulated one, as core's projectSteps defines them.
std::vector<StepTiming> stepTimings(const SimGraph& graph, const SimRun& run,
                                    const std::vector<Step>& steps);

}  // namespace sutra::view
