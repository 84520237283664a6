// SPDX-License-Identifier: MIT
#include "trace_session.h"

#include <QFileInfo>
#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

#include "analysis/op_table.h"
#include "analysis/steps.h"
#include "io/discover.h"
#include "io/readers.h"

namespace sutra::widgets {

struct TraceSession::Job {
  std::atomic<bool> canceled{false};
  QStringList paths;
};

TraceSession::TraceSession(QObject* parent) : QObject(parent) {}

TraceSession::~TraceSession() {
  cancel();
  future_.waitForFinished();  // the workers post to this object: they must be gone first
  tableFuture_.waitForFinished();
}

void TraceSession::requestOpTable(int index, TimeWindow window, bool groupByShapes) {
  if (index < 0 || index >= static_cast<int>(ranks_.size()) ||
      !ranks_[static_cast<std::size_t>(index)]->launches)
    return;
  std::shared_ptr<const RankData> rank = ranks_[static_cast<std::size_t>(index)];
  auto job = job_;
  tableFuture_.waitForFinished();  // one table at a time; each takes a fraction of the load
  tableFuture_ = QtConcurrent::run([this, job, rank, index, window, groupByShapes] {
    auto table = std::make_shared<const OpTable>(
        buildOpTable(*rank->trace, *rank->launches, {window, groupByShapes}));
    post(job, [this, index, table] { emit opTableReady(index, table); });
  });
}

void TraceSession::cancel() {
  if (job_) job_->canceled = true;
}

void TraceSession::open(const QStringList& paths) {
  cancel();
  future_.waitForFinished();
  ranks_.clear();
  collectives_.reset();
  problems_.clear();
  notes_.clear();
  paths_ = paths;
  loading_ = true;
  job_ = std::make_shared<Job>();
  job_->paths = paths;
  emit started(paths);
  emit problemsChanged();
  auto job = job_;
  future_ = QtConcurrent::run([this, job] { run(job); });
}

// Runs `apply` on the GUI thread, unless this job was replaced or cancelled meanwhile.
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
  auto fail = [&](const std::string& message) {
    post(job, [this, message] {
      loading_ = false;
      emit failed(QString::fromStdString(message));
    });
  };
  auto stop = [&] {
    post(job, [this] {
      loading_ = false;
      emit canceled();
    });
  };
  auto progress = [&](int percent, QString stage) {
    post(job, [this, percent, stage] { emit progressChanged(percent, stage); });
  };

  std::vector<std::string> paths;
  for (const auto& p : job->paths) paths.push_back(p.toStdString());
  progress(0, tr("Looking for traces"));
  auto discovery = discoverTraces(paths);
  if (!discovery) return fail(discovery.error().message);
  std::vector<const RankGroup*> groups;
  for (const auto& group : discovery->ranks)
    if (group.kineto) groups.push_back(&group);
  QStringList notes;
  for (const auto& note : discovery->notes) notes << QString::fromStdString(note);
  if (groups.empty() && discovery->files.size() == 1) {
    // One file that is no Kineto trace: its own reason says it best.
    const auto& file = discovery->files.front();
    return fail(file.path + ": " +
                (file.reason.empty() || file.kind != FileKind::Unknown
                     ? "a " + std::string(fileKindName(file.kind)) +
                           ", not a Kineto trace (torch.profiler JSON)"
                     : file.reason));
  }
  if (groups.empty()) {
    std::string message = "no Kineto trace (torch.profiler JSON) among the files opened";
    for (const auto& file : discovery->files)
      message += "\n" + file.path + ": " + std::string(fileKindName(file.kind)) +
                 (file.reason.empty() ? "" : " (" + file.reason + ")");
    return fail(message);
  }
  const int total = static_cast<int>(groups.size());
  post(job, [this, notes, total] {
    notes_ = notes;
    emit ranksFound(total);
  });
  std::vector<std::shared_ptr<RankData>> loaded;
  for (int g = 0; g < total; ++g) {
    const RankGroup& group = *groups[static_cast<std::size_t>(g)];
    const QString path = QString::fromStdString(*group.kineto);
    const QString name = QFileInfo(path).fileName();
    const QString stage = tr("Reading %1").arg(name);
    int lastPercent = -1;
    ProgressFn onBytes = [&](std::uint64_t done, std::uint64_t size) {
      const int percent =
          static_cast<int>((g + (size ? double(done) / double(size) : 0.0)) * 80.0 / total);
      if (percent != lastPercent) {
        lastPercent = percent;
        progress(percent, stage);
      }
      return !job->canceled.load();
    };
    auto trace = readKinetoTrace(*group.kineto, onBytes);
    if (job->canceled) return stop();
    if (!trace) return fail(trace.error().message);
    auto data = std::make_shared<RankData>();
    data->rank = group.rank;
    data->label = QStringLiteral("rank%1").arg(group.rank);
    data->path = path;
    if (group.et) data->etPath = QString::fromStdString(*group.et);
    data->trace = std::make_shared<const Trace>(std::move(trace).value());
    data->layout = std::make_shared<const LaneLayout>(
        LaneLayout::build(*data->trace, data->label.toStdString()));
    if (job->canceled) return stop();
    loaded.push_back(data);
    std::shared_ptr<const RankData> published = data;
    post(job, [this, published, name] {
      ranks_.push_back(published);
      for (const auto& problem : published->trace->problems.all())
        problems_.push_back({name, problem});
      emit rankReady(static_cast<int>(ranks_.size()) - 1);
      emit problemsChanged();
    });
  }

  // Stage 2: launch attribution and sync dependencies, per rank.
  for (int g = 0; g < total; ++g) {
    if (job->canceled) return stop();
    progress(80 + g * 10 / total, tr("Linking launches and syncs"));
    const auto& before = loaded[static_cast<std::size_t>(g)];
    auto data = std::make_shared<RankData>(*before);
    auto launches =
        std::make_shared<LaunchIndex>(LaunchIndex::build(*data->trace, &data->linkProblems));
    data->syncs = std::make_shared<const std::vector<SyncDependency>>(
        findSyncDependencies(*data->trace, *launches, &data->linkProblems));
    data->launches = std::move(launches);
    std::shared_ptr<const RankData> published = data;
    const QString name = QFileInfo(data->path).fileName();
    post(job, [this, published, g, name] {
      ranks_[static_cast<std::size_t>(g)] = published;
      for (const auto& problem : published->linkProblems.all())
        problems_.push_back({name, problem});
      emit linksReady(g);
      emit problemsChanged();
    });
    loaded[static_cast<std::size_t>(g)] = data;
  }

  // Stage 3: steps and the operator table of the whole trace, per rank.
  for (int g = 0; g < total; ++g) {
    if (job->canceled) return stop();
    progress(90 + g * 10 / total, tr("Building the operator table"));
    auto data = std::make_shared<RankData>(*loaded[static_cast<std::size_t>(g)]);
    data->steps = findSteps(*data->trace, *data->launches);
    data->opTable = std::make_shared<const OpTable>(
        buildOpTable(*data->trace, *data->launches, {wholeTraceWindow(*data->trace), false}));
    std::shared_ptr<const RankData> published = data;
    post(job, [this, published, g] {
      ranks_[static_cast<std::size_t>(g)] = published;
      emit analysesReady(g);
    });
  }
  // Stage 4: which communication kernels of the ranks are one collective.
  if (total >= 2) {
    if (job->canceled) return stop();
    progress(99, tr("Matching collectives across ranks"));
    std::vector<RankLinks> links;
    for (const auto& data : loaded)
      links.push_back({data->trace.get(), data->launches.get(), data->syncs.get()});
    auto collectives = std::make_shared<const RankCollectives>(
        matchRankCollectives(links, [&job] { return !job->canceled.load(); }));
    if (job->canceled) return stop();
    post(job, [this, collectives] {
      collectives_ = collectives;
      emit collectivesReady();
    });
  }
  post(job, [this] {
    loading_ = false;
    emit progressChanged(100, tr("Done"));
    emit finished();
  });
}

}  // namespace sutra::widgets
