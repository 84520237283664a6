// SPDX-License-Identifier: MIT
#pragma once
// The simulator on the loaded trace: the simulated timeline under the measured one on one
// zoom-locked time axis (each lane group can be hidden), measured against simulated time per step
// (a table and a chart), and what-if knobs (a dialog) with the projected time and what moved. The
// view simulates nothing: it asks (simulationRequested, whatIfRequested) and the app builds and
// replays the graph, and lays out the simulated timeline, off the GUI thread
// (app/gui/simulation_runner.h), answering with showSimulation.
#include <QAbstractTableModel>
#include <QDialog>
#include <QLabel>
#include <QTableView>
#include <QWidget>
#include <memory>

#include "chart_view.h"
#include "session/run.h"
#include "simulate/sim_knobs.h"
#include "simulate/simulated_trace.h"
#include "simulate/what_moved.h"
#include "timeline_view.h"
#include "view/chart_data.h"
#include "view/lane_layout.h"

class QCheckBox;
class QDoubleSpinBox;
class QLineEdit;
class QPlainTextEdit;

namespace sutra::widgets {

// What the view shows of one rank of a run's simulation (core's simulateRun: every rank replayed
// together, the ET's dependencies in where it was linked), immutable once published to the GUI
// thread.
struct SimulationResult {
  std::shared_ptr<const Run> run;
  int rankIndex = 0;  // the rank shown (index into run->ranks)
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const LaunchIndex> launches;
  std::shared_ptr<const SimGraph> graph;  // the rank's graph, as the run built it
  SimRun baseline;
  std::vector<StepTiming> steps;
  SimKnobs knobs;  // of the variant; none when `variant` is empty
  std::optional<SimRun> variant;
  std::vector<StepTiming> variantSteps;
  WhatMoved moved;
  // The steps, first start to last end, measured and replayed (and under the knobs): the headline
  // compares these, like with like.
  RankProjection projection;
  std::optional<RankProjection> whatIfProjection;
  std::size_t coupledRanks = 1;  // how many ranks were simulated together
  // The timelines: the measured one, and the simulated one of the variant where there is one,
  // else of the baseline; simulatedTrace.measuredEvent maps its events back.
  std::shared_ptr<const LaneLayout> measuredLayout;
  std::shared_ptr<const SimulatedTrace> simulated;
  std::shared_ptr<const LaneLayout> simulatedLayout;
  QString error;
};

class StepTimingModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Step, Measured, Simulated, WhatIf, ColumnCount };
  static constexpr int SortRole = Qt::UserRole + 1;
  explicit StepTimingModel(QObject* parent = nullptr);
  void setSteps(std::vector<StepTiming> steps, std::vector<StepTiming> whatIf);
  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::vector<StepTiming> steps_, whatIf_;
};

// The knobs: "regex=factor" scales of device ops and of host ops (one per line), network speed,
// launch latency, CPU speed, drop syncs.
class WhatIfDialog : public QDialog {
  Q_OBJECT

 public:
  explicit WhatIfDialog(QWidget* parent = nullptr);
  // The knobs as entered, or an error naming the line that does not parse.
  Result<SimKnobs> knobs() const;
  void setKnobs(const SimKnobs& knobs);

 private:
  QPlainTextEdit* scales_;
  QPlainTextEdit* hostScales_;
  QDoubleSpinBox* networkSpeed_;
  QLineEdit* launchLatencyUs_;
  QDoubleSpinBox* cpuSpeed_;
  QCheckBox* dropSyncs_;
};

class SimulationView : public QWidget {
  Q_OBJECT

 public:
  explicit SimulationView(QWidget* parent = nullptr);

  // Asks for rank `rankIndex` of `run` to be simulated (simulationRequested); `ready` or `failed`
  // follows once the app answers.
  void simulate(std::shared_ptr<const Run> run, int rankIndex);
  // Asks for the shown simulation to be replayed under `knobs` (whatIfRequested).
  void applyKnobs(const SimKnobs& knobs);
  // The answers: a simulation shown, then `ready` (a result with its error set is a failure);
  // or `failed` with the message.
  void showSimulation(SimulationResult result);
  void showFailure(const QString& message);
  const SimulationResult* result() const { return result_.get(); }
  StepTimingModel* model() const { return model_; }
  ChartView* chart() const { return chart_; }
  QString summaryText() const { return summary_->text(); }
  TimelineView* measuredTimeline() const { return measured_; }
  TimelineView* simulatedTimeline() const { return simulated_; }
  QCheckBox* measuredToggle() const { return showMeasured_; }
  QCheckBox* simulatedToggle() const { return showSimulated_; }
  QTableView* table() const { return table_; }
  QString movedText() const { return moved_->text(); }

 public slots:
  void editKnobs();  // opens the what-if dialog

 signals:
  void simulationRequested(std::shared_ptr<const Run> run, int rankIndex);
  // `base`'s run replayed under `knobs` (its graphs reused, not rebuilt).
  void whatIfRequested(std::shared_ptr<const SimulationResult> base, const SimKnobs& knobs);
  void ready();
  void failed(const QString& message);

 private:
  std::shared_ptr<const SimulationResult> result_;
  StepTimingModel* model_;
  QTableView* table_;
  ChartView* chart_;
  QLabel* summary_;
  QLabel* moved_;
  TimelineView* measured_;
  TimelineView* simulated_;
  QCheckBox* showMeasured_;
  QCheckBox* showSimulated_;
  bool syncing_ = false;
};

}  // namespace sutra::widgets
