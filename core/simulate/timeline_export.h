// SPDX-License-Identifier: MIT
#pragma once
// The simulated timeline as Chrome-trace JSON (chrome://tracing, Perfetto, Sutra itself): every
// event the simulator replays at its simulated time, with its measured time in args. Written to a
// temporary file beside the target and renamed, so a reader never sees half a file; never over
// one of the traces it was simulated from; gzipped when the name ends in .gz.
#include <span>
#include <string>

#include "simulate/simulator.h"
#include "util/result.h"

namespace sutra {

struct SimulatedRank {
  int rank = 0;
  const SimGraph* graph = nullptr;
  const SimRun* run = nullptr;
};

// One file for all ranks; with several ranks each process is named after its rank.
Status writeSimulatedTimeline(const std::string& path, std::span<const SimulatedRank> ranks);

}  // namespace sutra
