// SPDX-License-Identifier: MIT
#include "compare_view.h"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "io/discover.h"
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

// A run's label: its file name, or "folder/file" where the runs' file names are the same (two
// recordings laid out alike, e.g. rank0.kineto.json.gz in two directories).
std::string fileLabel(const std::string& path, bool withFolder) {
  const QFileInfo info(QString::fromStdString(path));
  if (!withFolder) return info.fileName().toStdString();
  return (info.dir().dirName() + QLatin1Char('/') + info.fileName()).toStdString();
}

}  // namespace

ComparisonResult compareTraces(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b,
                               std::shared_ptr<const Trace> c) {
  ComparisonResult result;
  auto name = [](const std::shared_ptr<const Trace>& t) {
    return QFileInfo(QString::fromStdString(t->path)).fileName();
  };
  const bool same = name(a) == name(b) || (c && (name(c) == name(a) || name(c) == name(b)));
  const std::string labelA = fileLabel(a->path, same), labelB = fileLabel(b->path, same);
  SideTable sa = analyse(std::move(a), labelA), sb = analyse(std::move(b), labelB);
  result.comparison = compareOpTables(sa.table, sb.table, labelA, labelB);
  if (c) {
    const std::string labelC = fileLabel(c->path, same);
    SideTable sc = analyse(std::move(c), labelC);
    result.aVsC = compareOpTables(sa.table, sc.table, labelA, labelC);
    result.c = std::move(sc.side);
  }
  result.a = std::move(sa.side);
  result.b = std::move(sb.side);
  return result;
}

ComparisonResult compareTraceFiles(const QStringList& paths) {
  ComparisonResult failed;
  if (paths.size() < 2 || paths.size() > 3) {
    failed.error = QObject::tr("compare wants two or three traces, not %1").arg(paths.size());
    return failed;
  }
  std::vector<std::shared_ptr<const Trace>> traces;
  for (const QString& path : paths) {
    auto file = kinetoTraceAt(path.toStdString());  // a run's directory: its one Kineto trace
    if (!file) {
      failed.error = QString::fromStdString(file.error().message);
      return failed;
    }
    auto trace = readKinetoTrace(*file);
    if (!trace) {
      failed.error = QString::fromStdString(trace.error().message);
      return failed;
    }
    traces.push_back(std::make_shared<const Trace>(std::move(*trace)));
  }
  return compareTraces(traces[0], traces[1], traces.size() > 2 ? traces[2] : nullptr);
}

ComparisonResult compareTraceFiles(const QString& pathA, const QString& pathB) {
  return compareTraceFiles(QStringList{pathA, pathB});
}

CompareView::CompareView(QWidget* parent)
    : QWidget(parent),
      model_(new CompareModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView(this)),
      totals_(new QLabel(this)),
      timelines_{new TimelineView(this), new TimelineView(this), new TimelineView(this)},
      bottom_(new QSplitter(Qt::Horizontal, this)),
      chart_(new ChartView(this)),
      watcher_(new QFutureWatcher<ComparisonResult>(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(CompareModel::SortRole);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->verticalHeader()->hide();
  table_->setWordWrap(false);
  totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  totals_->setObjectName("compareTotals");

  auto* timelines = new QSplitter(Qt::Horizontal, this);
  for (TimelineView* timeline : timelines_) timelines->addWidget(timeline);
  timelines_[2]->hide();
  bottom_->addWidget(table_);
  bottom_->addWidget(chart_);
  bottom_->setStretchFactor(0, 1);
  bottom_->setStretchFactor(1, 1);
  auto* vertical = new QSplitter(Qt::Vertical, this);
  vertical->addWidget(timelines);
  vertical->addWidget(bottom_);
  vertical->setSizes({420, 580});
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(totals_);
  layout->addWidget(vertical, 1);

  for (int i = 0; i < 3; ++i)
    connect(timelines_[i], &TimelineView::visibleRangeChanged, this, [this, i] { followRange(i); });
  connect(watcher_, &QFutureWatcher<ComparisonResult>::finished, this, [this] {
    ComparisonResult result = watcher_->result();
    if (!result.error.isEmpty()) {
      emit failed(result.error);
      return;
    }
    setResult(std::move(result));
  });
}

void CompareView::openFiles(const QStringList& paths) {
  inputs_ = paths;
  totals_->setText(tr("Reading %1 ...").arg(paths.join(QStringLiteral(", "))));
  watcher_->setFuture(QtConcurrent::run([paths] { return compareTraceFiles(paths); }));
}

void CompareView::setResult(ComparisonResult result) {
  const CompareSide sides[3] = {result.a, result.b, result.c.value_or(CompareSide{})};
  for (int i = 0; i < 3; ++i) alignAt_[i] = sides[i].alignAt;
  if (inputs_.isEmpty())
    for (const CompareSide& side : sides)
      if (side.trace) inputs_ << QString::fromStdString(side.trace->path);
  const OpComparison& c = result.comparison;
  const std::string dev = c.device.empty() ? "CUDA" : c.device;
  QString totals = QString::fromStdString(
      c.labelA + " -> " + c.labelB + "    " +
      totalLine("Self " + dev + " total", c.selfDeviceTotalA, c.selfDeviceTotalB) + "    " +
      totalLine("Self CPU total", c.selfCpuTotalA, c.selfCpuTotalB) + "    only in A: " +
      std::to_string(c.onlyInA()) + ", only in B: " + std::to_string(c.onlyInB()));
  std::vector<ComparisonBar> bars = comparisonBars(c, 12);
  if (result.aVsC) {
    const OpComparison& ac = *result.aVsC;
    totals += QString::fromStdString(
        "\n" + ac.labelA + " -> " + ac.labelB + "    " +
        totalLine("Self " + dev + " total", ac.selfDeviceTotalA, ac.selfDeviceTotalB) + "    " +
        totalLine("Self CPU total", ac.selfCpuTotalA, ac.selfCpuTotalB) +
        "    only in C: " + std::to_string(ac.onlyInB()));
  }
  totals_->setText(totals);
  // Lettered, as the table's columns are: a run compared with itself keeps its sides apart.
  const QString labelA = "A: " + QString::fromStdString(c.labelA),
                labelB = "B: " + QString::fromStdString(c.labelB);
  const QString labelC =
      result.aVsC ? "C: " + QString::fromStdString(result.aVsC->labelB) : QString();
  model_->setComparison(std::move(result.comparison), std::move(result.aVsC));
  // The bars are the comparison's first rows, as are the model's: a bar's third value is the same
  // measure (device time, else CPU time) of its row in C.
  for (std::size_t i = 0; i < bars.size() && i < model_->rows().size(); ++i) {
    const CompareModel::Row& row = model_->rows()[i];
    const bool device = row.ab.a.selfDevice != 0 || row.ab.b.selfDevice != 0;
    bars[i].c = device ? row.c.selfDevice : row.c.selfCpu;
  }
  chart_->showComparison(bars, labelA, labelB, labelC);
  table_->sortByColumn(CompareModel::Name, Qt::AscendingOrder);
  proxy_->sort(-1);  // back to the comparison's order: largest change first
  table_->resizeColumnsToContents();
  table_->setColumnWidth(CompareModel::Name,
                         std::min(table_->columnWidth(CompareModel::Name), 260));
  // Half the width each: the chart's operator names need their room.
  bottom_->setSizes({width() / 2, width() / 2});
  syncing_ = true;
  for (int i = 0; i < 3; ++i) {
    timelines_[i]->setVisible(sides[i].trace != nullptr);
    if (sides[i].trace) timelines_[i]->setTrace(sides[i].trace, sides[i].layout);
  }
  syncing_ = false;
  if (sides[0].trace) timelines_[0]->fitAll();
  emit ready();
}

void CompareView::followRange(int from) {
  if (syncing_ || !timelines_[from]->trace()) return;
  syncing_ = true;  // the followers' own signals must not move the leader back
  const TimeRange r = timelines_[from]->visibleRange();
  for (int to = 0; to < 3; ++to) {
    if (to == from || !timelines_[to]->trace()) continue;
    timelines_[to]->setVisibleRange(
        {r.start - alignAt_[from] + alignAt_[to], r.end - alignAt_[from] + alignAt_[to]});
  }
  syncing_ = false;
}

}  // namespace sutra::widgets
