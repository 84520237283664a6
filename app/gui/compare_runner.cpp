// SPDX-License-Identifier: MIT
#include "compare_runner.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include "session/run.h"
#include "session/run_naming.h"

namespace sutra::gui {
namespace {

using widgets::CompareSide;
using widgets::ComparisonResult;

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
  out.side.layout = std::make_shared<const view::LaneLayout>(
      view::LaneLayout::build(*rank.trace, "", view::LaneGrouping::Layers));
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

// `inputs`: what the user gave for each rank (a file or a run folder).
ComparisonResult compareRanks(const std::vector<std::shared_ptr<const RankRun>>& ranks,
                              const QStringList& inputs) {
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

CompareRunner::CompareRunner(widgets::CompareView* view)
    : QObject(view),
      view_(view),
      comparison_(new QFutureWatcher<ComparisonResult>(this)),
      layouts_(new QFutureWatcher<Layouts>(this)) {
  connect(comparison_, &QFutureWatcher<ComparisonResult>::finished, this,
          [this] { view_->showComparison(comparison_->result()); });
  connect(layouts_, &QFutureWatcher<Layouts>::finished, this,
          [this] { view_->showLayouts(layouts_->result()); });
  connect(view, &widgets::CompareView::layoutsRequested, this, &CompareRunner::layOut);
}

void CompareRunner::compare(const QStringList& paths) {
  view_->showReading(paths);
  comparison_->setFuture(QtConcurrent::run([paths] { return compareTraceFiles(paths); }));
}

void CompareRunner::layOut(const std::vector<std::shared_ptr<const Trace>>& traces,
                           bool foldPythonFrames) {
  // As compareTraceFiles lays the sides out (no run label, layer sections), folded or not.
  layouts_->setFuture(QtConcurrent::run([traces, foldPythonFrames] {
    Layouts layouts;
    for (const auto& trace : traces)
      layouts.push_back(
          trace
              ? std::make_shared<const view::LaneLayout>(view::LaneLayout::build(
                    *trace, "", view::LayoutOptions{view::LaneGrouping::Layers, foldPythonFrames}))
              : nullptr);
    return layouts;
  }));
}

}  // namespace sutra::gui
