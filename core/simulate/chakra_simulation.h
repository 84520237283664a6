// SPDX-License-Identifier: MIT
#pragma once
// The simulation graph of a Chakra execution trace (.et), for `sutra-cli simulate FILE.et...`.
//
// Every node is an op with its own time (duration_micros): CPU nodes (is_cpu_op; without it,
// nodes other than compute and comm nodes that have no stream: ASTRA-sim runs compute nodes
// without is_cpu_op on the device)
// run one at a time on their thread (tid), device nodes on their stream (stream, else tid as
// Chakra's converter writes it), each thread and stream in execution order (dependencies first,
// then start time, then file order). Communication nodes with no stream (ASTRA-sim's) run as soon
// as their dependencies allow, many at once. ctrl_deps and data_deps both mean "after the end of".
//
// Where the file has start times (a converted trace) the graph keeps what was measured between
// ops and is not in any op (host idle time, launch latency, stream turnaround): every edge gets
// the measured slack, so that with no knobs every op lands where it was measured and a knob moves
// only what depends on it. `dependenciesOnly` drops that: each op starts as soon as its
// dependencies, its thread and its stream allow (what the graph alone implies).
#include <memory>

#include "chakra/et_file.h"
#include "chakra/network_model.h"
#include "simulate/rank_simulation.h"

namespace sutra {

struct ChakraSimOptions {
  bool dependenciesOnly = false;  // ignore the file's start times
  // Communication nodes with no duration take comm_size / this many bytes per ns (= GB/s);
  // 0 keeps them at their duration (0 in ASTRA-sim's examples).
  double commBytesPerNs = 0;
  // Communication nodes with no duration are costed on this network (chakra/network_model.h),
  // collectives over their process group; takes precedence over commBytesPerNs.
  std::shared_ptr<const NetworkModel> network;
  // The ranks of the run, for collectives whose process group the graph does not size; 0: the
  // graph's GlobalMetadata world_size, else the network's NPUs.
  std::int64_t worldSize = 0;
};

// The graph of one rank's Chakra trace. Dependencies on absent nodes and cycles are counted in
// problems (a cycle is broken where it was met), never fatal.
std::unique_ptr<RankSimulation> prepareChakraSimulation(const chakra::ChakraTrace& et, int rank,
                                                        const ChakraSimOptions& options = {});

}  // namespace sutra
