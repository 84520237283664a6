// SPDX-License-Identifier: MIT
#include "advice/price.h"

#include <algorithm>

#include "session/run_simulation.h"

namespace sutra {
namespace {

// The slowest rank's span of steps over its number of steps.
TimeNs meanStep(const RunSimulation& sim, bool whatIf) {
  TimeNs slowest = 0;
  std::size_t steps = 0;
  for (const auto& r : sim.ranks) {
    const RankProjection& p = whatIf ? r.projection : r.baselineProjection;
    if (p.steps.empty()) continue;
    slowest = std::max(slowest, p.simulatedNs);
    steps = std::max(steps, p.steps.size());
  }
  return steps == 0 ? 0 : slowest / static_cast<TimeNs>(steps);
}

}  // namespace

int priceFinding(const Run& run, const Result<RunSimulation>& baseline, Finding& finding) {
  FindingPrice& price = finding.price;
  price.priced = false;
  if (!finding.fix.any()) {
    if (price.notPriced.empty()) price.notPriced = "no what-if models this fix";
    return 0;
  }
  if (!baseline) {
    price.notPriced = "the simulation failed: " + baseline.error().message;
    return 0;
  }
  // The projections alone: what holds the run and what moved are not read here.
  SimulateOptions whatIf;
  whatIf.causes = false;
  whatIf.baseline = &baseline.value();
  auto sim = simulateRun(run, finding.fix, whatIf);
  if (!sim) {
    price.notPriced = "the simulation failed: " + sim.error().message;
    return 0;
  }
  int replays = sim->replays;
  price.stepNs = meanStep(sim.value(), false);
  price.projectedStepNs = meanStep(sim.value(), true);
  price.priced = price.stepNs > 0;
  if (!price.priced) {
    price.notPriced = "the run has no step the simulator replays";
    return replays;
  }
  if (finding.otherBoundFix.any()) {
    if (auto other = simulateRun(run, finding.otherBoundFix, whatIf)) {
      replays += other->replays;
      price.otherBoundStepNs = meanStep(other.value(), true);
    }
  }
  return replays;
}

}  // namespace sutra
