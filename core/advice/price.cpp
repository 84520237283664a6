// SPDX-License-Identifier: MIT
#include "advice/price.h"

#include <algorithm>

#include "session/run_simulation.h"

namespace sutra {
namespace {

// The mean over steps of the slowest rank's step, from each rank's projection.
TimeNs meanStep(const RunSimulation& sim, bool whatIf) {
  std::size_t steps = SIZE_MAX;
  for (const auto& r : sim.ranks)
    steps = std::min(steps, (whatIf ? r.projection : r.baselineProjection).steps.size());
  if (steps == 0 || steps == SIZE_MAX) return 0;
  TimeNs total = 0;
  for (std::size_t k = 0; k < steps; ++k) {
    TimeNs slowest = 0;
    for (const auto& r : sim.ranks)
      slowest =
          std::max(slowest, (whatIf ? r.projection : r.baselineProjection).steps[k].simulatedNs);
    total += slowest;
  }
  return total / static_cast<TimeNs>(steps);
}

}  // namespace

void priceFinding(const Run& run, Finding& finding) {
  FindingPrice& price = finding.price;
  price.priced = false;
  if (!finding.fix.any()) {
    if (price.notPriced.empty()) price.notPriced = "no what-if models this fix";
    return;
  }
  auto sim = simulateRun(run, finding.fix);
  if (!sim) {
    price.notPriced = "the simulation failed: " + sim.error().message;
    return;
  }
  price.stepNs = meanStep(sim.value(), false);
  price.projectedStepNs = meanStep(sim.value(), true);
  price.priced = price.stepNs > 0;
  if (!price.priced) {
    price.notPriced = "the run has no step the simulator replays";
    return;
  }
  if (finding.otherBoundFix.any()) {
    if (auto other = simulateRun(run, finding.otherBoundFix))
      price.otherBoundStepNs = meanStep(other.value(), true);
  }
}

}  // namespace sutra
