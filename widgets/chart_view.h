// SPDX-License-Identifier: MIT
#pragma once
// One chart (QCustomPlot) fed with chart_data's plain numbers, in the widget's palette (light or
// dark), and saved as PNG, SVG or PDF by the file's extension.
#include <QString>
#include <QWidget>

#include "view/chart_data.h"

class QCustomPlot;

namespace sutra::widgets {

class ChartView : public QWidget {
  Q_OBJECT

 public:
  explicit ChartView(QWidget* parent = nullptr);

  void showUtilisation(const UtilisationSeries& series);
  void showHistogram(const DurationHistogram& histogram);
  void showTopOperators(const std::vector<NamedTime>& ops);
  // With a non-empty labelC, a third bar per operator shows each bar's `c`.
  void showComparison(const std::vector<ComparisonBar>& bars, const QString& labelA,
                      const QString& labelB, const QString& labelC = {});
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
