// SPDX-License-Identifier: MIT
#pragma once
// The files File > Export writes of one rank of a run, from what the run built: its linked trace
// as ET+ JSON, and its simulated timeline as Chrome-trace JSON. (Chakra files:
// chakra/convert_files; the measured timeline: io/kineto_writer.) Each writes atomically and never
// over protectedPaths.
#include <string>
#include <vector>

#include "session/run.h"
#include "simulate/simulator.h"

namespace sutra {

// The rank's ET linked with its Kineto trace where the run linked one, else the Kineto trace's own
// CPU ops linked alone; says how it was matched in `matching`.
Status writeRankEtPlus(const RankRun& rank, const std::string& path,
                       const std::vector<std::string>& protectedPaths,
                       std::string* matching = nullptr);

// `run` of `graph` (rank number `rank`), e.g. the what-if a simulation window shows.
Status writeSimulatedRank(const SimGraph& graph, const SimRun& run, int rank,
                          const std::string& path);

// Rank `rankIndex` of the run simulated as measured (every rank coupled, as simulateRun does).
Status writeSimulatedRank(const Run& run, int rankIndex, const std::string& path);

}  // namespace sutra
