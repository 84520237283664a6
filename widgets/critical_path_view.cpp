// SPDX-License-Identifier: MIT
#include "critical_path_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "text/format.h"

namespace sutra::widgets {

CriticalPathView::CriticalPathView(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  auto* bar = new QHBoxLayout;
  bar->addWidget(new QLabel(tr("Step:")));
  steps_ = new QComboBox;
  steps_->setObjectName("CriticalPathStep");
  bar->addWidget(steps_, 1);
  previous_ = new QPushButton(tr("◀ Previous"));
  previous_->setObjectName("CriticalPathPrevious");
  next_ = new QPushButton(tr("Next ▶"));
  next_->setObjectName("CriticalPathNext");
  bar->addWidget(previous_);
  bar->addWidget(next_);
  layout->addLayout(bar);
  summary_ = new QLabel;
  summary_->setObjectName("CriticalPathSummary");
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(summary_);
  table_ = new QTableWidget;
  table_->setObjectName("CriticalPathTable");
  table_->setColumnCount(5);
  table_->setHorizontalHeaderLabels({tr("#"), tr("part"), tr("event"), tr("start"), tr("length")});
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(false);
  layout->addWidget(table_, 1);
  connect(steps_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (i >= 0) emit stepChosen(i);
  });
  connect(previous_, &QPushButton::clicked, this, [this] { previous(); });
  connect(next_, &QPushButton::clicked, this, [this] { next(); });
  connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) {
    if (row >= 0 && std::size_t(row) < rows_.size()) setCurrentSegment(row);
  });
}

void CriticalPathView::setSteps(const QStringList& labels, int current) {
  const QSignalBlocker block(steps_);
  steps_->clear();
  steps_->addItems(labels);
  steps_->setCurrentIndex(current);
}

void CriticalPathView::setPath(std::shared_ptr<const Trace> trace, CriticalPath path) {
  trace_ = std::move(trace);
  path_ = std::move(path);
  rows_.clear();
  current_ = -1;
  for (std::size_t i = 0; i < path_.segments.size(); ++i)
    if (path_.segments[i].kind != CriticalKind::Dependency) rows_.push_back(int(i));
  table_->clearContents();
  table_->setRowCount(int(rows_.size()));
  for (std::size_t row = 0; row < rows_.size(); ++row) {
    const CriticalSegment& s = path_.segments[std::size_t(rows_[row])];
    const int r = int(row);
    table_->setItem(r, 0, new QTableWidgetItem(QString::number(row + 1)));
    table_->setItem(
        r, 1, new QTableWidgetItem(QString::fromUtf8(criticalKindName(s.kind)).replace('_', ' ')));
    const EventId e = s.event != kNoEvent ? s.event : s.to;
    table_->setItem(
        r, 2,
        new QTableWidgetItem(e == kNoEvent ? QString()
                                           : QString::fromUtf8(trace_->name(trace_->events[e]))));
    table_->setItem(r, 3, new QTableWidgetItem(durationText(s.start - path_.window.start)));
    table_->setItem(r, 4, new QTableWidgetItem(durationText(s.weight)));
  }
  table_->resizeColumnsToContents();
  summary_->setText(summaryText());
  previous_->setEnabled(!rows_.empty());
  next_->setEnabled(!rows_.empty());
  navigation_.highlight(pathEvents(), pathEdges(), this);
}

CriticalPathView::~CriticalPathView() { navigation_.clearHighlights(this); }

QString CriticalPathView::summaryText() const {
  const CriticalBreakdown& b = path_.breakdown;
  auto part = [&](const QString& name, TimeNs v) {
    const double pct = path_.length > 0 ? 100.0 * double(v) / double(path_.length) : 0.0;
    return QStringLiteral("%1 %2 (%3 %)").arg(name, durationText(v)).arg(pct, 0, 'f', 1);
  };
  return tr("%1: the critical path is %2 long, %3 parts.\n%4 · %5 · %6 · %7 · %8 · %9")
      .arg(QString::fromStdString(path_.label), durationText(path_.length))
      .arg(rows_.size())
      .arg(part(tr("CPU"), b.cpu), part(tr("device compute"), b.deviceCompute),
           part(tr("communication"), b.deviceCommunication),
           part(tr("launch delay"), b.launchDelay), part(tr("kernel gaps"), b.kernelGap),
           part(tr("sync wait"), b.syncWait));
}

std::vector<EventId> CriticalPathView::pathEvents() const {
  std::vector<EventId> out;
  for (const CriticalSegment& s : path_.segments)
    for (EventId e : {s.from, s.to})
      if (e != kNoEvent) out.push_back(e);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::pair<EventId, EventId>> CriticalPathView::pathEdges() const {
  std::vector<std::pair<EventId, EventId>> out;
  // Only the hops to or from device work (launch to kernel, kernel to kernel, kernel to the sync
  // that waited on it): those between a thread's own nested ops would bury the timeline in arrows.
  auto onDevice = [&](EventId e) { return isDeviceOp(trace_->events[e].klass); };
  for (const CriticalSegment& s : path_.segments)
    if (s.from != kNoEvent && s.to != kNoEvent && s.from != s.to &&
        (onDevice(s.from) || onDevice(s.to)))
      out.emplace_back(s.from, s.to);
  return out;
}

void CriticalPathView::setCurrentSegment(int index) {
  if (index < 0 || std::size_t(index) >= rows_.size()) return;
  current_ = index;
  {
    const QSignalBlocker block(table_);
    table_->selectRow(index);
  }
  table_->scrollToItem(table_->item(index, 0));
  const CriticalSegment& s = path_.segments[std::size_t(rows_[std::size_t(index)])];
  const EventId e = s.event != kNoEvent ? s.event : s.to;
  if (e == kNoEvent) return;
  emit segmentActivated(e);
  navigation_.select(e);
}

void CriticalPathView::next() {
  if (!rows_.empty()) setCurrentSegment(std::min(int(rows_.size()) - 1, current_ + 1));
}

void CriticalPathView::previous() {
  if (!rows_.empty()) setCurrentSegment(std::max(0, current_ - 1));
}

}  // namespace sutra::widgets
