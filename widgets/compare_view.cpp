// SPDX-License-Identifier: MIT
#include "compare_view.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "io/readers.h"
#include "link/launch_index.h"

namespace sutra::widgets {
namespace {

struct SideTable {
  CompareSide side;
  OpTable table;
};

SideTable analyse(std::shared_ptr<const Trace> trace, const std::string& label) {
  SideTable out;
  const LaunchIndex launches = LaunchIndex::build(*trace);
  const std::vector<Step> steps = findSteps(*trace, launches);
  OpTableOptions options;
  options.window = wholeTraceWindow(*trace);
  out.table = buildOpTable(*trace, launches, options);
  out.side.alignAt = steps.empty() ? trace->startNs : steps.front().start;
  out.side.layout = std::make_shared<const LaneLayout>(LaneLayout::build(*trace, label));
  out.side.trace = std::move(trace);
  return out;
}

std::string fileLabel(const std::string& path) {
  return QFileInfo(QString::fromStdString(path)).fileName().toStdString();
}

}  // namespace

ComparisonResult compareTraces(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b) {
  ComparisonResult result;
  const std::string labelA = fileLabel(a->path), labelB = fileLabel(b->path);
  SideTable sa = analyse(std::move(a), labelA), sb = analyse(std::move(b), labelB);
  result.comparison = compareOpTables(sa.table, sb.table, labelA, labelB);
  result.a = std::move(sa.side);
  result.b = std::move(sb.side);
  return result;
}

ComparisonResult compareTraceFiles(const QString& pathA, const QString& pathB) {
  auto a = readKinetoTrace(pathA.toStdString());
  ComparisonResult failed;
  if (!a) {
    failed.error = QString::fromStdString(a.error().message);
    return failed;
  }
  auto b = readKinetoTrace(pathB.toStdString());
  if (!b) {
    failed.error = QString::fromStdString(b.error().message);
    return failed;
  }
  return compareTraces(std::make_shared<const Trace>(std::move(*a)),
                       std::make_shared<const Trace>(std::move(*b)));
}

CompareView::CompareView(QWidget* parent)
    : QWidget(parent),
      model_(new CompareModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)),
      totals_(new QLabel(this)),
      timelineA_(new TimelineView(this)),
      timelineB_(new TimelineView(this)),
      chart_(new ChartView(this)),
      watcher_(new QFutureWatcher<ComparisonResult>(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(CompareModel::SortRole);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->verticalHeader()->hide();
  totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  totals_->setObjectName("compareTotals");

  auto* timelines = new QSplitter(Qt::Horizontal, this);
  timelines->addWidget(timelineA_);
  timelines->addWidget(timelineB_);
  auto* bottom = new QSplitter(Qt::Horizontal, this);
  bottom->addWidget(table_);
  bottom->addWidget(chart_);
  bottom->setStretchFactor(0, 3);
  bottom->setStretchFactor(1, 2);
  auto* vertical = new QSplitter(Qt::Vertical, this);
  vertical->addWidget(timelines);
  vertical->addWidget(bottom);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(totals_);
  layout->addWidget(vertical, 1);

  connect(timelineA_, &TimelineView::visibleRangeChanged, this,
          [this] { followRange(timelineA_, timelineB_, a_.alignAt, b_.alignAt); });
  connect(timelineB_, &TimelineView::visibleRangeChanged, this,
          [this] { followRange(timelineB_, timelineA_, b_.alignAt, a_.alignAt); });
  connect(watcher_, &QFutureWatcher<ComparisonResult>::finished, this, [this] {
    ComparisonResult result = watcher_->result();
    if (!result.error.isEmpty()) {
      emit failed(result.error);
      return;
    }
    setResult(std::move(result));
  });
}

void CompareView::openFiles(const QString& pathA, const QString& pathB) {
  inputs_ = {pathA, pathB};
  totals_->setText(tr("Reading %1 and %2 ...").arg(pathA, pathB));
  watcher_->setFuture(QtConcurrent::run([pathA, pathB] { return compareTraceFiles(pathA, pathB); }));
}

void CompareView::setResult(ComparisonResult result) {
  a_ = result.a;
  b_ = result.b;
  if (inputs_.isEmpty() && a_.trace && b_.trace)
    inputs_ = {QString::fromStdString(a_.trace->path), QString::fromStdString(b_.trace->path)};
  const OpComparison& c = result.comparison;
  const std::string dev = c.device.empty() ? "CUDA" : c.device;
  totals_->setText(QString::fromStdString(
      c.labelA + " -> " + c.labelB + "    " +
      totalLine("Self " + dev + " total", c.selfDeviceTotalA, c.selfDeviceTotalB) + "    " +
      totalLine("Self CPU total", c.selfCpuTotalA, c.selfCpuTotalB) + "    only in A: " +
      std::to_string(c.onlyInA()) + ", only in B: " + std::to_string(c.onlyInB())));
  chart_->showComparison(comparisonBars(c, 12), QString::fromStdString(c.labelA),
                         QString::fromStdString(c.labelB));
  model_->setComparison(std::move(result.comparison));
  table_->sortByColumn(CompareModel::Name, Qt::AscendingOrder);
  proxy_->sort(-1);  // back to the comparison's order: largest change first
  syncing_ = true;
  if (a_.trace) timelineA_->setTrace(a_.trace, a_.layout);
  if (b_.trace) timelineB_->setTrace(b_.trace, b_.layout);
  syncing_ = false;
  if (a_.trace) timelineA_->fitAll();
  emit ready();
}

void CompareView::followRange(TimelineView* from, TimelineView* to, TimeNs fromAlign,
                              TimeNs toAlign) {
  if (syncing_ || !from->trace() || !to->trace()) return;
  syncing_ = true;  // the follower's own signal must not move the leader back
  const TimeRange r = from->visibleRange();
  to->setVisibleRange({r.start - fromAlign + toAlign, r.end - fromAlign + toAlign});
  syncing_ = false;
}

}  // namespace sutra::widgets
