// SPDX-License-Identifier: MIT
#pragma once
// The overview of a job's ranks (core/analysis/rank_overview.h), as plain data in: a heat map of
// ranks by steps (step time, compute, exposed communication or idle) or by collectives (the wait
// of each rank), a table of the ranks sortable by any column, and the stragglers in words. A click
// on a heat map row, or Open on the table's selected rows, asks to open those ranks in the
// timeline (openRanksRequested), which the window does; this view reads no file.
#include <QAbstractTableModel>
#include <QWidget>
#include <memory>

#include "analysis/rank_overview.h"

class QComboBox;
class QLabel;
class QTableView;

namespace sutra::widgets {

// One row per rank: rank, steps, step, compute, exposed communication, idle (means per step),
// wait at collectives (in all), collectives arrived at last. Raw numbers under kSortRole.
class RankOverviewModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column { Rank, Steps, Step, Compute, Comm, Idle, Wait, Last, ColumnCount };
  explicit RankOverviewModel(QObject* parent = nullptr);
  void setOverview(std::shared_ptr<const RankOverview> overview);

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::shared_ptr<const RankOverview> overview_;
};

// Ranks down, steps (or collectives) across; each cell coloured from the lowest value of the
// metric (pale, the window's background) to the highest (red), in one hue that reads in the light
// and the dark theme. Rows shrink to fit hundreds of ranks.
class RankHeatMap : public QWidget {
  Q_OBJECT
 public:
  enum class Metric { StepTime, Compute, ExposedComm, Idle, CollectiveWait };
  explicit RankHeatMap(QWidget* parent = nullptr);
  void setOverview(std::shared_ptr<const RankOverview> overview);
  void setMetric(Metric metric);
  Metric metric() const { return metric_; }
  // The value a cell shows (nullopt where the rank has no such step or collective).
  std::optional<TimeNs> value(int row, int column) const;
  int columns() const;
  // The rank index (into the overview's ranks) under a point, or -1.
  int rowAt(int y) const;
  QSize sizeHint() const override;

 signals:
  void rankClicked(int index);  // into the overview's ranks

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;

 private:
  std::shared_ptr<const RankOverview> overview_;
  Metric metric_ = Metric::StepTime;
  // Per collective, per rank index: the member's wait, -1 where it is no member.
  std::vector<std::vector<TimeNs>> waits_;
};

class RankOverviewView : public QWidget {
  Q_OBJECT
 public:
  explicit RankOverviewView(QWidget* parent = nullptr);
  void setOverview(std::shared_ptr<const RankOverview> overview);

  RankHeatMap* heatMap() const { return heatMap_; }
  QTableView* table() const { return table_; }
  QComboBox* metricBox() const { return metricBox_; }
  QLabel* summary() const { return summary_; }
  // The ranks selected in the table, by rank number.
  QList<int> selectedRanks() const;

 signals:
  // Rank numbers to open in the timeline.
  void openRanksRequested(const QList<int>& ranks);

 private:
  std::shared_ptr<const RankOverview> overview_;
  QLabel* summary_;
  QComboBox* metricBox_;
  RankHeatMap* heatMap_;
  RankOverviewModel* model_;
  QTableView* table_;
};

}  // namespace sutra::widgets
