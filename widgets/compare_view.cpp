// SPDX-License-Identifier: MIT
#include "compare_view.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

#include "session/run.h"
#include "session/run_naming.h"
#include "table_sorting.h"
#include "text/format.h"

namespace sutra::widgets {
namespace {

struct SideTable {
  CompareSide side;
  std::shared_ptr<const OpTable> table;
};

// One side from its rank as the run API built it: the whole-trace table and the steps are the
// session's, not rebuilt here. Its lanes are labelled without the run: the pane's header names it.
SideTable sideOf(const RankRun& rank, const std::string& label) {
  SideTable out;
  out.table = rank.opTable();
  out.side.alignAt = rank.steps().empty() ? rank.trace->startNs : rank.steps().front().start;
  out.side.firstStep = rank.steps().empty() ? kNoEvent : rank.steps().front().annotation;
  out.side.layout =
      std::make_shared<const LaneLayout>(LaneLayout::build(*rank.trace, "", LaneGrouping::Layers));
  out.side.trace = rank.trace;
  out.side.label = label;
  return out;
}

// A side needs its tables, steps and lanes: no sync dependencies, no simulation graph.
RunOptions compareOptions() {
  RunOptions options = RunOptions::upTo(RunStage::Analyse);
  options.syncDependencies = false;
  return options;
}

// `inputs`: what the user gave for each rank (a file or a run folder), or empty.
ComparisonResult compareRanks(const std::vector<std::shared_ptr<const RankRun>>& ranks,
                              const QStringList& inputs = {}) {
  ComparisonResult result;
  // Each run by the folder the user gave, else by its trace file (session/run_naming.h).
  std::vector<std::string> runPaths;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const QString input = i < std::size_t(inputs.size()) ? inputs[int(i)] : QString();
    runPaths.push_back(!input.isEmpty() && QFileInfo(input).isDir() ? input.toStdString()
                                                                    : ranks[i]->trace->path);
  }
  const std::vector<std::string> labels = runLabels(runPaths);
  std::vector<SideTable> sides;
  for (std::size_t i = 0; i < ranks.size(); ++i) sides.push_back(sideOf(*ranks[i], labels[i]));
  result.comparison = compareOpTables(*sides[0].table, *sides[1].table, labels[0], labels[1]);
  result.story = tellComparison(result.comparison, *ranks[0]->trace, *ranks[1]->trace,
                                ranks[0]->steps().size(), ranks[1]->steps().size());
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
  return compareRanks(ranks, paths);
}

ComparisonResult compareTraceFiles(const QString& pathA, const QString& pathB) {
  return compareTraceFiles(QStringList{pathA, pathB});
}

CompareView::CompareView(QWidget* parent)
    : QWidget(parent),
      model_(new CompareModel(this)),
      proxy_(new BlanksLastProxy(this)),
      table_(new QTableView(this)),
      headline_(new QLabel(this)),
      totals_(new QLabel(this)),
      headers_{new QLabel(this), new QLabel(this), new QLabel(this)},
      timelines_{new TimelineView(this), new TimelineView(this), new TimelineView(this)},
      panes_{new QWidget(this), new QWidget(this), new QWidget(this)},
      bottom_(new QSplitter(Qt::Horizontal, this)),
      chart_(new ChartView(this)),
      foldFrames_(new QAction(tr("Fold &Python Frames"), this)),
      watcher_(new QFutureWatcher<ComparisonResult>(this)),
      relayout_(new QFutureWatcher<std::vector<std::shared_ptr<const LaneLayout>>>(this)) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(CompareModel::SortRole);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->verticalHeader()->hide();
  table_->setWordWrap(false);
  sortLargestFirst(table_, {CompareModel::Name, CompareModel::Side});
  // The story in words a user can paste: the headline bold, the replaced operators and the totals
  // under it.
  headline_->setObjectName("compareHeadline");
  headline_->setWordWrap(true);
  headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont bold = headline_->font();
  bold.setBold(true);
  headline_->setFont(bold);
  totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  totals_->setWordWrap(true);
  totals_->setObjectName("compareTotals");

  // The runs one above the other: one time axis for all, each run named once over its lanes.
  auto* timelines = new QSplitter(Qt::Vertical, this);
  for (int i = 0; i < 3; ++i) {
    auto* pane = new QVBoxLayout(panes_[i]);
    pane->setContentsMargins(0, 0, 0, 0);
    pane->setSpacing(0);
    headers_[i]->setObjectName(QStringLiteral("compareRunHeader%1").arg(QChar('A' + i)));
    headers_[i]->setFont(bold);
    headers_[i]->setContentsMargins(6, 2, 6, 2);
    if (i == 0) {  // the first run's header carries the frames' toggle, over all the runs
      auto* row = new QHBoxLayout;
      row->addWidget(headers_[i], 1);
      auto* fold = new QToolButton(panes_[i]);
      fold->setDefaultAction(foldFrames_);
      fold->setToolButtonStyle(Qt::ToolButtonTextOnly);
      row->addWidget(fold);
      pane->addLayout(row);
    } else {
      pane->addWidget(headers_[i]);
    }
    pane->addWidget(timelines_[i], 1);
    timelines->addWidget(panes_[i]);
  }
  panes_[2]->hide();
  bottom_->addWidget(table_);
  bottom_->addWidget(chart_);
  bottom_->setStretchFactor(0, 1);
  bottom_->setStretchFactor(1, 1);
  auto* vertical = new QSplitter(Qt::Vertical, this);
  vertical->addWidget(timelines);
  vertical->addWidget(bottom_);
  vertical->setSizes({540, 460});
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(headline_);
  layout->addWidget(totals_);
  layout->addWidget(vertical, 1);

  for (int i = 0; i < 3; ++i)
    connect(timelines_[i], &TimelineView::visibleRangeChanged, this, [this, i] { followRange(i); });
  // Folded by default, as the layouts of compareTraceFiles are; P toggles, in this window only.
  foldFrames_->setObjectName(QStringLiteral("FoldPythonFramesAction"));
  foldFrames_->setCheckable(true);
  foldFrames_->setChecked(true);
  foldFrames_->setShortcut(QKeySequence(Qt::Key_P));
  foldFrames_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  foldFrames_->setToolTip(
      tr("On: each thread's Python frames in one thin band over its ops. "
         "Off: a row per frame depth, as recorded."));
  addAction(foldFrames_);
  connect(foldFrames_, &QAction::toggled, this, &CompareView::setFoldPythonFrames);
  connect(relayout_, &QFutureWatcher<std::vector<std::shared_ptr<const LaneLayout>>>::finished,
          this, [this] {
            const auto layouts = relayout_->result();
            for (std::size_t i = 0; i < layouts.size(); ++i)
              if (layouts[i]) timelines_[i]->setLayouts({layouts[i]});
            emit layoutsChanged();
          });
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
  for (int i = 0; i < 3; ++i) {
    alignAt_[i] = sides[i].alignAt;
    span_[i] = sides[i].trace ? std::max<TimeNs>(0, sides[i].trace->endNs - sides[i].alignAt) : 0;
  }
  if (inputs_.isEmpty())
    for (const CompareSide& side : sides)
      if (side.trace) inputs_ << QString::fromStdString(side.trace->path);
  const OpComparison& c = result.comparison;
  const std::string dev = c.device.empty() ? "CUDA" : c.device;
  headline_->setText(QString::fromStdString(result.story.headline));
  QString totals = QString::fromStdString(result.story.replaced);
  if (!totals.isEmpty()) totals += QLatin1Char('\n');
  totals += QString::fromStdString(
      totalLine("Self " + dev + " total", c.selfDeviceTotalA, c.selfDeviceTotalB) + "    " +
      totalLine("Self CPU total", c.selfCpuTotalA, c.selfCpuTotalB) + "    only in A: " +
      std::to_string(c.onlyInA()) + ", only in B: " + std::to_string(c.onlyInB()));
  std::vector<DeltaBar> bars = comparisonDeltas(c, 12);
  if (result.aVsC) {
    const OpComparison& ac = *result.aVsC;
    totals += QString::fromStdString(
        "\nC (" + ac.labelB + ") against A:    " +
        totalLine("Self " + dev + " total", ac.selfDeviceTotalA, ac.selfDeviceTotalB) + "    " +
        totalLine("Self CPU total", ac.selfCpuTotalA, ac.selfCpuTotalB) +
        "    only in C: " + std::to_string(ac.onlyInB()));
  }
  totals_->setText(totals);
  const bool third = result.aVsC.has_value();
  // Runs with no device time on any side (CPU recordings) show no columns of device zeros.
  const bool device = result.comparison.selfDeviceTotalA != 0 ||
                      result.comparison.selfDeviceTotalB != 0 ||
                      (third && result.aVsC->selfDeviceTotalB != 0);
  model_->setComparison(std::move(result.comparison), std::move(result.aVsC));
  // A bar's C values are those of the same operator's row (name, shapes, device side).
  if (third)
    for (DeltaBar& bar : bars)
      for (const CompareModel::Row& row : model_->rows()) {
        if (row.ab.name != bar.name || row.ab.inputShapes != bar.inputShapes ||
            row.ab.onDevice != bar.onDevice)
          continue;
        bar.deviceC = row.c.selfDevice - row.ab.a.selfDevice;
        bar.cpuC = row.c.selfCpu - row.ab.a.selfCpu;
        break;
      }
  chart_->showComparison(bars, third);
  // The model's own order (grouped, largest change first), and a header that says no column
  // sorts it (an indicator on Name would claim an order the rows are not in).
  proxy_->sort(-1);
  table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  for (int c :
       {CompareModel::DeviceTotalDelta, CompareModel::SelfDeviceA, CompareModel::SelfDeviceB,
        CompareModel::SelfDeviceDelta, CompareModel::SelfDeviceC, CompareModel::SelfDeviceDeltaC})
    table_->setColumnHidden(c, !device);
  table_->resizeColumnsToContents();
  table_->setColumnWidth(CompareModel::Name,
                         std::min(table_->columnWidth(CompareModel::Name), 260));
  // The table's story columns need more room than the chart.
  bottom_->setSizes({width() * 3 / 5, width() * 2 / 5});
  syncing_ = true;
  const char* letters[3] = {"A", "B", "C"};
  for (int i = 0; i < 3; ++i) {
    panes_[i]->setVisible(sides[i].trace != nullptr);
    if (!sides[i].trace) continue;
    timelines_[i]->setTrace(sides[i].trace, sides[i].layout);
    headers_[i]->setText(QStringLiteral("%1: %2    %3 from its first step")
                             .arg(QLatin1String(letters[i]), QString::fromStdString(sides[i].label),
                                  durationText(span_[i])));
  }
  // One axis for all: the longest run sets the scale, so a faster run ends visibly earlier (its
  // bounds widened to the shared span), and the label columns line up.
  int labels = 0;
  for (int i = 0; i < 3; ++i)
    if (sides[i].trace) {
      timelines_[i]->setExtraBounds({alignAt_[i], alignAt_[i] + sharedSpan()});
      labels = std::max(labels, timelines_[i]->labelWidth());
    }
  for (TimelineView* timeline : timelines_) timeline->setMinimumLabelWidth(labels);
  syncing_ = false;
  if (sides[0].trace) timelines_[0]->setVisibleRange({alignAt_[0], alignAt_[0] + sharedSpan()});
  // Each run opens on its first step's row, the ops under it (the frames above it are folded).
  for (int i = 0; i < 3; ++i)
    if (sides[i].trace && sides[i].firstStep != kNoEvent)
      timelines_[i]->revealRow(0, sides[i].layout->rowOf(sides[i].firstStep));
  if (!foldFrames_->isChecked()) setFoldPythonFrames(false);  // laid out folded by the worker
  emit ready();
}

void CompareView::setFoldPythonFrames(bool fold) {
  std::vector<std::shared_ptr<const Trace>> traces;
  for (TimelineView* timeline : timelines_)
    traces.push_back(timeline->partCount() > 0 ? timeline->part(0).trace : nullptr);
  // Laid out on a worker, as compareTraceFiles does: a big trace takes a moment.
  relayout_->setFuture(QtConcurrent::run([traces, fold] {
    std::vector<std::shared_ptr<const LaneLayout>> layouts;
    for (const auto& trace : traces)
      layouts.push_back(trace ? std::make_shared<const LaneLayout>(LaneLayout::build(
                                    *trace, "", LayoutOptions{LaneGrouping::Layers, fold}))
                              : nullptr);
    return layouts;
  }));
}

TimeNs CompareView::sharedSpan() const {
  return std::max({span_[0], span_[1], span_[2], TimeNs{1}});
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
