// SPDX-License-Identifier: MIT
#pragma once
// Each step's measured time beside its simulated one, with the same definition on both sides: from
// the step's start to the later of its end and the end of the last device op launched inside it
// (link/steps.h). The whole-trace step keeps the measured time of what the simulator does not
// replay (spans, device annotations) and adds the simulated span of what it does.
#include <span>
#include <string>
#include <vector>

#include "link/steps.h"
#include "simulate/simulator.h"

namespace sutra {

struct StepProjection {
  std::int64_t number = 0;
  std::string name;
  TimeNs measuredStart = 0;
  TimeNs measuredNs = 0;  // Step::duration()
  TimeNs simulatedStart = 0;
  TimeNs simulatedNs = 0;

  // (simulated - measured) / measured, 0 for an empty step.
  double relativeError() const {
    return measuredNs == 0
               ? 0.0
               : static_cast<double>(simulatedNs - measuredNs) / static_cast<double>(measuredNs);
  }
};

struct RankProjection {
  std::vector<StepProjection> steps;
  TimeNs measuredNs = 0;   // first step's start to the last step's end, measured
  TimeNs simulatedNs = 0;  // the same, simulated
};

RankProjection projectSteps(const SimGraph& graph, const SimRun& run, std::span<const Step> steps);

}  // namespace sutra
