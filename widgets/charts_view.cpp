// SPDX-License-Identifier: MIT
#include "charts_view.h"

#include "link/launch_index.h"

namespace sutra::widgets {

ChartsView::ChartsView(QWidget* parent)
    : QTabWidget(parent),
      utilisation_(new ChartView(this)),
      histogram_(new ChartView(this)),
      topOperators_(new ChartView(this)) {
  addTab(utilisation_, tr("Utilisation"));
  addTab(histogram_, tr("Kernel durations"));
  addTab(topOperators_, tr("Top operators"));
}

void ChartsView::setTrace(std::shared_ptr<const Trace> trace) {
  trace_ = std::move(trace);
  if (!trace_) return;
  utilisation_->showUtilisation(deviceUtilisation(*trace_, 200));
  histogram_->showHistogram(kernelDurationHistogram(*trace_));
  const LaunchIndex launches = LaunchIndex::build(*trace_);
  OpTableOptions options;
  options.window = wholeTraceWindow(*trace_);
  topOperators_->showTopOperators(
      topOperatorsByDeviceTime(buildOpTable(*trace_, launches, options), 15));
}

}  // namespace sutra::widgets
