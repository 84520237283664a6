// SPDX-License-Identifier: MIT
#pragma once
// The simulation window's work (widgets/simulation_view.h), done by the app off the GUI thread:
// core's simulateRun over the whole run (ranks coupled at their collectives), the shown rank's
// results kept, its simulated timeline laid out; a what-if replays the same graphs under new knobs.
// A SimulationRunner lives as a child of its view, so an answer that comes after the window closed
// goes nowhere; a newer request drops an older one's answer.
#include <QFutureWatcher>
#include <QObject>
#include <memory>

#include "simulation_view.h"

namespace sutra::gui {

// Simulates `run` (every rank, coupled at their collectives) under `knobs` and keeps rank
// `rankIndex`'s results.
widgets::SimulationResult runSimulation(std::shared_ptr<const Run> run, int rankIndex,
                                        const SimKnobs& knobs = {});
// The same run under new knobs (the graphs are reused, not rebuilt).
widgets::SimulationResult rerunSimulation(const widgets::SimulationResult& base,
                                          const SimKnobs& knobs);

class SimulationRunner : public QObject {
  Q_OBJECT

 public:
  // Answers `view`'s simulationRequested and whatIfRequested.
  explicit SimulationRunner(widgets::SimulationView* view);

 private:
  widgets::SimulationView* view_;
  QFutureWatcher<widgets::SimulationResult>* watcher_;
};

}  // namespace sutra::gui
