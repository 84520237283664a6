// SPDX-License-Identifier: MIT
#include "breakdown_view.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "text/format.h"
#include "theme.h"

namespace sutra::widgets {
namespace {

struct Part {
  const char* name;
  TimeNs value;
};

std::vector<Part> hostParts(const StepBreakdown& s) {
  return {{"runtime", s.host.runtime},
          {"dataloader", s.host.dataloader},
          {"CPU ops", s.host.cpuOps},
          {"other", s.host.other}};
}

std::vector<Part> deviceParts(const DeviceBreakdown& d) {
  return {{"kernel", d.kernel},
          {"memcpy", d.memcpy},
          {"memset", d.memset},
          {"communication", d.communication},
          {"idle", d.idle}};
}

// The parts of one step on one side: 0 the host, 1 + i the i-th device.
std::vector<Part> partsOf(const StepBreakdown& s, int side) {
  if (side == 0) return hostParts(s);
  const std::size_t device = static_cast<std::size_t>(side - 1);
  return device < s.devices.size() ? deviceParts(s.devices[device])
                                   : deviceParts(DeviceBreakdown{});
}

}  // namespace

BreakdownView::BreakdownView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* top = new QHBoxLayout;
  rankLabel_ = new QLabel(tr("Rank:"));
  top->addWidget(rankLabel_);
  rank_ = new QComboBox;
  rank_->setObjectName("BreakdownRank");
  top->addWidget(rank_);
  rankLabel_->hide();
  rank_->hide();
  top->addWidget(new QLabel(tr("Show:")));
  side_ = new QComboBox;
  side_->setObjectName("BreakdownSide");
  top->addWidget(side_);
  top->addStretch(1);
  layout->addLayout(top);
  across_ = new QLabel;
  across_->setObjectName("BreakdownAcrossRanks");
  across_->setWordWrap(true);
  across_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  across_->hide();
  layout->addWidget(across_);
  plot_ = new QCustomPlot;
  plot_->setMinimumHeight(260);
  plot_->setInteraction(QCP::iSelectPlottables);
  layout->addWidget(plot_, 3);
  hints_ = new QLabel;
  hints_->setObjectName("BreakdownHints");
  hints_->setWordWrap(true);
  hints_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  hints_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  // One hint per step can be many lines: they scroll, the chart and the table keep their room.
  auto* hintScroll = new QScrollArea;
  hintScroll->setWidget(hints_);
  hintScroll->setWidgetResizable(true);
  hintScroll->setMaximumHeight(120);
  hintScroll->setFrameShape(QFrame::NoFrame);
  layout->addWidget(hintScroll);
  table_ = new QTableWidget;
  table_->setObjectName("BreakdownTable");
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  layout->addWidget(table_, 2);
  connect(side_, &QComboBox::currentIndexChanged, this, [this] { rebuild(); });
  connect(rank_, &QComboBox::currentIndexChanged, this, [this](int index) { showRank(index); });
  connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int) {
    if (row >= 0 && std::size_t(row) < breakdown_.steps.size())
      emit stepActivated(breakdown_.steps[std::size_t(row)].step);
  });
  connect(plot_, &QCustomPlot::plottableClick, this,
          [this](QCPAbstractPlottable*, int index, QMouseEvent*) {
            if (index >= 0 && std::size_t(index) < breakdown_.steps.size())
              emit stepActivated(breakdown_.steps[std::size_t(index)].step);
          });
}

void BreakdownView::setBreakdown(Breakdown breakdown, QString hostThread) {
  ranks_.clear();
  hostThreads_.clear();
  {
    const QSignalBlocker block(rank_);
    rank_->clear();
  }
  rankLabel_->hide();
  rank_->hide();
  across_->clear();
  across_->hide();
  applyBreakdown(std::move(breakdown), std::move(hostThread));
}

void BreakdownView::applyBreakdown(Breakdown breakdown, QString hostThread) {
  breakdown_ = std::move(breakdown);
  hostThread_ = std::move(hostThread);
  const QSignalBlocker block(side_);
  side_->clear();
  side_->addItem(tr("host thread %1").arg(hostThread_));
  const QString word = breakdown_.deviceBackend == "CUDA"
                           ? QStringLiteral("GPU")
                           : QString::fromStdString(breakdown_.deviceBackend);
  if (!breakdown_.steps.empty())
    for (const DeviceBreakdown& d : breakdown_.steps.front().devices)
      side_->addItem(QStringLiteral("%1 %2").arg(word).arg(d.device));
  side_->setCurrentIndex(side_->count() > 1 ? 1 : 0);
  rebuild();
}

void BreakdownView::setRanks(std::vector<RankBreakdown> ranks, QStringList hostThreads,
                             QStringList labels, int current) {
  ranks_ = std::move(ranks);
  hostThreads_ = std::move(hostThreads);
  const QSignalBlocker block(rank_);
  rank_->clear();
  for (std::size_t i = 0; i < ranks_.size(); ++i)
    rank_->addItem(i < std::size_t(labels.size()) ? labels[qsizetype(i)]
                                                  : tr("rank%1").arg(ranks_[i].rank));
  const bool several = ranks_.size() > 1;
  rankLabel_->setVisible(several);
  rank_->setVisible(several);
  const auto longest = longestRankSteps(ranks_);
  QStringList lines;
  for (const LongestRankStep& step : longest)
    lines << QString::fromStdString(longestRankStepText(step));
  across_->setText(QString::fromStdString(longestRanksHeadline(longest)));
  across_->setToolTip(lines.join('\n'));
  across_->setVisible(several && !longest.empty());
  const int index = std::clamp(current, 0, std::max(0, int(ranks_.size()) - 1));
  rank_->setCurrentIndex(index);
  showRank(index);
}

void BreakdownView::showRank(int index) {
  if (index < 0 || std::size_t(index) >= ranks_.size()) return;
  const int side = side_->currentIndex();
  applyBreakdown(ranks_[std::size_t(index)].breakdown,
                 index < hostThreads_.size() ? hostThreads_[index] : QString());
  if (side >= 0 && side < side_->count()) setSide(side);  // the same side on the next rank
}

int BreakdownView::rankIndex() const { return ranks_.empty() ? 0 : rank_->currentIndex(); }
void BreakdownView::setRankIndex(int index) { rank_->setCurrentIndex(index); }
QString BreakdownView::acrossRanksText() const { return across_->text(); }

void BreakdownView::setSide(int side) { side_->setCurrentIndex(side); }
int BreakdownView::side() const { return side_->currentIndex(); }

QString BreakdownView::hintsText() const { return hints_->text(); }

void BreakdownView::rebuild() {
  const Theme& theme = themeFor(*this);
  const int side = std::max(0, side_->currentIndex());
  plot_->clearPlottables();
  plot_->setBackground(theme.chartBackground);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    axis->setBasePen(QPen(theme.chartAxis));
    axis->setTickPen(QPen(theme.chartAxis));
    axis->setSubTickPen(QPen(theme.chartAxis));
    axis->setTickLabelColor(theme.chartText);
    axis->setLabelColor(theme.chartText);
    axis->grid()->setPen(QPen(theme.chartGrid));
  }
  const auto& steps = breakdown_.steps;
  QVector<double> keys;
  QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    keys << double(i);
    ticker->addTick(double(i), QString::number(steps[i].step));
  }
  plot_->xAxis->setTicker(ticker);
  plot_->xAxis->setLabel(tr("step"));
  plot_->yAxis->setLabel(tr("time (ms)"));
  const std::vector<Part> names = steps.empty() ? hostParts({}) : partsOf(steps.front(), side);
  QCPBars* below = nullptr;
  double top = 0;
  std::vector<double> stacked(steps.size(), 0.0);
  for (std::size_t k = 0; k < names.size(); ++k) {
    auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars->setName(QString::fromUtf8(names[k].name));
    bars->setWidthType(QCPBars::wtPlotCoords);
    bars->setWidth(0.7);
    const bool idle = side > 0 && k + 1 == names.size();
    const QColor colour = idle ? theme.chartGrid : theme.chartSeries[k % theme.chartSeries.size()];
    bars->setBrush(colour);
    bars->setPen(QPen(colour.darker(130)));
    QVector<double> values;
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const double v = double(partsOf(steps[i], side)[k].value) / 1e6;
      values << v;
      stacked[i] += v;
      top = std::max(top, stacked[i]);
    }
    bars->setData(keys, values);
    if (below) bars->moveAbove(below);
    below = bars;
  }
  plot_->legend->setVisible(true);
  plot_->legend->setBrush(theme.chartBackground);
  plot_->legend->setTextColor(theme.chartText);
  plot_->xAxis->setRange(-0.6, std::max<double>(0.6, double(steps.size()) - 0.4));
  plot_->yAxis->setRange(0, top > 0 ? top * 1.1 : 1.0);
  plot_->replot();

  QStringList headers = {tr("step"), tr("duration")};
  for (const Part& p : names) headers << QString::fromUtf8(p.name) << tr("%");
  table_->clear();
  table_->setColumnCount(int(headers.size()));
  table_->setHorizontalHeaderLabels(headers);
  table_->setRowCount(int(steps.size()));
  QStringList hints;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const StepBreakdown& s = steps[i];
    const TimeNs span = side == 0 ? s.end - s.start : s.deviceEnd - s.start;
    const int row = int(i);
    table_->setItem(row, 0, new QTableWidgetItem(QString::number(s.step)));
    table_->setItem(row, 1, new QTableWidgetItem(durationText(span)));
    const auto parts = partsOf(s, side);
    for (std::size_t k = 0; k < parts.size(); ++k) {
      table_->setItem(row, int(2 + 2 * k), new QTableWidgetItem(durationText(parts[k].value)));
      const double pct = span > 0 ? 100.0 * double(parts[k].value) / double(span) : 0.0;
      table_->setItem(row, int(3 + 2 * k), new QTableWidgetItem(QString::number(pct, 'f', 1)));
    }
    for (const std::string& h : s.hints) hints << QString::fromStdString(h);
  }
  table_->resizeColumnsToContents();
  hints_->setText(hints.isEmpty() ? tr("No hints: no device idles 10 % of a step or more.")
                                  : QStringLiteral("• ") + hints.join(QStringLiteral("\n• ")));
}

}  // namespace sutra::widgets
