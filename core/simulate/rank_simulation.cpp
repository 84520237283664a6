// SPDX-License-Identifier: MIT
#include "simulate/rank_simulation.h"

#include "link/sync_dependencies.h"
#include "simulate/sim_inputs.h"

namespace sutra {

std::unique_ptr<RankSimulation> prepareRankSimulation(std::shared_ptr<const Trace> trace, int rank,
                                                      const LinkedTrace* linked) {
  auto sim = std::make_unique<RankSimulation>();
  sim->rank = rank;
  sim->trace = std::move(trace);
  sim->launches = LaunchIndex::build(*sim->trace, &sim->problems);
  const auto syncs = findSyncDependencies(*sim->trace, sim->launches, &sim->problems);
  SimGraphInputs inputs = simInputsFromKineto(sim->launches, syncs);
  if (linked) addLinkedDependencies(*linked, inputs);
  sim->steps = findSteps(*sim->trace, sim->launches);
  sim->graph = buildSimGraph(*sim->trace, inputs);
  sim->problems.merge(sim->graph.problems);
  sim->comms = kinetoCommOps(*sim->trace, sim->launches, sim->graph);
  return sim;
}

}  // namespace sutra
