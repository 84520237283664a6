// SPDX-License-Identifier: MIT
#include "session/run.h"

#include <algorithm>
#include <filesystem>

#include "analysis/memory.h"
#include "chakra/et_file.h"
#include "io/discover.h"
#include "io/kineto_reader.h"
#include "io/readers.h"
#include "io/trace_cache.h"
#include "link/link_words.h"
#include "session/run_collectives.h"

namespace sutra {

std::string_view runStageName(RunStage stage) {
  switch (stage) {
    case RunStage::Read:
      return "Reading";
    case RunStage::Link:
      return "Linking launches, syncs and the execution trace";
    case RunStage::Analyse:
      return "Building the operator table";
    case RunStage::Simulate:
      return "Building the simulation graph";
  }
  return {};
}

namespace {

// Progress: reading takes the first 80 %, the other stages share the rest.
constexpr int kReadShare = 80;

bool isNamed(const std::vector<std::string>& given, const std::string& path) {
  const auto normal = std::filesystem::path(path).lexically_normal();
  for (const auto& g : given)
    if (std::filesystem::path(g).lexically_normal() == normal) return true;
  return false;
}

// Which rank comes from which file; the failure when there is nothing to open.
Result<std::vector<std::shared_ptr<RankRun>>> ranksToOpen(const std::vector<std::string>& paths,
                                                          const Discovery& found,
                                                          const RunOptions& options) {
  // A file named on the command line or in the open dialog must be a trace; a directory may hold
  // other files.
  for (const auto& file : found.files)
    if (file.kind == FileKind::Unknown && isNamed(paths, file.path))
      return Error{file.path + ": " +
                   (file.reason.empty() ? "not a trace Sutra can open" : file.reason)};
  std::vector<std::shared_ptr<RankRun>> ranks;
  for (const auto& group : found.ranks) {
    if (options.onlyRank && group.rank != *options.onlyRank) continue;
    auto rank = std::make_shared<RankRun>();
    rank->rank = group.rank;
    if (group.kineto) {
      rank->kinetoPath = *group.kineto;
      if (group.et) rank->etPath = *group.et;
    } else if (options.chakraGraphs && group.chakra.size() > 1) {
      return Error{group.chakra[0] + " and " + group.chakra[1] + ": two Chakra graphs of rank " +
                   std::to_string(group.rank) +
                   " (give one graph per rank, named <prefix>.<rank>.et)"};
    } else if (options.chakraGraphs && !group.chakra.empty()) {
      rank->chakraPath = group.chakra.front();
    } else {
      continue;
    }
    ranks.push_back(std::move(rank));
  }
  if (!ranks.empty()) return ranks;
  if (options.onlyRank) {
    std::string known;
    for (const auto& group : found.ranks)
      if (group.kineto) known += (known.empty() ? "" : ", ") + std::to_string(group.rank);
    return Error{"no rank " + std::to_string(*options.onlyRank) +
                 " among the traces opened (ranks: " + (known.empty() ? "none" : known) + ")"};
  }
  const char* wanted = options.chakraGraphs
                           ? "no Kineto trace (torch.profiler JSON) or Chakra graph"
                           : "no Kineto trace (torch.profiler JSON)";
  if (found.files.size() == 1) {
    // One file that is no Kineto trace: say what it is.
    const auto& file = found.files.front();
    return Error{file.path + ": " + fileKindWithArticle(file.kind) +
                 ", not a Kineto trace (torch.profiler JSON)" +
                 (options.chakraGraphs ? " or a Chakra graph" : "")};
  }
  std::string message = std::string(wanted) + " among the files opened";
  for (const auto& file : found.files)
    message += "\n" + file.path + ": " + std::string(fileKindName(file.kind)) +
               (file.reason.empty() ? "" : " (" + file.reason + ")");
  return Error{message};
}

// Builds runs to a stage, reusing what each rank has.
class RunBuilder {
 public:
  RunBuilder(const RunOptions& options, const RunCallbacks& callbacks, const CancelToken& cancel)
      : options_(options), callbacks_(callbacks), cancel_(cancel) {}

  // Ranks given by their files and numbered by their traces' distributedInfo where `numbered` is
  // false for them.
  void numberFromTraces(std::vector<bool> fromTrace) { rankFromTrace_ = std::move(fromTrace); }
  // The traces given are used as they are, never read again (a trace of a test, or a view's own).
  void keepTraces() { keepTraces_ = true; }

  Result<Run> advance(const Run& run, RunStage stage) {
    run_ = run;
    stage_ = stage;
    const std::size_t count = run_.ranks.size();
    rebuilt_.assign(count, false);
    for (std::size_t r = 0; r < count; ++r)
      if (auto ok = read(r); !ok) return ok.error();
    if (stage == RunStage::Simulate && options_.simulateUpToEvents > 0) {
      std::uint64_t events = 0;
      for (const auto& rank : run_.ranks) events += rank->trace ? rank->trace->events.size() : 0;
      if (events > options_.simulateUpToEvents) {
        stage = stage_ = RunStage::Analyse;
        run_.notes.push_back("not simulated on opening: " + std::to_string(events) +
                             " events (over " + std::to_string(options_.simulateUpToEvents) +
                             "); Analysis > Simulate simulates it");
      }
    }
    for (RunStage next : {RunStage::Link, RunStage::Analyse, RunStage::Simulate}) {
      if (next > stage) break;
      for (std::size_t r = 0; r < count; ++r)
        if (auto ok = build(r, next); !ok) return ok.error();
    }
    const bool simulationChanged =
        std::find(rebuilt_.begin(), rebuilt_.end(), true) != rebuilt_.end();
    if (simulationChanged) run_.collectives.reset();  // matched on graphs that have changed
    if (stage == RunStage::Simulate && count > 1 && !run_.collectives) {
      if (cancel_.canceled()) return Error{kCanceled};
      progress(99, "Matching collectives across ranks");
      run_.collectives = std::make_shared<const RunCollectives>(matchRunCollectives(run_.ranks));
      if (callbacks_.collectives) callbacks_.collectives(run_.collectives);
    }
    progress(100, "Done");
    return std::move(run_);
  }

 private:
  void progress(int percent, const std::string& what) {
    if (callbacks_.progress) callbacks_.progress(percent, what);
  }

  // Republishes rank `r` after `stage`: what was handed out before stays as it was.
  void publish(std::size_t r, RunStage stage, std::shared_ptr<const RankRun> next) {
    run_.ranks[r] = std::move(next);
    if (callbacks_.rank) callbacks_.rank(static_cast<int>(r), stage, run_.ranks[r]);
  }

  bool syncsNeeded() const { return options_.syncDependencies || stage_ == RunStage::Simulate; }
  bool etNeeded(const RankRun& rank) const { return options_.linkEt && !rank.etPath.empty(); }
  // Linking an ET, sync dependencies and the simulation's collectives read the events' args.
  bool argsNeeded(const RankRun& rank) const {
    return options_.eventArgs || etNeeded(rank) || syncsNeeded();
  }

  // Whether rank `rank` must have `stage` built (again) to meet the options.
  bool missing(const RankRun& rank, RunStage stage) const {
    switch (stage) {
      case RunStage::Read:
        return !rank.trace || (!keepTraces_ && argsNeeded(rank) && !rank.trace->eventArgsRead);
      case RunStage::Link:
        return !rank.link || (syncsNeeded() && !rank.link->syncs) ||
               (etNeeded(rank) && !rank.link->etTried);
      case RunStage::Analyse:
        return !rank.analysis || (options_.wholeTraceTable && !rank.analysis->opTable);
      case RunStage::Simulate:
        return !rank.simulation;
    }
    return false;
  }

  Status read(std::size_t r) {
    const RankRun& rank = *run_.ranks[r];
    if (!rank.chakraPath.empty()) return rank.simulation ? Status{Ok{}} : readChakra(r);
    if (!missing(rank, RunStage::Read)) return Ok{};
    if (cancel_.canceled()) return Error{kCanceled};
    auto next = std::make_shared<RankRun>();  // a new trace: nothing built on the old one stays
    next->rank = rank.rank;
    next->kinetoPath = rank.kinetoPath;
    next->etPath = rank.etPath;
    const int total = static_cast<int>(run_.ranks.size());
    const std::string stage =
        "Reading " + std::filesystem::path(next->kinetoPath).filename().string();
    int lastPercent = -1;
    ProgressFn onBytes = [&](std::uint64_t done, std::uint64_t size) {
      const double part = size ? static_cast<double>(done) / static_cast<double>(size) : 0.0;
      const int percent = static_cast<int>((static_cast<double>(r) + part) * kReadShare / total);
      if (percent != lastPercent) progress(lastPercent = percent, stage);
      return !cancel_.canceled();
    };
    KinetoReadOptions read;
    read.eventArgs = argsNeeded(*next);
    TraceCacheOptions cache = TraceCacheOptions::fromEnvironment();
    cache.enabled = cache.enabled && options_.traceCache;
    auto [trace, fromCache, cacheNote] =
        readKinetoTraceCached(next->kinetoPath, read, onBytes, cache);
    if (cancel_.canceled()) return Error{kCanceled};
    if (!trace) return trace.error();
    if (!cacheNote.empty()) trace->problems.add(Severity::Info, "trace cache not used", cacheNote);
    addMemoryCounters(*trace);  // profile_memory=True traces: each device's curve as a counter
    next->trace = std::make_shared<const Trace>(std::move(trace).value());
    if (r < rankFromTrace_.size() && rankFromTrace_[r])
      next->rank = next->trace->meta.rank.value_or(next->rank);
    rebuilt_[r] = true;
    publish(r, RunStage::Read, std::move(next));
    return Ok{};
  }

  // A Chakra-only rank: its graph is its whole run.
  Status readChakra(std::size_t r) {
    if (cancel_.canceled()) return Error{kCanceled};
    auto next = std::make_shared<RankRun>(*run_.ranks[r]);
    const int total = static_cast<int>(run_.ranks.size());
    progress(static_cast<int>(r) * kReadShare / total,
             "Reading " + std::filesystem::path(next->chakraPath).filename().string());
    auto et = chakra::readChakraTrace(next->chakraPath);
    if (!et) return et.error();
    if (et->nodes.empty()) return Error{next->chakraPath + ": a Chakra graph with no nodes"};
    ChakraSimOptions chakraOptions = options_.chakra;
    // Collectives with no sized process group span the ranks opened (when more than one).
    if (chakraOptions.worldSize <= 0 && run_.ranks.size() > 1)
      for (const auto& other : run_.ranks)
        chakraOptions.worldSize = std::max<std::int64_t>(chakraOptions.worldSize, other->rank + 1);
    next->simulation = prepareChakraSimulation(*et, next->rank, chakraOptions);
    rebuilt_[r] = true;
    publish(r, RunStage::Simulate, std::move(next));
    return Ok{};
  }

  // Builds `stage` of rank `r` where it is missing; the stages after it are dropped with it.
  Status build(std::size_t r, RunStage stage) {
    const RankRun& rank = *run_.ranks[r];
    if (!rank.trace) return Ok{};  // a Chakra-only rank is done
    if (!missing(rank, stage)) return Ok{};
    if (cancel_.canceled()) return Error{kCanceled};
    const int total = static_cast<int>(run_.ranks.size());
    const int first = kReadShare + (static_cast<int>(stage) - 1) * 6;
    progress(first + static_cast<int>(r) * 6 / total, std::string(runStageName(stage)));
    auto next = std::make_shared<RankRun>(rank);
    switch (stage) {
      case RunStage::Link:
        next->link = link(*next);
        next->analysis.reset();
        next->simulation.reset();
        break;
      case RunStage::Analyse: {
        auto analysis = std::make_shared<AnalyseResult>();
        analysis->steps = findSteps(*next->trace, *next->launches());
        if (options_.wholeTraceTable)
          analysis->opTable = std::make_shared<const OpTable>(buildOpTable(
              *next->trace, *next->launches(), {wholeTraceWindow(*next->trace), false}));
        next->analysis = std::move(analysis);
        next->simulation.reset();
        break;
      }
      case RunStage::Simulate:
        next->simulation =
            prepareRankSimulation({next->trace, next->launches(), next->syncs().get(),
                                   next->linked().get(), next->steps()},
                                  next->rank);
        break;
      case RunStage::Read:
        break;
    }
    rebuilt_[r] = true;
    publish(r, stage, std::move(next));
    return Ok{};
  }

  // Launches and syncs of the Kineto trace, and its ET linked where it has one. An ET that cannot
  // be read or linked leaves the Kineto trace alone, with the reason as a warning.
  std::shared_ptr<const LinkResult> link(const RankRun& rank) {
    auto out = std::make_shared<LinkResult>();
    auto launches =
        std::make_shared<const LaunchIndex>(LaunchIndex::build(*rank.trace, &out->problems));
    if (syncsNeeded())
      out->syncs = std::make_shared<const std::vector<SyncDependency>>(
          findSyncDependencies(*rank.trace, *launches, &out->problems));
    out->launches = std::move(launches);
    if (!etNeeded(rank)) return out;
    out->etTried = true;
    auto et = readPytorchEt(rank.etPath);
    if (!et) return unlinked(std::move(out), et.error().message);
    out->et = std::make_shared<const EtTrace>(std::move(et).value());
    LinkOptions link;
    link.rank = rank.rank;
    link.launches = out->launches.get();
    auto linked = linkTraces(out->et, rank.trace, link);
    if (!linked) return unlinked(std::move(out), linked.error().message);
    out->linked = std::make_shared<const LinkedTrace>(std::move(linked).value());
    return out;
  }

  static std::shared_ptr<const LinkResult> unlinked(std::shared_ptr<LinkResult> link,
                                                    const std::string& why) {
    link->note = why;
    link->problems.add(Severity::Warning,
                       "execution trace not linked; the Kineto trace is used alone", why);
    return link;
  }

  RunOptions options_;
  RunCallbacks callbacks_;
  CancelToken cancel_;
  RunStage stage_ = RunStage::Simulate;
  Run run_;
  std::vector<bool> rebuilt_;        // per rank: something was built for it
  std::vector<bool> rankFromTrace_;  // per rank given by its files: numbered by its trace
  bool keepTraces_ = false;
};

// Tells discovery's ranks and builds them to options.until.
Result<Run> openRanks(Run run, const RunOptions& options, const RunCallbacks& callbacks,
                      const CancelToken& cancel, std::vector<bool> rankFromTrace = {}) {
  if (callbacks.ranksFound) callbacks.ranksFound(run, static_cast<int>(run.ranks.size()));
  RunBuilder builder(options, callbacks, cancel);
  builder.numberFromTraces(std::move(rankFromTrace));
  return builder.advance(run, options.until);
}

}  // namespace

bool RankRun::has(RunStage stage) const {
  if (!trace) return simulation != nullptr;  // a Chakra-only rank: its graph is its whole run
  switch (stage) {
    case RunStage::Read:
      return true;
    case RunStage::Link:
      return link != nullptr;
    case RunStage::Analyse:
      return analysis != nullptr;
    case RunStage::Simulate:
      return simulation != nullptr;
  }
  return false;
}

// Each stage's results, or the same empty ones (a static of each kind) before it is done.
namespace {
template <typename Result, typename Field>
const Field& fieldOr(const std::shared_ptr<const Result>& result, Field Result::*field) {
  static const Field none{};
  return result ? (*result).*field : none;
}
}  // namespace

const std::shared_ptr<const LaunchIndex>& RankRun::launches() const {
  return fieldOr(link, &LinkResult::launches);
}
const std::shared_ptr<const std::vector<SyncDependency>>& RankRun::syncs() const {
  return fieldOr(link, &LinkResult::syncs);
}
const std::shared_ptr<const EtTrace>& RankRun::et() const { return fieldOr(link, &LinkResult::et); }
const std::shared_ptr<const LinkedTrace>& RankRun::linked() const {
  return fieldOr(link, &LinkResult::linked);
}
const std::string& RankRun::linkNote() const { return fieldOr(link, &LinkResult::note); }
const ProblemLog& RankRun::linkProblems() const { return fieldOr(link, &LinkResult::problems); }
const std::vector<Step>& RankRun::steps() const { return fieldOr(analysis, &AnalyseResult::steps); }
const std::shared_ptr<const OpTable>& RankRun::opTable() const {
  return fieldOr(analysis, &AnalyseResult::opTable);
}

bool Run::has(RunStage stage) const {
  if (ranks.empty()) return false;
  for (const auto& rank : ranks)
    if (!rank->has(stage)) return false;
  return stage != RunStage::Simulate || ranks.size() < 2 || collectives != nullptr;
}

std::string describeEtLink(const RankRun& rank) {
  if (rank.etPath.empty()) return "no execution trace";
  const std::string file = std::filesystem::path(rank.etPath).filename().string();
  if (!rank.linked()) {
    if (rank.linkNote().empty()) return "ET " + file + " not linked yet";
    return "ET " + file + " not linked (" + rank.linkNote() + "); the Kineto trace alone";
  }
  const LinkReport& r = rank.linked()->report;
  return "linked with " + file + " " + linkMatchingWords(r.matching) + ": " +
         std::to_string(r.matchedEtOps) + " of " + std::to_string(r.etOps) + " ET ops matched, " +
         std::to_string(r.linkedDeviceOps) + " of " + std::to_string(r.deviceOps) +
         " device ops given their op";
}

Result<Run> advanceRun(const Run& run, RunStage stage, const RunOptions& options,
                       const RunCallbacks& callbacks, const CancelToken& cancel) {
  if (run.ranks.empty()) return Error{"the run has no rank"};
  return RunBuilder(options, callbacks, cancel).advance(run, stage);
}

Result<Run> openRun(const std::vector<std::string>& paths, const RunOptions& options,
                    const RunCallbacks& callbacks, const CancelToken& cancel) {
  if (callbacks.progress) callbacks.progress(0, "Looking for traces");
  auto found = discoverTraces(paths);
  if (!found) return found.error();
  auto ranks = ranksToOpen(paths, *found, options);
  if (!ranks) return ranks.error();
  Run run;
  run.paths = paths;
  run.notes = found->notes;
  run.ranks.assign(ranks->begin(), ranks->end());
  return openRanks(std::move(run), options, callbacks, cancel);
}

Result<Run> openRankFiles(const std::vector<RankFiles>& files, const RunOptions& options,
                          const RunCallbacks& callbacks, const CancelToken& cancel) {
  Run run;
  std::vector<bool> rankFromTrace;
  for (const RankFiles& f : files) {
    auto rank = std::make_shared<RankRun>();
    rank->rank = f.rank.value_or(0);
    rank->kinetoPath = f.kineto;
    rank->etPath = f.et;
    rank->chakraPath = f.kineto.empty() ? f.chakra : std::string();
    run.paths.push_back(rank->path());
    if (!f.et.empty()) run.paths.push_back(f.et);
    rankFromTrace.push_back(!f.rank);
    run.ranks.push_back(std::move(rank));
  }
  if (run.ranks.empty()) return Error{"no input"};
  return openRanks(std::move(run), options, callbacks, cancel, std::move(rankFromTrace));
}

Result<Run> runOfTrace(std::shared_ptr<const Trace> trace, const RunOptions& options) {
  if (!trace) return Error{"no trace"};
  auto rank = std::make_shared<RankRun>();
  rank->rank = trace->meta.rank.value_or(0);
  rank->kinetoPath = trace->path;
  rank->trace = std::move(trace);
  Run run;
  run.paths.push_back(rank->kinetoPath);
  run.ranks.push_back(std::move(rank));
  RunBuilder builder(options, {}, {});
  builder.keepTraces();
  return builder.advance(run, options.until);
}

Result<std::shared_ptr<const RankRun>> openTrace(const std::string& path, RunOptions options) {
  auto file = kinetoTraceAt(path);  // a directory: its one Kineto trace
  if (!file) return file.error();
  // A file of another kind is refused by openRun's discovery, in the same words.
  options.linkEt = false;
  auto run = openRun({*file}, options);
  if (!run) return run.error();
  return run->ranks.front();
}

}  // namespace sutra
