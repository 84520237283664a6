// SPDX-License-Identifier: MIT
#pragma once
// The price of a finding: the run simulated with its fix as a what-if (simulateRun, every rank
// together) against the run simulated as measured; the step is the slowest rank's, averaged over
// the steps every rank has.
#include "advice/finding.h"
#include "session/run.h"

namespace sutra {

// Fills finding.price (its model is set by the finder). A finding with no fix keeps its
// notPriced reason; a simulation that fails says why.
void priceFinding(const Run& run, Finding& finding);

}  // namespace sutra
