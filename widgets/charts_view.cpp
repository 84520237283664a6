// SPDX-License-Identifier: MIT
#include "charts_view.h"

#include <QtConcurrent/QtConcurrentRun>

namespace sutra::widgets {

ChartsData chartsData(const Trace& trace, const OpTable& table) {
  return {deviceUtilisation(trace, 200), kernelDurationHistogram(trace),
          topOperatorsByDeviceTime(table, 15)};
}

ChartsView::ChartsView(QWidget* parent)
    : QTabWidget(parent),
      utilisation_(new ChartView(this)),
      histogram_(new ChartView(this)),
      topOperators_(new ChartView(this)),
      watcher_(new QFutureWatcher<ChartsData>(this)) {
  addTab(utilisation_, tr("Utilisation"));
  addTab(histogram_, tr("Kernel durations"));
  addTab(topOperators_, tr("Top operators"));
  connect(watcher_, &QFutureWatcher<ChartsData>::finished, this, [this] {
    const ChartsData data = watcher_->result();
    utilisation_->showUtilisation(data.utilisation);
    histogram_->showHistogram(data.histogram);
    topOperators_->showTopOperators(data.topOperators);
    emit ready();
  });
}

ChartsView::~ChartsView() { watcher_->waitForFinished(); }

void ChartsView::setRank(std::shared_ptr<const Trace> trace, std::shared_ptr<const OpTable> table) {
  trace_ = std::move(trace);
  table_ = std::move(table);
  if (!trace_ || !table_) return;
  watcher_->setFuture(
      QtConcurrent::run([trace = trace_, table = table_] { return chartsData(*trace, *table); }));
}

}  // namespace sutra::widgets
