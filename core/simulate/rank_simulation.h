// SPDX-License-Identifier: MIT
#pragma once
// Everything needed to simulate one rank, prepared once: its Kineto trace, the launch index and
// sync dependencies the linker finds in it, its steps, and the simulation graph. The CLI and the
// GUI both start here; each what-if is then one call to simulate() on the same graph.
#include <memory>
#include <vector>

#include "link/launch_index.h"
#include "link/linked_trace.h"
#include "link/steps.h"
#include "link/sync_dependencies.h"
#include "simulate/collective_matching.h"
#include "simulate/sim_graph.h"
#include "simulate/step_projection.h"

namespace sutra {

struct RankSimulation {
  int rank = 0;
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const LaunchIndex> launches;
  std::vector<Step> steps;
  SimGraph graph;                 // refers to *trace
  ProblemLog problems;            // what the linker could not resolve, and what the graph left out
  std::vector<RankCommOp> comms;  // its communication ops, for matching with other ranks
  // A Chakra graph: its one step is the whole graph, and without start times in the file
  // nothing was measured (measuredTimes false).
  bool chakra = false;
  bool measuredTimes = true;
};

// `linked` (optional) adds the inter-thread dependencies of a linked trace of the same Kineto
// trace. Behind a unique_ptr: the graph refers to the trace and must not move apart from it.
std::unique_ptr<RankSimulation> prepareRankSimulation(std::shared_ptr<const Trace> trace, int rank,
                                                      const LinkedTrace* linked = nullptr);

// The same from what a run has built already (core/session): the trace's launch index, sync
// dependencies and steps are shared, not rebuilt.
struct RankSimulationInputs {
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const LaunchIndex> launches;
  const std::vector<SyncDependency>* syncs = nullptr;
  const LinkedTrace* linked = nullptr;  // optional
  std::vector<Step> steps;
};
std::unique_ptr<RankSimulation> prepareRankSimulation(RankSimulationInputs inputs, int rank);

}  // namespace sutra
