// SPDX-License-Identifier: MIT
#include "compare_view.h"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QSplitter>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "session/run.h"

namespace sutra::widgets {
namespace {

struct SideTable {
  CompareSide side;
  std::shared_ptr<const OpTable> table;
};

// One side from its rank as the run API built it: the whole-trace table and the steps are the
// session's, not rebuilt here.
SideTable sideOf(const RankRun& rank, const std::string& label) {
  SideTable out;
  out.table = rank.opTable;
  out.side.alignAt = rank.steps.empty() ? rank.trace->startNs : rank.steps.front().start;
  out.side.layout = std::make_shared<const LaneLayout>(LaneLayout::build(*rank.trace, label));
  out.side.trace = rank.trace;
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

namespace {

// A side needs its tables, steps and lanes: no sync dependencies, no simulation graph.
RunOptions compareOptions() {
  RunOptions options = RunOptions::upTo(RunStage::Analyse);
  options.syncDependencies = false;
  return options;
}

ComparisonResult compareRanks(const std::vector<std::shared_ptr<const RankRun>>& ranks) {
  ComparisonResult result;
  auto name = [&](std::size_t i) {
    return QFileInfo(QString::fromStdString(ranks[i]->trace->path)).fileName();
  };
  const bool same =
      name(0) == name(1) || (ranks.size() > 2 && (name(2) == name(0) || name(2) == name(1)));
  std::vector<std::string> labels;
  std::vector<SideTable> sides;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    labels.push_back(fileLabel(ranks[i]->trace->path, same));
    sides.push_back(sideOf(*ranks[i], labels.back()));
  }
  result.comparison = compareOpTables(*sides[0].table, *sides[1].table, labels[0], labels[1]);
  if (ranks.size() > 2) {
    result.aVsC = compareOpTables(*sides[0].table, *sides[2].table, labels[0], labels[2]);
    result.c = std::move(sides[2].side);
  }
  result.a = std::move(sides[0].side);
  result.b = std::move(sides[1].side);
  return result;
}

ComparisonResult failedWith(const QString& message) {
  ComparisonResult failed;
  failed.error = message;
  return failed;
}

}  // namespace

ComparisonResult compareTraces(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b,
                               std::shared_ptr<const Trace> c) {
  std::vector<std::shared_ptr<const RankRun>> ranks;
  for (auto& trace : {a, b, c}) {
    if (!trace) continue;
    auto run = runOfTrace(trace, compareOptions());
    if (!run) return failedWith(QString::fromStdString(run.error().message));
    ranks.push_back(run->ranks.front());
  }
  return compareRanks(ranks);
}

ComparisonResult compareTraceFiles(const QStringList& paths) {
  if (paths.size() < 2 || paths.size() > 3)
    return failedWith(QObject::tr("compare wants two or three traces, not %1").arg(paths.size()));
  std::vector<std::shared_ptr<const RankRun>> ranks;
  for (const QString& path : paths) {
    // A file, or a run's directory: its one Kineto trace, read and analysed by the run API.
    auto rank = openTrace(path.toStdString(), compareOptions());
    if (!rank) return failedWith(QString::fromStdString(rank.error().message));
    ranks.push_back(*rank);
  }
  return compareRanks(ranks);
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
  // The comparison's own order, largest change first, and a header that says no column sorts it
  // (an indicator on Name would claim an order the rows are not in).
  proxy_->sort(-1);
  table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
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
