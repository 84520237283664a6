// SPDX-License-Identifier: MIT
#pragma once
// The price of a finding: the run simulated with its fix as a what-if (simulateRun, every rank
// together) against the run simulated as measured; the step is the slowest rank's span of steps
// (its first step's start to its last one's end) over its number of steps, so that time a fix moves
// from one step into the next is not counted as saved.
#include "advice/finding.h"
#include "session/run.h"

namespace sutra {

// Fills finding.price (its model is set by the finder). A finding with no fix keeps its
// notPriced reason; a simulation that fails says why.
void priceFinding(const Run& run, Finding& finding);

}  // namespace sutra
