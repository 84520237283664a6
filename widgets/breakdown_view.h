// SPDX-License-Identifier: MIT
#pragma once
// The step time breakdown (core/analysis/breakdown.h) as TensorBoard's Overview shows it: a
// stacked bar per step (the host thread's parts, or one device's), a table of every step's parts
// and the measured hints. Clicking a bar or a row asks for that step. With several ranks (the
// all-ranks view) a rank selector chooses whose steps are shown, and a line names the rank whose
// step is longest and by which part (core/analysis/rank_breakdown.h).
#include <QStringList>
#include <QWidget>
#include <vector>

#include "analysis/breakdown.h"
#include "analysis/rank_breakdown.h"

class QComboBox;
class QCustomPlot;
class QLabel;
class QTableWidget;

namespace sutra::widgets {

class BreakdownView : public QWidget {
  Q_OBJECT

 public:
  explicit BreakdownView(QWidget* parent = nullptr);

  void setBreakdown(Breakdown breakdown, QString hostThread);
  // Several ranks' breakdowns, each with its host thread and label ("rank0"); `current` shown.
  void setRanks(std::vector<RankBreakdown> ranks, QStringList hostThreads, QStringList labels,
                int current);
  // The rank shown: an index into setRanks' list (0 after setBreakdown).
  int rankIndex() const;
  void setRankIndex(int index);
  // The line across the ranks (its tooltip has every step's); empty with one rank.
  QString acrossRanksText() const;
  const Breakdown& breakdown() const { return breakdown_; }
  // What the chart shows: 0 the host, 1 + i the i-th device of the steps.
  void setSide(int side);
  int side() const;
  QCustomPlot* plot() const { return plot_; }
  QTableWidget* table() const { return table_; }
  QString hintsText() const;

 signals:
  void stepActivated(std::int64_t step);

 private:
  void rebuild();
  void showRank(int index);
  void applyBreakdown(Breakdown breakdown, QString hostThread);

  Breakdown breakdown_;
  QString hostThread_;
  std::vector<RankBreakdown> ranks_;
  QStringList hostThreads_;
  QComboBox* rank_ = nullptr;
  QLabel* rankLabel_ = nullptr;
  QLabel* across_ = nullptr;
  QComboBox* side_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QTableWidget* table_ = nullptr;
  QLabel* hints_ = nullptr;
};

}  // namespace sutra::widgets
