// SPDX-License-Identifier: MIT
#include "charts_view.h"

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

void ChartsView::showCharts(const ChartsData& data) {
  utilisation_->showUtilisation(data.utilisation);
  histogram_->showHistogram(data.histogram);
  topOperators_->showTopOperators(data.topOperators);
  emit ready();
}

}  // namespace sutra::widgets
