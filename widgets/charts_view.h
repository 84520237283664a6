// SPDX-License-Identifier: MIT
#pragma once
// View > Charts: the charts of one trace in tabs (device utilisation per stream, kernel-duration
// histogram, top operators by device time), each savable as PNG, SVG or PDF.
#include <QTabWidget>
#include <memory>

#include "chart_view.h"

namespace sutra::widgets {

class ChartsView : public QTabWidget {
  Q_OBJECT

 public:
  explicit ChartsView(QWidget* parent = nullptr);
  // Computes the charts' data from `trace` (cheap: one pass per chart) and shows them.
  void setTrace(std::shared_ptr<const Trace> trace);
  ChartView* utilisation() const { return utilisation_; }
  ChartView* histogram() const { return histogram_; }
  ChartView* topOperators() const { return topOperators_; }
  ChartView* currentChart() const { return qobject_cast<ChartView*>(currentWidget()); }

 private:
  ChartView* utilisation_;
  ChartView* histogram_;
  ChartView* topOperators_;
  std::shared_ptr<const Trace> trace_;
};

}  // namespace sutra::widgets
