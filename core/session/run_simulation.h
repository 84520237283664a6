// SPDX-License-Identifier: MIT
#pragma once
// The simulation of a whole run, the one both front ends show: every rank replayed together on the
// graph the run built (with its ET's inter-thread dependencies where it was linked), coupled at
// their collectives (a collective ends when its last rank has arrived), each rank on its clock
// offset; once as measured and, where knobs are given, once more under them.
#include <cstdint>
#include <optional>
#include <vector>

#include "session/run.h"
#include "simulate/collective_matching.h"
#include "simulate/sim_knobs.h"
#include "simulate/simulator.h"
#include "simulate/step_projection.h"
#include "simulate/transfer_model.h"
#include "simulate/what_holds.h"
#include "simulate/what_moved.h"

namespace sutra {

struct RankSimulationResult {
  std::shared_ptr<const RankRun> rank;  // its simulation graph is the one the runs replay
  TimeNs clockOffset = 0;  // added to its clock to meet the other ranks' (their collectives' ends)
  SimRun baseline;         // replayed as measured
  SimRun run;              // under the knobs; the baseline when there are none
  std::optional<WhatMoved> moved;  // what the knobs changed
  RankProjection projection;       // per step, measured against `run`
  WhatHolds holds;                 // what holds it under the knobs (its critical path, by cause)
  RankProjection baselineProjection;
};

struct RunSimulation {
  SimKnobs knobs;
  // How many times the ranks were replayed together to produce this (simulateRanks calls): 1 as
  // measured, 2 under knobs, 1 under knobs where the baseline was given.
  int replays = 0;
  std::vector<RankSimulationResult> ranks;  // the run's ranks, in order
  CollectiveMatching matching;
  TransferFit network;  // the collectives' transfers, fitted (simulate/transfer_model.h)
  bool whatIf() const { return knobs.any(); }
};

struct SimulateOptions {
  std::optional<std::int64_t> onlyStep;  // project this step alone (ProfilerStep#N)
  // Off: no WhatHolds and no WhatMoved (RankSimulationResult::holds and moved stay empty), for
  // what reads the projections alone (the advice's prices).
  bool causes = true;
  // The same run simulated as measured (no knobs, the same onlyStep): its replay is reused, not
  // done again. Null: replayed here.
  const RunSimulation* baseline = nullptr;
};

// Needs every rank's Simulate stage. Fails on invalid knobs, on a gap in the ranks (their peers
// refer to rank numbers), on a step a rank does not have, and on a baseline that is not this run's
// as measured.
Result<RunSimulation> simulateRun(const Run& run, const SimKnobs& knobs = {},
                                  const SimulateOptions& options = {});

}  // namespace sutra
