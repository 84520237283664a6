// SPDX-License-Identifier: MIT
#pragma once
// The GUI app's Qt adapter (app/gui) over core's run API (session/run.h): it runs openRun() on a
// worker thread, lays out each rank's lanes there too, and hops each rank to the GUI thread as
// every stage completes it, so the timeline shows before the tables are built; Cancel reaches
// core's CancelToken. What a file is, how it is read, linked and analysed, and the words of every
// failure are core's: this class only calls core's openRun and moves its results between threads
// (it builds no stage). It is app wiring, not a widget: the views are given what it publishes
// (widgets::RankData and FileProblem, rank_data.h) and run no pipeline themselves.
#include <QFuture>
#include <QObject>
#include <QStringList>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "rank_data.h"
#include "session/run.h"
#include "session/run_collectives.h"
#include "view/lane_layout.h"

namespace sutra::gui {

class TraceSession : public QObject {
  Q_OBJECT

 public:
  // A run of more events than this opens without its simulation (RunOptions::simulateUpToEvents):
  // about a 2.7 GB trace, whose simulation graph alone would take several GB.
  static constexpr std::uint64_t kSimulateOnOpeningUpToEvents = 10'000'000;
  explicit TraceSession(QObject* parent = nullptr);
  ~TraceSession() override;

  // Starts loading `paths` (files and/or directories); a load in flight is cancelled first. What
  // is loaded stays (ranks(), paths(), run()...) until the new run has its first rank: a load that
  // fails or is cancelled before then leaves it as it was.
  void open(const QStringList& paths);
  void cancel();
  bool isLoading() const { return loading_; }
  // How the next open() lays out each rank's lanes: layer sections (the default) or processes.
  void setLaneGrouping(view::LaneGrouping grouping) { grouping_ = grouping; }
  // The same, and the loaded ranks laid out again with it on a worker, their traces and analyses
  // kept (no reload); answers with layoutsChanged. A load in flight keeps the grouping it began
  // with: the grouping applies from the next open().
  void regroup(view::LaneGrouping grouping);
  view::LaneGrouping laneGrouping() const { return grouping_; }
  // Each thread's Python frames folded into one band (LayoutOptions::foldPythonFrames; on by
  // default); a change lays the loaded ranks out again, as regroup() does.
  void setFoldPythonFrames(bool fold);
  bool foldPythonFrames() const { return foldPythonFrames_; }
  view::LayoutOptions layoutOptions() const { return {grouping_, foldPythonFrames_}; }
  // The paths of the run that ranks() holds (not those of a load that has not replaced it yet).
  QStringList paths() const { return paths_; }

  const std::vector<std::shared_ptr<const widgets::RankData>>& ranks() const { return ranks_; }
  const std::vector<widgets::FileProblem>& problems() const { return problems_; }
  // Builds rank `index`'s operator table for `window` on a worker; answers with opTableReady.
  void requestOpTable(int index, TimeWindow window, bool groupByShapes);
  QStringList notes() const { return notes_; }
  // The collectives matched across the ranks (stage 4, with two ranks or more); null until then.
  std::shared_ptr<const RunCollectives> collectives() const { return collectives_; }
  // The run as core holds it once loading has finished (for simulating it); null before.
  std::shared_ptr<const Run> run() const { return run_; }

 signals:
  void started(const QStringList& paths);
  // The load of `paths` has its first rank: what was loaded is dropped now, and ranks(), paths(),
  // problems() and run() are the new run's from here on. Comes before ranksFound.
  void replacing(const QStringList& paths);
  void progressChanged(int percent, const QString& stage);
  // Discovery found `count` ranks with a Kineto trace; their rankReady follow, in rank order.
  void ranksFound(int count);
  // Stage 1: rank `index` has its trace and layout (the timeline can show it).
  void rankReady(int index);
  // Stage 2: rank `index` has its launch index and sync dependencies.
  void linksReady(int index);
  void problemsChanged();
  // Stage 3: rank `index` has its steps and its whole-trace operator table.
  void analysesReady(int index);
  // Rank `index` has its simulation graph.
  void simulationReady(int index);
  // Stage 4: collectives() holds the collectives matched across the ranks.
  void collectivesReady();
  void opTableReady(int index, std::shared_ptr<const sutra::OpTable> table);
  // regroup(): every loaded rank has its new layout in ranks().
  void layoutsChanged();
  void finished();
  void failed(const QString& message);  // the core Error's message, as is
  void canceled();

 private:
  struct Job;
  void post(const std::shared_ptr<Job>& job, std::function<void()> apply);
  void relayout();  // the loaded ranks laid out again with layoutOptions(), on a worker
  // Drops what is loaded for `job`'s run, once (at its first rank, or when it ends without one).
  void replaceWith(const std::shared_ptr<Job>& job);
  void run(const std::shared_ptr<Job>& job);

  std::vector<std::shared_ptr<const widgets::RankData>> ranks_;
  std::vector<widgets::FileProblem> problems_;
  std::shared_ptr<const RunCollectives> collectives_;
  std::shared_ptr<const Run> run_;
  QStringList notes_;
  QStringList paths_;
  std::shared_ptr<Job> job_;
  QFuture<void> future_;
  QFuture<void> tableFuture_;
  QFuture<void> layoutFuture_;
  int regroups_ = 0;  // the latest regroup() applies; an earlier one's late result is dropped
  bool loading_ = false;
  view::LaneGrouping grouping_ = view::LaneGrouping::Layers;
  bool foldPythonFrames_ = true;
};

}  // namespace sutra::gui
