// SPDX-License-Identifier: MIT
#include "simulation_runner.h"

#include <QtConcurrent/QtConcurrentRun>

#include "session/run_simulation.h"

namespace sutra::gui {

using widgets::SimulationResult;

namespace {

void layOutSimulatedTimeline(SimulationResult& r, const SimRun& run) {
  r.simulated = std::make_shared<const SimulatedTrace>(buildSimulatedTrace(*r.graph, run));
  const std::string label = "rank" + std::to_string(r.trace->meta.rank.value_or(0)) +
                            (r.variant ? " what-if" : " simulated");
  r.simulatedLayout =
      std::make_shared<const view::LaneLayout>(view::LaneLayout::build(r.simulated->trace, label));
}

SimulationResult failedWith(const std::string& message) {
  SimulationResult r;
  r.error = QString::fromStdString(message);
  return r;
}

// Runs the simulation of the whole run and keeps `base.rankIndex`'s part of it.
SimulationResult simulateRank(SimulationResult r, const SimKnobs& knobs) {
  auto simulated = simulateRun(*r.run, knobs);
  if (!simulated) return failedWith(simulated.error().message);
  RankSimulationResult& mine = simulated->ranks[static_cast<std::size_t>(r.rankIndex)];
  r.coupledRanks = simulated->ranks.size();
  r.knobs = knobs;
  r.baseline = std::move(mine.baseline);
  r.projection = mine.baselineProjection;
  r.whatIfProjection.reset();
  r.steps = view::stepTimings(*r.graph, r.baseline, mine.rank->simulation->steps);
  r.variant.reset();
  r.variantSteps.clear();
  r.moved = {};
  r.error.clear();
  if (knobs.any()) {
    r.variant = std::move(mine.run);
    r.whatIfProjection = mine.projection;
    r.variantSteps = view::stepTimings(*r.graph, *r.variant, mine.rank->simulation->steps);
    if (mine.moved) r.moved = std::move(*mine.moved);
    layOutSimulatedTimeline(r, *r.variant);
  } else {
    layOutSimulatedTimeline(r, r.baseline);
  }
  return r;
}

}  // namespace

SimulationResult runSimulation(std::shared_ptr<const Run> run, int rankIndex,
                               const SimKnobs& knobs) {
  if (!run || rankIndex < 0 || std::size_t(rankIndex) >= run->ranks.size())
    return failedWith("no such rank to simulate");
  if (!run->has(RunStage::Simulate)) {
    // Opened without its simulation (RunOptions::simulateUpToEvents): built now, for this window.
    auto simulated = advanceRun(*run, RunStage::Simulate);
    if (!simulated) return failedWith(simulated.error().message);
    run = std::make_shared<const Run>(std::move(simulated).value());
  }
  const auto& rank = run->ranks[std::size_t(rankIndex)];
  if (!rank->simulation || !rank->trace)
    return failedWith(rank->path() + ": not prepared for simulation");
  SimulationResult r;
  r.run = run;
  r.rankIndex = rankIndex;
  r.trace = rank->trace;
  r.launches = rank->simulation->launches;
  // The graph lives in the rank's simulation, which the run keeps alive.
  r.graph = std::shared_ptr<const SimGraph>(rank->simulation, &rank->simulation->graph);
  r.measuredLayout =
      std::make_shared<const view::LaneLayout>(view::LaneLayout::build(*r.trace, rank->label()));
  return simulateRank(std::move(r), knobs);
}

SimulationResult rerunSimulation(const SimulationResult& base, const SimKnobs& knobs) {
  if (!base.run) return failedWith("nothing simulated yet");
  return simulateRank(base, knobs);
}

SimulationRunner::SimulationRunner(widgets::SimulationView* view)
    : QObject(view), view_(view), watcher_(new QFutureWatcher<SimulationResult>(this)) {
  connect(watcher_, &QFutureWatcher<SimulationResult>::finished, this,
          [this] { view_->showSimulation(watcher_->result()); });
  connect(view, &widgets::SimulationView::simulationRequested, this,
          [this](std::shared_ptr<const Run> run, int rankIndex) {
            watcher_->setFuture(
                QtConcurrent::run([run, rankIndex] { return runSimulation(run, rankIndex); }));
          });
  connect(view, &widgets::SimulationView::whatIfRequested, this,
          [this](std::shared_ptr<const SimulationResult> base, const SimKnobs& knobs) {
            watcher_->setFuture(
                QtConcurrent::run([base, knobs] { return rerunSimulation(*base, knobs); }));
          });
}

}  // namespace sutra::gui
