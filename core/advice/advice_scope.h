// SPDX-License-Identifier: MIT
#pragma once
// What every finder of the advice works over: one rank of a run (its trace, launches, sync
// dependencies, steps) and its place among the run's ranks, with the queries they share.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "advice/finding.h"
#include "session/run.h"

namespace sutra {

struct AdviceScope {
  const RankRun& rank;
  std::uint32_t rankIndex = 0;  // its position in the run (the targeted knobs' rankIndex)
  const Trace& trace;
  std::span<const Step> steps;

  bool hasDeviceOps() const;
  // A finding of `kind` on this rank (its kind, rank and place in the run set).
  Finding newFinding(FindingKind kind) const;
  // `total` as a mean per step (the whole run counts as one step where it has none).
  TimeNs perStep(TimeNs total) const;
};

// Adds `step` to `steps` once (a null step is not added).
void noteStep(std::vector<const Step*>& steps, const Step* step);

// The outermost framework ops (cpu_op) of `lane` that start in [start, end): no cpu_op encloses
// them (annotations and Python frames may), in start order.
std::vector<EventId> outermostOps(const Trace& trace, LaneId lane, TimeNs start, TimeNs end);

// The step whose [start, end) holds t, or nullptr.
const Step* stepAt(std::span<const Step> steps, TimeNs t);

// The time of the runtime and driver calls inside `op` (its descendants not inside another such
// call) that launched nothing: the runtime's host time (a blocking wait, a cudaMalloc), not the
// framework's dispatch.
TimeNs nonLaunchRuntimeTime(const Trace& trace, const LaunchIndex& launches, EventId op);

// The names of `events` counted and listed by total time, "aten::copy_ (3, 1.20 ms), ...", the
// `limit` longest.
std::string topNames(const Trace& trace, std::span<const EventId> events, std::size_t limit);

}  // namespace sutra
