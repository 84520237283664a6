// SPDX-License-Identifier: MIT
#pragma once
// The price of a finding: the run simulated with its fix as a what-if (simulateRun, every rank
// together) against the run simulated as measured, once for all findings (the baseline); the step
// is the slowest rank's span of steps (its first step's start to its last one's end) over its
// number of steps, so that time a fix moves from one step into the next is not counted as saved.
#include "advice/finding.h"
#include "session/run.h"
#include "session/run_simulation.h"
#include "util/result.h"

namespace sutra {

// Fills finding.price (its model is set by the finder) from one replay of its fix (two where it
// has another bound) against `baseline`, the run simulated as measured (or why that failed). A
// finding with no fix keeps its notPriced reason. Returns how many times the run was replayed.
int priceFinding(const Run& run, const Result<RunSimulation>& baseline, Finding& finding);

}  // namespace sutra
