// SPDX-License-Identifier: MIT
#pragma once
// The step time breakdown (core/analysis/breakdown.h) as TensorBoard's Overview shows it: a
// stacked bar per step (the host thread's parts, or one device's), a table of every step's parts
// and the measured hints. Clicking a bar or a row asks for that step.
#include <QWidget>

#include "analysis/breakdown.h"

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

  Breakdown breakdown_;
  QString hostThread_;
  QComboBox* side_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QTableWidget* table_ = nullptr;
  QLabel* hints_ = nullptr;
};

}  // namespace sutra::widgets
