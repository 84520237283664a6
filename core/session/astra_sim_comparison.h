// SPDX-License-Identifier: MIT
#pragma once
// ASTRA-sim beside what was measured and what Sutra's replay gives, rank by rank, for a Chakra
// export (PREFIX.<rank>.et and the configurations convert writes beside them). `sutra-cli simulate
// --engine astra-sim` and the window's Analysis > Simulate with ASTRA-sim... both call this, so
// the two front ends show the same numbers from the same files.
#include <optional>
#include <string>
#include <vector>

#include "model/time.h"
#include "simulate/astra_sim_engine.h"
#include "simulate/chakra_simulation.h"
#include "util/result.h"

namespace sutra {

struct AstraSimRankRow {
  int rank = 0;
  std::optional<TimeNs> measuredNs;    // none where the graph has no start times
  std::optional<TimeNs> sutraNs;       // Sutra's replay of the same graphs, all ranks together
  std::optional<TimeNs> astraModelNs;  // Sutra's engine under ASTRA-sim's rules (astra_model.h)
  TimeNs astraSimNs = 0;               // the analytical backend's cycles are nanoseconds
  std::optional<TimeNs> exposedCommNs;
};

struct AstraSimComparison {
  std::string binary;
  AstraSimInputs inputs;
  std::string network;  // the network run, in words: "Ring, 2 NPUs, 164.5 GB/s, 500 ns"
  std::vector<AstraSimRankRow> rows;  // one per rank, in rank order
};

// The measured iteration of a rank's graph: from its first node's start to its last node's end.
// A graph with no start times (ASTRA-sim's own examples) measured nothing.
Result<std::optional<TimeNs>> chakraMeasuredSpanNs(const std::string& etPath);

// network.yml in words, one dimension after another ("Ring, 2 NPUs, 164.5 GB/s, 500 ns").
std::string describeAstraSimNetwork(const std::string& networkYmlPath);

// Sutra's replay of the export's graphs, its replay under ASTRA-sim's rules (astra-model) (`chakra`
// as simulate's --graph-only and
// --comm-bandwidth-gbs set them), then ASTRA-sim on them with `run`, then each rank's measured
// span. The error is the first step's that failed, as core gives it.
Result<AstraSimComparison> compareWithAstraSim(const std::string& binary,
                                               const AstraSimInputs& inputs,
                                               const ChakraSimOptions& chakra = {},
                                               const AstraSimRunOptions& run = {});

}  // namespace sutra
