// SPDX-License-Identifier: MIT
#pragma once
// Analysis > Advice: the findings of core's adviseRun as a list, the price first; selecting one
// shows its explanation and model, asks the window to show its evidence on the timeline
// (findingActivated) and replays the run with its fix in a SimulationView below, the projected
// timeline under the measured one. The advice itself is computed by the caller (app/gui).
#include <QAbstractTableModel>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "advice/advise.h"
#include "navigation.h"
#include "session/run.h"

class QLabel;
class QSortFilterProxyModel;
class QTableView;

namespace sutra::widgets {

class SimulationView;

class AdviceModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { Saving, SavingPercent, Kind, Rank, Title, ColumnCount };
  explicit AdviceModel(QObject* parent = nullptr);
  void setAdvice(std::shared_ptr<const Advice> advice);
  const Finding* finding(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::shared_ptr<const Advice> advice_;
};

class AdviceView : public QWidget {
  Q_OBJECT

 public:
  explicit AdviceView(QWidget* parent = nullptr);
  void setAdvice(std::shared_ptr<const Run> run, std::shared_ptr<const Advice> advice);
  // Shows the finding in row `row` of the model (not of the sorted table).
  void showFinding(int row);
  // Once the advice comes, choose its top row as a click would (sutra --advice).
  void setShowTopFinding(bool show) { showTopFinding_ = show; }

  AdviceModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  SimulationView* projection() const { return projection_; }
  QString detailsText() const;
  // Where a finding's evidence goes: the window's navigation, on the run the advice is of (each
  // finding names its rank).
  void setNavigation(RankNavigation navigation) { navigation_ = std::move(navigation); }

 signals:
  // A finding was chosen: its evidence, on the rank at `rankIndex` of the run.
  void findingActivated(int rankIndex, std::vector<sutra::EventId> evidence);
  // The view shows all it will for now: the advice with no finding, or the finding chosen with
  // its fix's projection (or with none, where it has no price).
  void settled();

 private:
  std::shared_ptr<const Run> run_;
  std::shared_ptr<const Advice> advice_;
  AdviceModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* table_;
  QLabel* details_;
  SimulationView* projection_;
  int simulatedRank_ = -1;           // the rank the projection has simulated
  std::optional<SimKnobs> pending_;  // the fix to apply once the projection is ready
  bool showTopFinding_ = false;
  RankNavigation navigation_;
};

}  // namespace sutra::widgets
