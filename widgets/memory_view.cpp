// SPDX-License-Identifier: MIT
#include "memory_view.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "text/format.h"
#include "theme.h"

namespace sutra::widgets {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

QString deviceLabel(const MemoryDevice& d) {
  QString text = QString::fromStdString(d.typeName);
  if (d.deviceId >= 0) text += QStringLiteral(" %1").arg(d.deviceId);
  return text;
}

}  // namespace

MemoryView::MemoryView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Device:")));
  devices_ = new QComboBox;
  devices_->setObjectName("MemoryDevice");
  bar->addWidget(devices_, 1);
  auto* peak = new QPushButton(tr("Select the peak's op"));
  peak->setObjectName("MemoryPeakOp");
  bar->addWidget(peak);
  layout->addLayout(bar);
  message_ = new QLabel;
  message_->setObjectName("MemoryMessage");
  message_->setWordWrap(true);
  layout->addWidget(message_);
  plot_ = new QCustomPlot;
  plot_->setMinimumHeight(260);
  layout->addWidget(plot_, 3);
  table_ = new QTableWidget;
  table_->setObjectName("MemoryTable");
  table_->setColumnCount(3);
  table_->setHorizontalHeaderLabels({tr("op"), tr("live at the peak"), tr("allocations")});
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->hide();
  layout->addWidget(table_, 2);
  connect(devices_, &QComboBox::currentIndexChanged, this, [this](int i) { setDevice(i); });
  connect(peak, &QPushButton::clicked, this, [this] {
    const int i = devices_->currentIndex();
    if (i >= 0 && std::size_t(i) < report_.devices.size() &&
        report_.devices[std::size_t(i)].peakOp != kNoEvent) {
      emit eventSelected(report_.devices[std::size_t(i)].peakOp);
      navigation_.select(report_.devices[std::size_t(i)].peakOp);
    }
  });
}

void MemoryView::setReport(std::shared_ptr<const Trace> trace, MemoryReport report) {
  trace_ = std::move(trace);
  report_ = std::move(report);
  const Theme& theme = themeFor(*this);
  plot_->clearGraphs();
  plot_->clearItems();
  plot_->setBackground(theme.chartBackground);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis}) {
    axis->setBasePen(QPen(theme.chartAxis));
    axis->setTickPen(QPen(theme.chartAxis));
    axis->setTickLabelColor(theme.chartText);
    axis->setLabelColor(theme.chartText);
    axis->grid()->setPen(QPen(theme.chartGrid));
  }
  plot_->xAxis->setLabel(tr("time from the trace's start (ms)"));
  plot_->yAxis->setLabel(tr("allocated (MiB)"));
  const QSignalBlocker block(devices_);
  devices_->clear();
  const TimeNs origin = trace_->startNs;
  for (std::size_t i = 0; i < report_.devices.size(); ++i) {
    const MemoryDevice& d = report_.devices[i];
    devices_->addItem(deviceLabel(d));
    QCPGraph* graph = plot_->addGraph();
    graph->setName(deviceLabel(d));
    graph->setLineStyle(QCPGraph::lsStepLeft);
    graph->setPen(QPen(theme.chartSeries[i % theme.chartSeries.size()], 1.5));
    QVector<double> x, y;
    for (const MemoryPoint& p : d.points) {
      x << double(p.time - origin) / 1e6;
      y << double(p.allocated) / kMiB;
    }
    graph->setData(x, y, true);
    auto* mark = new QCPItemTracer(plot_);
    mark->setGraph(graph);
    mark->setGraphKey(double(d.peakNs - origin) / 1e6);
    mark->setStyle(QCPItemTracer::tsCircle);
    mark->setSize(9);
    mark->setPen(QPen(theme.chartSeries[i % theme.chartSeries.size()], 2));
    auto* label = new QCPItemText(plot_);
    label->position->setParentAnchor(mark->position);
    label->position->setCoords(0, -14);
    label->setColor(theme.chartText);
    label->setText(tr("peak %1").arg(QString::number(double(d.peakBytes) / kMiB, 'f', 2)) + " MiB");
  }
  plot_->legend->setVisible(report_.devices.size() > 1);
  plot_->rescaleAxes();
  plot_->yAxis->setRangeLower(0);
  plot_->yAxis->setRangeUpper(plot_->yAxis->range().upper * 1.15 + 1e-9);
  plot_->replot();
  if (report_.devices.empty())
    message_->setText(
        tr("No memory events in this trace: record it with torch.profiler's "
           "profile_memory=True to see allocations."));
  setDevice(report_.devices.empty() ? -1 : 0);
}

void MemoryView::setDevice(int index) {
  if (devices_->currentIndex() != index) {
    const QSignalBlocker block(devices_);
    devices_->setCurrentIndex(index);
  }
  table_->clearContents();
  table_->setRowCount(0);
  if (index < 0 || std::size_t(index) >= report_.devices.size()) return;
  const MemoryDevice& d = report_.devices[std::size_t(index)];
  QString text = tr("%1: peak %2 MiB at %3 from the start")
                     .arg(deviceLabel(d))
                     .arg(double(d.peakBytes) / kMiB, 0, 'f', 2)
                     .arg(durationText(d.peakNs - trace_->startNs));
  if (d.peakOp != kNoEvent)
    text += tr(", in %1").arg(QString::fromUtf8(trace_->name(trace_->events[d.peakOp])));
  if (!d.totalsRecorded) text += tr(" (running sum of Bytes: no Total Allocated recorded)");
  text += d.matchedByAddress ? tr(". Live at the peak, by the op that allocated it:")
                             : tr(". Allocated up to the peak (no Addr to match frees), by op:");
  message_->setText(text);
  table_->setRowCount(int(d.liveAtPeak.size()));
  for (std::size_t r = 0; r < d.liveAtPeak.size(); ++r) {
    const MemoryOpShare& s = d.liveAtPeak[r];
    table_->setItem(int(r), 0, new QTableWidgetItem(QString::fromStdString(s.name)));
    table_->setItem(int(r), 1,
                    new QTableWidgetItem(QString::number(double(s.bytes) / kMiB, 'f', 3) + " MiB"));
    table_->setItem(int(r), 2, new QTableWidgetItem(QString::number(s.allocations)));
  }
  table_->resizeColumnsToContents();
}

QString MemoryView::message() const { return message_->text(); }

}  // namespace sutra::widgets
