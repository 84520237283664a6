// SPDX-License-Identifier: MIT
#pragma once
// One chart (QCustomPlot) fed with chart_data's plain numbers, in the widget's palette (light or
// dark), and saved as PNG, SVG or PDF by the file's extension. The legend sits under the plot,
// never over the data.
#include <QString>
#include <QWidget>

#include "view/chart_data.h"

class QCustomPlot;

namespace sutra::widgets {

class ChartView : public QWidget {
  Q_OBJECT

 public:
  explicit ChartView(QWidget* parent = nullptr);

  // At most kMaxStreams lines, the busiest streams', the title saying how many of how many.
  void showUtilisation(const UtilisationSeries& series);
  static constexpr std::size_t kMaxStreams = 6;
  void showHistogram(const DurationHistogram& histogram);
  void showTopOperators(const std::vector<NamedTime>& ops);
  // Each operator's change, B minus A, device and CPU apart; with `withC`, C minus A beside them.
  void showComparison(const std::vector<DeltaBar>& bars, bool withC = false);
  // `simulatedLabel` names the second series: "simulated", or the what-if with its knobs.
  void showStepTimings(const std::vector<StepTiming>& steps, const QString& simulatedLabel = {});

  QString title() const { return title_; }
  QCustomPlot* plot() const { return plot_; }
  // The number of plotted series (graphs and bar sets), for tests.
  int seriesCount() const;
  QString seriesName(int index) const;  // as the legend shows it

  // .png, .svg or .pdf; false with `error` set for another extension or a failed write.
  bool save(const QString& path, QString* error = nullptr) const;

 protected:
  void changeEvent(QEvent* event) override;

 private:
  void reset(const QString& title);
  void applyPalette();
  void setCategoryAxis(const QVector<QString>& labels, bool horizontal);

  QCustomPlot* plot_ = nullptr;
  QString title_;
};

}  // namespace sutra::widgets
