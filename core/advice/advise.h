// SPDX-License-Identifier: MIT
#pragma once
// The advice on a run: every finding of every rank (fusion candidates, host-bound steps, blocking
// syncs, memory copies, the data loader's wait, CPU operator overhead, exposed communication,
// stragglers), each with its evidence and
// its price, the step time the simulator projects with the fix applied (core/advice/price.h). The
// one entry point that sutra-cli advise, Analysis > Advice and the Python API drive.
#include <vector>

#include "advice/finding.h"
#include "session/run.h"
#include "util/cancel_token.h"
#include "util/result.h"

namespace sutra {

struct AdviceOptions {
  std::size_t maxFusionCandidates = 10;  // per rank, the longest first
  bool price = true;                     // simulate each finding's fix (off: findings only)
};

struct Advice {
  std::vector<Finding> findings;  // priced ones by saving, largest first; then the unpriced
  TimeNs stepNs = 0;              // the mean step as the simulator replays it (0 when unpriced)
  // How many times the run was replayed to price the findings: once as measured, then once per
  // what-if (a finding's fix, and its other bound where it has one).
  int replays = 0;
};

// Needs every rank's Simulate stage (openRun with the default options). Fails on a run with no
// rank or a rank not simulated, or when canceled.
Result<Advice> adviseRun(const Run& run, const AdviceOptions& options = {},
                         const CancelToken& cancel = {});

}  // namespace sutra
