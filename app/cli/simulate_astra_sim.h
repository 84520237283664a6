// SPDX-License-Identifier: MIT
#pragma once
// `sutra-cli simulate --engine astra-sim PREFIX`: ASTRA-sim run on a convert export, each rank's
// finish time beside the measured iteration and Sutra's own simulation of the same graphs. Kept
// apart from cmd_simulate.cpp, which only hands over its parsed arguments.
#include "cli_args.h"
#include "simulate/chakra_simulation.h"

namespace sutra::cli {

// Runs the comparison; `chakra` are simulate's graph options (--graph-only, --comm-bandwidth-gbs)
// for Sutra's side. Exit 2 when ASTRA-sim is absent, fails, or a rank never finishes.
int runAstraSimEngine(const Args& args, const ChakraSimOptions& chakra);

}  // namespace sutra::cli
