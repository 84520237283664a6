// SPDX-License-Identifier: MIT
#pragma once
// Analysis > Charts: the charts of one rank in tabs (device utilisation per stream,
// kernel-duration histogram, top operators by device time), each savable as PNG, SVG or PDF.
// The view only draws: the app computes their data off the GUI thread (charts_action.cpp) and
// hands it to showCharts, so a large trace never freezes the window.
#include <QTabWidget>
#include <vector>

#include "chart_view.h"
#include "view/chart_data.h"

namespace sutra::widgets {

// The three charts' data.
struct ChartsData {
  UtilisationSeries utilisation;
  DurationHistogram histogram;
  std::vector<NamedTime> topOperators;
};

class ChartsView : public QTabWidget {
  Q_OBJECT

 public:
  explicit ChartsView(QWidget* parent = nullptr);
  // Draws the three charts; `ready` follows.
  void showCharts(const ChartsData& data);
  ChartView* utilisation() const { return utilisation_; }
  ChartView* histogram() const { return histogram_; }
  ChartView* topOperators() const { return topOperators_; }
  ChartView* currentChart() const { return qobject_cast<ChartView*>(currentWidget()); }

 signals:
  void ready();

 private:
  ChartView* utilisation_;
  ChartView* histogram_;
  ChartView* topOperators_;
};

}  // namespace sutra::widgets
