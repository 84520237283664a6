// SPDX-License-Identifier: MIT
#pragma once
// Analysis > Charts: the charts of one rank in tabs (device utilisation per stream,
// kernel-duration histogram, top operators by device time), each savable as PNG, SVG or PDF.
// Their data is computed off the GUI thread from what the session built (the rank's trace and
// its whole-trace operator table), so a large trace never freezes the window.
#include <QFutureWatcher>
#include <QTabWidget>
#include <memory>

#include "analysis/op_table.h"
#include "chart_view.h"
#include "model/trace.h"
#include "view/chart_data.h"

namespace sutra::widgets {

// The three charts' data.
struct ChartsData {
  UtilisationSeries utilisation;
  DurationHistogram histogram;
  std::vector<NamedTime> topOperators;
};
ChartsData chartsData(const Trace& trace, const OpTable& table);

class ChartsView : public QTabWidget {
  Q_OBJECT

 public:
  explicit ChartsView(QWidget* parent = nullptr);
  ~ChartsView() override;
  // Starts computing the charts of `trace` with its operator table `table` off the GUI thread;
  // `ready` follows once they show.
  void setRank(std::shared_ptr<const Trace> trace, std::shared_ptr<const OpTable> table);
  bool isComputing() const { return watcher_->isRunning(); }
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
  std::shared_ptr<const Trace> trace_;
  std::shared_ptr<const OpTable> table_;
  QFutureWatcher<ChartsData>* watcher_;
};

}  // namespace sutra::widgets
