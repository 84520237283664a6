// SPDX-License-Identifier: MIT
#pragma once
// ASTRA-sim's execution model, in Sutra (`sutra-cli simulate --engine astra-model PREFIX`): what
// ASTRA-sim's analytical backend would give for a Chakra export, where ASTRA-sim is not at hand
// (CI). The rules are those of its workload layer (Workload.cc, HardwareResource.cc, and Chakra's
// ETFeeder, at astra-sim ee852f49):
// - only data_deps hold a node back (ctrl_deps are not read);
// - per rank at most one CPU node (is_cpu_op), one GPU compute node (COMP_NODE without it) and one
//   communication node (a COMM_RECV_NODE takes none) in flight;
// - whenever a node of a rank ends, the rank's ready nodes are tried in id order: each whose
//   resource is free is issued, the others wait for the rank's next end;
// - a compute or CPU node lasts duration_micros (1 ns where it is 0 but num_ops is not); one with
//   neither is skipped (it ends at once and takes no resource);
// - a collective of a process group ends for all its ranks at the time the network model
//   (chakra/network_model.h, the model that matches ASTRA-sim's analytical backend) gives it
//   after the last of them issued it; a broadcast lasts its duration_micros; a send and its
//   receive end together, the message's time after both were issued.
// Each rank's finish is its last node's end, as ASTRA-sim's "sys[N] finished, X cycles".
#include <vector>

#include "chakra/et_file.h"
#include "chakra/network_model.h"
#include "model/problems.h"
#include "model/time.h"
#include "simulate/astra_sim_engine.h"
#include "util/result.h"

namespace sutra {

struct AstraModelRank {
  int rank = 0;
  TimeNs finishNs = 0;
  std::size_t nodes = 0;
  std::size_t issued = 0;  // nodes that ran (the others were skipped or never became ready)
};

struct AstraModelRun {
  std::vector<AstraModelRank> ranks;  // in rank order
  ProblemLog problems;
};

// `graphs[r]` is rank r's graph. Fails when a collective's ranks never all issue it, or a node is
// left that could never become ready (the error names the rank and the node).
Result<AstraModelRun> runAstraModel(const std::vector<chakra::ChakraTrace>& graphs,
                                    const NetworkModel& network);

// The same on a convert export (astraSimInputsForExport): its rank files, on its network.yml and
// system.json.
Result<AstraModelRun> runAstraModel(const AstraSimInputs& inputs);

}  // namespace sutra
