// SPDX-License-Identifier: MIT
#include "chart_view.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QFileInfo>
#include <QPainter>
#include <QSvgGenerator>
#include <QVBoxLayout>

#include "text/format.h"
#include "theme.h"

namespace sutra::widgets {
namespace {

double us(TimeNs ns) { return double(ns) / 1000.0; }

// The unit an axis of times up to `maxNs` reads best in: its numbers stay under four digits.
struct TimeUnit {
  double nsPer;
  const char* name;
  double of(TimeNs ns) const { return double(ns) / nsPer; }
};
TimeUnit timeUnitFor(TimeNs maxNs) {
  if (maxNs >= 10'000'000'000) return {1e9, "s"};
  if (maxNs >= 10'000'000) return {1e6, "ms"};
  if (maxNs >= 10'000) return {1e3, "us"};
  return {1.0, "ns"};
}

// A category axis label short enough to leave the plot its room: kernel names run to hundreds of
// characters; their head and tail tell them apart ("void at::native::vect...<float>").
QString categoryLabel(const std::string& name) {
  constexpr int kMax = 34;
  const QString text = QString::fromStdString(name);
  if (text.size() <= kMax) return text;
  return text.left(kMax - 12) + QStringLiteral("\u2026") + text.right(11);
}

}  // namespace

ChartView::ChartView(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(plot_);
  plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
  plot_->plotLayout()->insertRow(0);
  plot_->plotLayout()->addElement(0, 0, new QCPTextElement(plot_, QString()));
  // The legend leaves the axis rect for a row of its own under it: it never covers a bar or a
  // line, however many series there are (entries flow in rows of four).
  plot_->plotLayout()->addElement(2, 0, plot_->legend);
  plot_->plotLayout()->setRowStretchFactor(2, 0.001);
  plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
  plot_->legend->setWrap(4);
  applyPalette();
}

int ChartView::seriesCount() const { return plot_->plottableCount(); }

QString ChartView::seriesName(int index) const {
  const QCPAbstractPlottable* series = plot_->plottable(index);
  return series ? series->name() : QString();
}

void ChartView::reset(const QString& title) {
  title_ = title;
  plot_->clearPlottables();
  plot_->legend->setVisible(false);
  plot_->xAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
  plot_->yAxis->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
  if (auto* text = qobject_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0)))
    text->setText(title);
}

void ChartView::setCategoryAxis(const QVector<QString>& labels, bool horizontal) {
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  for (int i = 0; i < labels.size(); ++i) ticker->addTick(i + 1, labels[i]);
  QCPAxis* axis = horizontal ? plot_->yAxis : plot_->xAxis;
  axis->setTicker(ticker);
  axis->setTickLabelRotation(horizontal ? 0 : 45);
  axis->setRange(0, labels.size() + 1);
}

void ChartView::showUtilisation(const UtilisationSeries& series) {
  // A dozen lines of 0-100 % on one plot read as none: the busiest streams, in the trace's order.
  std::vector<std::size_t> shown(series.streams.size());
  for (std::size_t s = 0; s < shown.size(); ++s) shown[s] = s;
  auto busy = [&](std::size_t s) {
    double sum = 0;
    for (double b : series.streams[s].busy) sum += b;
    return sum;
  };
  if (shown.size() > kMaxStreams) {
    std::stable_sort(shown.begin(), shown.end(),
                     [&](std::size_t x, std::size_t y) { return busy(x) > busy(y); });
    shown.resize(kMaxStreams);
    std::sort(shown.begin(), shown.end());
    reset(tr("Device utilisation: the %1 busiest of %2 streams")
              .arg(kMaxStreams)
              .arg(series.streams.size()));
  } else {
    reset(tr("Device utilisation per stream"));
  }
  double maxX = 0;
  for (std::size_t s : shown) {
    const auto& stream = series.streams[s];
    auto* graph = plot_->addGraph();
    graph->setName(QString::fromStdString(stream.label));
    graph->setLineStyle(QCPGraph::lsStepLeft);
    for (std::size_t b = 0; b < stream.busy.size(); ++b) {
      const double x = us(TimeNs(b) * series.bucketNs) / 1000.0;  // ms from the trace start
      graph->addData(x, stream.busy[b] * 100.0);
      maxX = std::max(maxX, x);
    }
  }
  plot_->xAxis->setLabel(tr("time from trace start (ms)"));
  plot_->yAxis->setLabel(tr("busy (%)"));
  plot_->xAxis->setRange(0, std::max(maxX, 1e-3));
  plot_->yAxis->setRange(0, 105);
  plot_->legend->setVisible(!series.streams.empty());
  applyPalette();
  plot_->replot();
}

void ChartView::showHistogram(const DurationHistogram& histogram) {
  reset(tr("Kernel durations"));
  auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
  bars->setPen(Qt::NoPen);
  QVector<QString> labels;
  double maxCount = 0;
  for (std::size_t i = 0; i < histogram.counts.size(); ++i) {
    bars->addData(double(i + 1), double(histogram.counts[i]));
    labels << durationText(TimeNs(1) << (histogram.firstPower + int(i)));
    maxCount = std::max(maxCount, double(histogram.counts[i]));
  }
  setCategoryAxis(labels, false);
  plot_->xAxis->setLabel(tr("duration (at least)"));
  plot_->yAxis->setLabel(tr("kernels"));
  plot_->yAxis->setRange(0, std::max(1.0, maxCount * 1.1));
  applyPalette();
  plot_->replot();
}

void ChartView::showTopOperators(const std::vector<NamedTime>& ops) {
  reset(tr("Top operators by device time"));
  auto* bars = new QCPBars(plot_->yAxis, plot_->xAxis);  // horizontal: names read left
  bars->setPen(Qt::NoPen);
  QVector<QString> labels;
  double maxValue = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    // Largest at the top: the last category is drawn highest.
    const std::size_t at = ops.size() - 1 - i;
    bars->addData(double(at + 1), us(ops[i].value));
    maxValue = std::max(maxValue, us(ops[i].value));
  }
  for (std::size_t i = ops.size(); i-- > 0;) labels << categoryLabel(ops[i].name);
  setCategoryAxis(labels, true);
  plot_->xAxis->setLabel(tr("device time (us)"));
  plot_->xAxis->setRange(0, std::max(1.0, maxValue * 1.1));
  applyPalette();
  plot_->replot();
}

void ChartView::showComparison(const std::vector<DeltaBar>& bars, bool withC) {
  reset(withC ? tr("Change per operator against A (self time; left: less, right: more)")
              : tr("Change per operator, B - A (self time; left: less, right: more)"));
  auto* group = new QCPBarsGroup(plot_);
  const QStringList names =
      withC ? QStringList{tr("device B-A"), tr("device C-A"), tr("CPU B-A"), tr("CPU C-A")}
            : QStringList{tr("device"), tr("CPU")};
  std::vector<QCPBars*> sets;
  const double width = 0.8 / double(names.size());
  for (const QString& name : names) {
    auto* set = new QCPBars(plot_->yAxis, plot_->xAxis);  // horizontal: names read left
    set->setName(name);
    set->setPen(Qt::NoPen);
    set->setWidth(width);
    set->setBarsGroup(group);
    sets.push_back(set);
  }
  TimeNs most = 0;
  for (const DeltaBar& bar : bars)
    for (TimeNs v : {bar.device, bar.cpu, bar.deviceC, bar.cpuC})
      most = std::max(most, v < 0 ? -v : v);
  const TimeUnit unit = timeUnitFor(most);
  QVector<QString> labels;
  for (std::size_t i = 0; i < bars.size(); ++i) {
    // The largest change at the top: the last category is drawn highest.
    const double at = double(bars.size() - i);
    const DeltaBar& bar = bars[i];
    const std::vector<TimeNs> values =
        withC ? std::vector<TimeNs>{bar.device, bar.deviceC, bar.cpu, bar.cpuC}
              : std::vector<TimeNs>{bar.device, bar.cpu};
    for (std::size_t s = 0; s < sets.size(); ++s) sets[s]->addData(at, unit.of(values[s]));
  }
  for (std::size_t i = bars.size(); i-- > 0;) labels << categoryLabel(bars[i].name);
  setCategoryAxis(labels, true);
  plot_->xAxis->setLabel(tr("change in self time (%1)").arg(unit.name));
  const double edge = std::max(1.0, unit.of(most) * 1.1);
  plot_->xAxis->setRange(-edge, edge);
  plot_->legend->setVisible(true);
  applyPalette();
  plot_->replot();
}

void ChartView::showStepTimings(const std::vector<StepTiming>& steps,
                                const QString& simulatedLabel) {
  const QString second = simulatedLabel.isEmpty() ? tr("simulated") : simulatedLabel;
  reset(tr("Measured and %1 time per step").arg(second));
  auto* group = new QCPBarsGroup(plot_);
  auto* measured = new QCPBars(plot_->xAxis, plot_->yAxis);
  auto* simulated = new QCPBars(plot_->xAxis, plot_->yAxis);
  measured->setName(tr("measured"));
  simulated->setName(second);
  for (auto* bars : {measured, simulated}) {
    bars->setPen(Qt::NoPen);
    bars->setWidth(0.4);
    bars->setBarsGroup(group);
  }
  TimeNs maxNs = 0;
  for (const StepTiming& step : steps) maxNs = std::max({maxNs, step.measured, step.simulated});
  const TimeUnit unit = timeUnitFor(maxNs);
  QVector<QString> labels;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    measured->addData(double(i + 1), unit.of(steps[i].measured));
    simulated->addData(double(i + 1), unit.of(steps[i].simulated));
    labels << QString::fromStdString(steps[i].name);
  }
  setCategoryAxis(labels, false);
  // Step names are short: level, not slanted, unless there are many.
  plot_->xAxis->setTickLabelRotation(steps.size() > 8 ? 45 : 0);
  plot_->yAxis->setLabel(tr("time (%1)").arg(unit.name));
  plot_->yAxis->setRange(0, std::max(1e-3, unit.of(maxNs) * 1.1));
  plot_->legend->setVisible(true);
  applyPalette();
  plot_->replot();
}

void ChartView::applyPalette() {
  const Theme& theme = themeFor(*this);
  const QColor fg = theme.chartText, bg = theme.chartBackground;
  plot_->setBackground(bg);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    axis->setBasePen(QPen(theme.chartAxis));
    axis->setTickPen(QPen(theme.chartAxis));
    axis->setSubTickPen(QPen(theme.chartAxis));
    axis->setTickLabelColor(fg);
    axis->setLabelColor(fg);
    axis->grid()->setPen(QPen(theme.chartGrid, 0, Qt::DotLine));
  }
  plot_->legend->setBrush(bg);
  plot_->legend->setTextColor(fg);
  plot_->legend->setBorderPen(QPen(theme.chartAxis));
  if (auto* text = qobject_cast<QCPTextElement*>(plot_->plotLayout()->element(0, 0)))
    text->setTextColor(fg);
  // Series take the theme's colours by their order (stream, run, measured/simulated).
  for (int i = 0; i < plot_->plottableCount(); ++i) {
    const QColor colour = theme.chartSeries[static_cast<std::size_t>(i % kChartSeriesColours)];
    if (auto* graph = qobject_cast<QCPGraph*>(plot_->plottable(i)))
      graph->setPen(QPen(colour, 1.5));
    if (auto* bars = qobject_cast<QCPBars*>(plot_->plottable(i))) bars->setBrush(colour);
  }
}

void ChartView::changeEvent(QEvent* event) {
  QWidget::changeEvent(event);
  if (event->type() == QEvent::PaletteChange) {
    applyPalette();
    plot_->replot();
  }
}

bool ChartView::save(const QString& path, QString* error) const {
  const QString suffix = QFileInfo(path).suffix().toLower();
  const int w = std::max(plot_->width(), 800), h = std::max(plot_->height(), 500);
  bool ok = false;
  if (suffix == "png") {
    ok = plot_->savePng(path, w, h);
  } else if (suffix == "pdf") {
    ok = plot_->savePdf(path, w, h);
  } else if (suffix == "svg") {
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(QSize(w, h));
    svg.setViewBox(QRect(0, 0, w, h));
    svg.setTitle(title_);
    QCPPainter painter;
    ok = painter.begin(&svg);
    if (ok) {
      plot_->toPainter(&painter, w, h);
      painter.end();
      ok = QFileInfo(path).size() > 0;
    }
  } else {
    if (error) *error = tr("%1: a chart is saved as .png, .svg or .pdf").arg(path);
    return false;
  }
  if (!ok && error) *error = tr("%1: could not write the chart").arg(path);
  return ok;
}

}  // namespace sutra::widgets
