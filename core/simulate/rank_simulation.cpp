// SPDX-License-Identifier: MIT
#include "simulate/rank_simulation.h"

#include "link/sync_dependencies.h"
#include "simulate/sim_inputs.h"

namespace sutra {

std::unique_ptr<RankSimulation> prepareRankSimulation(std::shared_ptr<const Trace> trace, int rank,
                                                      const LinkedTrace* linked) {
  ProblemLog problems;
  auto launches = std::make_shared<const LaunchIndex>(LaunchIndex::build(*trace, &problems));
  const auto syncs = findSyncDependencies(*trace, *launches, &problems);
  std::vector<Step> steps = findSteps(*trace, *launches);
  auto sim = prepareRankSimulation(
      {std::move(trace), std::move(launches), &syncs, linked, std::move(steps)}, rank);
  problems.merge(sim->problems);
  sim->problems = std::move(problems);
  return sim;
}

std::unique_ptr<RankSimulation> prepareRankSimulation(RankSimulationInputs in, int rank) {
  auto sim = std::make_unique<RankSimulation>();
  sim->rank = rank;
  sim->trace = std::move(in.trace);
  sim->launches = std::move(in.launches);
  static const std::vector<SyncDependency> kNone;
  SimGraphInputs inputs = simInputsFromKineto(*sim->launches, in.syncs ? *in.syncs : kNone);
  addCpuCollectiveIssues(*sim->trace, inputs);
  if (in.linked) addLinkedDependencies(*in.linked, inputs);
  sim->steps = std::move(in.steps);
  sim->graph = buildSimGraph(*sim->trace, inputs);
  sim->problems.merge(sim->graph.problems);
  sim->comms = kinetoCommOps(*sim->trace, *sim->launches, sim->graph);
  return sim;
}

}  // namespace sutra
