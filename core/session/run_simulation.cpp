// SPDX-License-Identifier: MIT
#include "session/run_simulation.h"

#include "session/run_collectives.h"

namespace sutra {
namespace {

Status checkRanks(const Run& run) {
  if (run.ranks.empty()) return Error{"nothing to simulate: the run has no rank"};
  for (const auto& rank : run.ranks)
    if (!rank->simulation)
      return Error{rank->path() + ": not prepared for simulation (its graph was not built)"};
  // Point-to-point peers name rank numbers: every rank between the first and the last is needed.
  for (std::size_t k = 1; k < run.ranks.size(); ++k) {
    const RankRun& before = *run.ranks[k - 1];
    const RankRun& after = *run.ranks[k];
    if (after.rank == before.rank + 1) continue;
    return Error{"rank " + std::to_string(before.rank + 1) + " is missing: " + before.path() +
                 " is rank " + std::to_string(before.rank) + " and " + after.path() + " is rank " +
                 std::to_string(after.rank)};
  }
  return Ok{};
}

Result<std::vector<Step>> stepsToProject(const RankRun& rank, const SimulateOptions& options) {
  const std::vector<Step>& steps = rank.simulation->steps;
  if (!options.onlyStep) return steps;
  const Step* step = findStep(steps, *options.onlyStep);
  if (step) return std::vector<Step>{*step};
  std::string known;
  for (std::size_t i = 0; i < steps.size() && i < 8; ++i)
    known += (i ? ", " : "") + std::to_string(steps[i].number);
  return Error{rank.path() + ": no step " + std::to_string(*options.onlyStep) +
               " (steps: " + (known.empty() ? "none" : known) + ")"};
}

}  // namespace

Result<RunSimulation> simulateRun(const Run& run, const SimKnobs& knobs,
                                  const SimulateOptions& options) {
  if (auto ok = validateKnobs(knobs); !ok) return ok.error();
  if (auto ok = checkRanks(run); !ok) return ok.error();
  const RunSimulation* given = options.baseline;
  if (given && (given->whatIf() || given->ranks.size() != run.ranks.size()))
    return Error{"simulate: the baseline given is not this run simulated as measured"};
  if (given)
    for (std::size_t r = 0; r < run.ranks.size(); ++r)
      if (given->ranks[r].rank->simulation != run.ranks[r]->simulation)
        return Error{"simulate: the baseline given is not this run simulated as measured"};
  RunSimulation out;
  out.knobs = knobs;
  // The run's own matching where it was built (two ranks or more); one rank matches nothing.
  std::vector<TimeNs> offsets(run.ranks.size(), 0);
  if (given) {
    out.matching = given->matching;
    out.network = given->network;
    for (std::size_t r = 0; r < run.ranks.size(); ++r) offsets[r] = given->ranks[r].clockOffset;
  } else if (run.collectives) {
    out.matching = run.collectives->matching;
    out.network = run.collectives->network;
    offsets = run.collectives->clockOffsets;
  } else if (run.ranks.size() > 1) {
    const RunCollectives collectives = matchRunCollectives(run.ranks);
    out.matching = collectives.matching;
    out.network = collectives.network;
    offsets = collectives.clockOffsets;
  }
  std::vector<const SimGraph*> graphs;
  for (const auto& rank : run.ranks) graphs.push_back(&rank->simulation->graph);
  std::vector<SimRun> baselines;
  if (given) {
    for (const auto& r : given->ranks) baselines.push_back(r.baseline);
  } else {
    auto replayed = simulateRanks(graphs, out.matching.collectives, {}, offsets);
    if (!replayed) return replayed.error();
    ++out.replays;
    baselines = std::move(replayed).value();
  }
  std::optional<std::vector<SimRun>> variants;
  std::vector<SimCollective> variantCollectives;  // with the unmatched ops under a network knob
  if (knobs.any()) {
    // A communication op no other loaded rank has: what of it is transfer and what is waiting is
    // not known, so a network what-if divides all of it (one member, its own transfer).
    std::vector<SimCollective>& collectives = variantCollectives;
    collectives = out.matching.collectives;
    if (knobs.networkSpeed != 1.0) {
      for (const auto& m : out.matching.unmatched) {
        SimCollective alone;
        alone.members = {m};
        collectives.push_back(std::move(alone));
      }
      if (run.ranks.size() == 1)
        for (const auto& op : run.ranks.front()->simulation->comms) {
          SimCollective alone;
          alone.members = {{0, op.node}};
          collectives.push_back(std::move(alone));
        }
    }
    auto runs = simulateRanks(graphs, collectives, knobs, offsets);
    if (!runs) return runs.error();
    ++out.replays;
    variants = std::move(runs.value());
  }
  // What holds each rank, on the runs of all ranks (before they move into the results).
  std::vector<WhatHolds> holds(run.ranks.size());
  if (options.causes)
    for (std::size_t r = 0; r < run.ranks.size(); ++r)
      holds[r] = whatHolds(graphs, variants ? *variants : baselines,
                           variants ? variantCollectives : out.matching.collectives, offsets,
                           static_cast<std::uint32_t>(r));
  for (std::size_t r = 0; r < run.ranks.size(); ++r) {
    RankSimulationResult result;
    result.holds = std::move(holds[r]);
    result.rank = run.ranks[r];
    result.clockOffset = offsets[r];
    result.baseline = std::move(baselines[r]);
    const SimGraph& graph = *graphs[r];
    if (variants) {
      result.run = std::move((*variants)[r]);
      if (options.causes) result.moved = whatMoved(graph, result.baseline, result.run);
    } else {
      result.run = result.baseline;
    }
    auto steps = stepsToProject(*result.rank, options);
    if (!steps) return steps.error();
    result.projection = projectSteps(graph, result.run, *steps);
    if (given)
      result.baselineProjection = given->ranks[r].baselineProjection;
    else
      result.baselineProjection =
          variants ? projectSteps(graph, result.baseline, *steps) : result.projection;
    out.ranks.push_back(std::move(result));
  }
  return out;
}

}  // namespace sutra
