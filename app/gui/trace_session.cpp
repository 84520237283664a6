// SPDX-License-Identifier: MIT
#include "trace_session.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

#include "analysis/op_table.h"

namespace sutra::gui {

struct TraceSession::Job {
  CancelToken cancel;
  QStringList paths;
  view::LayoutOptions layout;  // the session's, when the load started
  bool replaced = false;       // ranks_ and the rest hold this job's run (GUI thread only)
  // What discovery found, held back until the run replaces the loaded one (GUI thread only).
  QStringList notes;
  int rankCount = -1;
};

TraceSession::TraceSession(QObject* parent) : QObject(parent) {}

TraceSession::~TraceSession() {
  cancel();
  future_.waitForFinished();  // the workers post to this object: they must be gone first
  tableFuture_.waitForFinished();
  layoutFuture_.waitForFinished();
}

void TraceSession::regroup(view::LaneGrouping grouping) {
  grouping_ = grouping;
  relayout();
}

void TraceSession::setFoldPythonFrames(bool fold) {
  if (fold == foldPythonFrames_) return;
  foldPythonFrames_ = fold;
  relayout();
}

void TraceSession::relayout() {
  if (loading_ || ranks_.empty()) return;
  const int generation = ++regroups_;
  auto job = job_;
  auto ranks = ranks_;
  const view::LayoutOptions options = layoutOptions();
  layoutFuture_.waitForFinished();
  layoutFuture_ = QtConcurrent::run([this, job, ranks, options, generation] {
    std::vector<std::shared_ptr<const widgets::RankData>> regrouped;
    for (const auto& rank : ranks) {
      if (!rank || !rank->run->trace) {
        regrouped.push_back(rank);
        continue;
      }
      auto data = std::make_shared<widgets::RankData>(*rank);
      data->layout = std::make_shared<const view::LaneLayout>(
          view::LaneLayout::build(*data->run->trace, data->label.toStdString(), options));
      regrouped.push_back(std::move(data));
    }
    post(job, [this, regrouped, generation] {
      if (generation != regroups_ || loading_) return;  // a later regroup or a new load
      ranks_ = regrouped;
      emit layoutsChanged();
    });
  });
}

void TraceSession::requestOpTable(int index, TimeWindow window, bool groupByShapes) {
  if (index < 0 || index >= static_cast<int>(ranks_.size()) ||
      !ranks_[static_cast<std::size_t>(index)]->run->has(RunStage::Link))
    return;
  std::shared_ptr<const widgets::RankData> rank = ranks_[static_cast<std::size_t>(index)];
  auto job = job_;
  tableFuture_.waitForFinished();  // one table at a time; each takes a fraction of the load
  tableFuture_ = QtConcurrent::run([this, job, rank, index, window, groupByShapes] {
    auto table = std::make_shared<const OpTable>(
        buildOpTable(*rank->run->trace, *rank->run->launches(), {window, groupByShapes}));
    post(job, [this, rank, index, table] {
      // A table of the run a new load has replaced meanwhile is of no use.
      const auto i = static_cast<std::size_t>(index);
      if (i < ranks_.size() && ranks_[i] && ranks_[i]->run->trace == rank->run->trace)
        emit opTableReady(index, table);
    });
  });
}

void TraceSession::cancel() {
  if (job_) job_->cancel.cancel();
}

void TraceSession::open(const QStringList& paths) {
  cancel();
  future_.waitForFinished();
  // A load cancelled before its first rank left the run before it in place; one that got further
  // replaced it already.
  loading_ = true;
  job_ = std::make_shared<Job>();
  job_->paths = paths;
  job_->layout = layoutOptions();
  emit started(paths);
  auto job = job_;
  future_ = QtConcurrent::run([this, job] { run(job); });
}

void TraceSession::replaceWith(const std::shared_ptr<Job>& job) {
  if (job->replaced) return;
  job->replaced = true;
  ranks_.clear();
  collectives_.reset();
  run_.reset();
  problems_.clear();
  notes_ = job->notes;
  paths_ = job->paths;
  emit replacing(paths_);
  emit problemsChanged();
  if (job->rankCount >= 0) emit ranksFound(job->rankCount);
}

// Runs `apply` on the GUI thread, unless this job was replaced meanwhile (a cancelled job's data
// is dropped by the callers: see run()).
void TraceSession::post(const std::shared_ptr<Job>& job, std::function<void()> apply) {
  QMetaObject::invokeMethod(
      this,
      [this, job, apply = std::move(apply)] {
        if (job != job_) return;
        apply();
      },
      Qt::QueuedConnection);
}

void TraceSession::run(const std::shared_ptr<Job>& job) {
  std::vector<std::string> paths;
  for (const auto& p : job->paths) paths.push_back(p.toStdString());
  // The newest RankData of each rank, as the worker built it (the GUI thread gets copies).
  auto building = std::make_shared<std::vector<std::shared_ptr<const widgets::RankData>>>();
  RunCallbacks callbacks;
  callbacks.progress = [this, job](int percent, const std::string& what) {
    const QString stage = QString::fromStdString(what);
    post(job, [this, percent, stage] { emit progressChanged(percent, stage); });
  };
  callbacks.ranksFound = [this, job, building](const Run& run, int count) {
    building->assign(static_cast<std::size_t>(count), nullptr);
    QStringList notes;
    for (const auto& note : run.notes) notes << QString::fromStdString(note);
    post(job, [job, notes, count] {  // told when the run replaces the loaded one
      job->notes = notes;
      job->rankCount = count;
    });
  };
  callbacks.rank = [this, job, building](int index, RunStage stage,
                                         const std::shared_ptr<const RankRun>& rank) {
    if (!rank->trace) return;  // a Chakra-only rank has no timeline (not opened here)
    auto& slot = (*building)[static_cast<std::size_t>(index)];
    auto data =
        slot ? std::make_shared<widgets::RankData>(*slot) : std::make_shared<widgets::RankData>();
    data->run = rank;
    data->rank = rank->rank;
    data->label = QString::fromStdString(rank->label());
    data->path = QString::fromStdString(rank->kinetoPath);
    data->etPath = QString::fromStdString(rank->etPath);
    if (stage == RunStage::Read)  // laid out here, off the GUI thread
      data->layout = std::make_shared<const view::LaneLayout>(
          view::LaneLayout::build(*rank->trace, data->label.toStdString(), job->layout));
    slot = data;
    std::shared_ptr<const widgets::RankData> published = data;
    const QString name = QFileInfo(data->path).fileName();
    post(job, [this, job, published, index, stage, name] {
      // Cancelled on the GUI thread after the worker had posted this: nothing more of the job
      // reaches the window (a rank read just before Cancel must not replace the loaded run).
      if (job->cancel.canceled()) return;
      const auto i = static_cast<std::size_t>(index);
      replaceWith(job);
      if (stage == RunStage::Read) {
        if (ranks_.size() <= i) ranks_.resize(i + 1);
        ranks_[i] = published;
        for (const auto& problem : published->run->trace->problems.all())
          problems_.push_back({name, problem});
        emit rankReady(index);
        emit problemsChanged();
        return;
      }
      ranks_[i] = published;
      switch (stage) {
        case RunStage::Link:
          for (const auto& problem : published->run->linkProblems().all())
            problems_.push_back({name, problem});
          emit linksReady(index);
          emit problemsChanged();
          break;
        case RunStage::Analyse:
          emit analysesReady(index);
          break;
        case RunStage::Simulate:
          emit simulationReady(index);
          break;
        case RunStage::Read:
          break;
      }
    });
  };
  callbacks.collectives = [this, job](const std::shared_ptr<const RunCollectives>& collectives) {
    post(job, [this, job, collectives] {
      if (job->cancel.canceled()) return;
      replaceWith(job);
      collectives_ = collectives;
      emit collectivesReady();
    });
  };
  RunOptions options;
  // A trace of tens of millions of events (bigger than memory, read from its cache) opens without
  // a simulation graph of every event: the simulation window builds it when asked.
  options.simulateUpToEvents = kSimulateOnOpeningUpToEvents;
  auto run = openRun(paths, options, callbacks, job->cancel);
  if (job->cancel.canceled()) {
    post(job, [this] {
      loading_ = false;
      emit canceled();
    });
    return;
  }
  if (!run) {
    const QString message = QString::fromStdString(run.error().message);
    post(job, [this, message] {
      loading_ = false;
      emit failed(message);
    });
    return;
  }
  auto done = std::make_shared<const Run>(std::move(run).value());
  post(job, [this, job, done] {
    if (job->cancel.canceled()) {  // cancelled as it finished: as if before
      loading_ = false;
      emit canceled();
      return;
    }
    replaceWith(job);  // a run with no timeline to show (Chakra only) replaces it here
    run_ = done;
    notes_.clear();  // discovery's, and the stages' (a simulation left for later)
    for (const auto& note : done->notes) notes_ << QString::fromStdString(note);
    loading_ = false;
    emit progressChanged(100, tr("Done"));
    emit finished();
  });
}

}  // namespace sutra::gui
