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

class RunOpener {
 public:
  RunOpener(const RunOptions& options, const RunCallbacks& callbacks, const CancelToken& cancel)
      : options_(options), callbacks_(callbacks), cancel_(cancel) {}

  Result<Run> open(const std::vector<std::string>& paths) {
    run_.paths = paths;
    progress(0, "Looking for traces");
    auto found = discoverTraces(paths);
    if (!found) return found.error();
    run_.notes = found->notes;
    auto ranks = ranksToOpen(paths, *found, options_);
    if (!ranks) return ranks.error();
    return openRanks(std::move(*ranks));
  }

  Result<Run> open(const std::vector<RankFiles>& files) {
    std::vector<std::shared_ptr<RankRun>> ranks;
    for (const RankFiles& f : files) {
      auto rank = std::make_shared<RankRun>();
      rank->rank = f.rank.value_or(0);
      rank->kinetoPath = f.kineto;
      rank->etPath = f.et;
      rank->chakraPath = f.kineto.empty() ? f.chakra : std::string();
      run_.paths.push_back(rank->path());
      if (!f.et.empty()) run_.paths.push_back(f.et);
      rankFromTrace_.push_back(!f.rank);
      ranks.push_back(std::move(rank));
    }
    if (ranks.empty()) return Error{"no input"};
    return openRanks(std::move(ranks));
  }

  Result<Run> open(std::shared_ptr<const Trace> trace) {
    auto rank = std::make_shared<RankRun>();
    rank->rank = trace->meta.rank.value_or(0);
    rank->kinetoPath = trace->path;
    rank->trace = std::move(trace);
    run_.paths.push_back(rank->kinetoPath);
    return openRanks({std::move(rank)});
  }

 private:
  Result<Run> openRanks(std::vector<std::shared_ptr<RankRun>> ranks) {
    ranks_ = std::move(ranks);
    run_.ranks.assign(ranks_.begin(), ranks_.end());
    if (callbacks_.ranksFound) callbacks_.ranksFound(run_, static_cast<int>(ranks_.size()));

    for (std::size_t r = 0; r < ranks_.size(); ++r)
      if (ranks_[r]->trace) {
        publish(r, RunStage::Read, ranks_[r]);  // read already
      } else if (auto ok = read(r); !ok) {
        return ok.error();
      }
    for (RunStage stage : {RunStage::Link, RunStage::Analyse, RunStage::Simulate}) {
      if (stage > options_.until) break;
      for (std::size_t r = 0; r < ranks_.size(); ++r)
        if (auto ok = build(r, stage); !ok) return ok.error();
    }
    if (options_.until == RunStage::Simulate && ranks_.size() > 1) {
      if (cancel_.canceled()) return Error{kCanceled};
      progress(99, "Matching collectives across ranks");
      run_.collectives = std::make_shared<const RunCollectives>(matchRunCollectives(run_.ranks));
      if (callbacks_.collectives) callbacks_.collectives(run_.collectives);
    }
    progress(100, "Done");
    return std::move(run_);
  }

  void progress(int percent, const std::string& what) {
    if (callbacks_.progress) callbacks_.progress(percent, what);
  }

  // Republishes rank `r` after `stage`: what was handed out before stays as it was.
  void publish(std::size_t r, RunStage stage, std::shared_ptr<RankRun> next) {
    next->stage = stage;
    ranks_[r] = next;
    run_.ranks[r] = next;
    if (callbacks_.rank) callbacks_.rank(static_cast<int>(r), stage, run_.ranks[r]);
  }

  Status read(std::size_t r) {
    if (cancel_.canceled()) return Error{kCanceled};
    auto next = std::make_shared<RankRun>(*ranks_[r]);
    const int total = static_cast<int>(ranks_.size());
    if (!next->chakraPath.empty()) {
      // A Chakra-only rank: its graph is its whole run.
      progress(static_cast<int>(r) * kReadShare / total,
               "Reading " + std::filesystem::path(next->chakraPath).filename().string());
      auto et = chakra::readChakraTrace(next->chakraPath);
      if (!et) return et.error();
      if (et->nodes.empty()) return Error{next->chakraPath + ": a Chakra graph with no nodes"};
      ChakraSimOptions chakraOptions = options_.chakra;
      // Collectives with no sized process group span the ranks opened (when more than one).
      if (chakraOptions.worldSize <= 0 && ranks_.size() > 1)
        for (const auto& other : ranks_)
          chakraOptions.worldSize =
              std::max<std::int64_t>(chakraOptions.worldSize, other->rank + 1);
      next->simulation = prepareChakraSimulation(*et, next->rank, chakraOptions);
      publish(r, RunStage::Simulate, std::move(next));
      return Ok{};
    }
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
    // Linking an ET, sync dependencies and the simulation's collectives read the events' args.
    read.eventArgs = options_.eventArgs || (options_.linkEt && !next->etPath.empty()) ||
                     options_.syncDependencies || options_.until == RunStage::Simulate;
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
    publish(r, RunStage::Read, std::move(next));
    return Ok{};
  }

  Status build(std::size_t r, RunStage stage) {
    if (cancel_.canceled()) return Error{kCanceled};
    if (!ranks_[r]->trace) return Ok{};  // a Chakra-only rank is done
    const int total = static_cast<int>(ranks_.size());
    const int first = kReadShare + (static_cast<int>(stage) - 1) * 6;
    progress(first + static_cast<int>(r) * 6 / total, std::string(runStageName(stage)));
    auto next = std::make_shared<RankRun>(*ranks_[r]);
    switch (stage) {
      case RunStage::Link:
        link(*next);
        break;
      case RunStage::Analyse:
        next->steps = findSteps(*next->trace, *next->launches);
        if (options_.wholeTraceTable)
          next->opTable = std::make_shared<const OpTable>(
              buildOpTable(*next->trace, *next->launches, {wholeTraceWindow(*next->trace), false}));
        break;
      case RunStage::Simulate:
        next->simulation = prepareRankSimulation(
            {next->trace, next->launches, next->syncs.get(), next->linked.get(), next->steps},
            next->rank);
        break;
      case RunStage::Read:
        break;
    }
    publish(r, stage, std::move(next));
    return Ok{};
  }

  // Launches and syncs of the Kineto trace, and its ET linked where it has one. An ET that cannot
  // be read or linked leaves the Kineto trace alone, with the reason as a warning.
  void link(RankRun& rank) {
    auto launches =
        std::make_shared<const LaunchIndex>(LaunchIndex::build(*rank.trace, &rank.linkProblems));
    if (options_.syncDependencies || options_.until == RunStage::Simulate)
      rank.syncs = std::make_shared<const std::vector<SyncDependency>>(
          findSyncDependencies(*rank.trace, *launches, &rank.linkProblems));
    rank.launches = std::move(launches);
    if (!options_.linkEt || rank.etPath.empty()) return;
    auto et = readPytorchEt(rank.etPath);
    if (!et) return unlinked(rank, et.error().message);
    rank.et = std::make_shared<const EtTrace>(std::move(et).value());
    LinkOptions link;
    link.rank = rank.rank;
    link.launches = rank.launches.get();
    auto linked = linkTraces(rank.et, rank.trace, link);
    if (!linked) return unlinked(rank, linked.error().message);
    rank.linked = std::make_shared<const LinkedTrace>(std::move(linked).value());
  }

  static void unlinked(RankRun& rank, const std::string& why) {
    rank.linkNote = why;
    rank.linkProblems.add(Severity::Warning,
                          "execution trace not linked; the Kineto trace is used alone", why);
  }

  RunOptions options_;
  RunCallbacks callbacks_;
  CancelToken cancel_;
  Run run_;
  std::vector<std::shared_ptr<RankRun>> ranks_;  // the newest of each rank, still being built
  std::vector<bool> rankFromTrace_;  // per rank given by its files: numbered by its trace
};

}  // namespace

std::string describeEtLink(const RankRun& rank) {
  if (rank.etPath.empty()) return "no execution trace";
  const std::string file = std::filesystem::path(rank.etPath).filename().string();
  if (!rank.linked) {
    if (rank.linkNote.empty()) return "ET " + file + " not linked yet";
    return "ET " + file + " not linked (" + rank.linkNote + "); the Kineto trace alone";
  }
  const LinkReport& r = rank.linked->report;
  return "linked with " + file + " " + linkMatchingWords(r.matching) + ": " +
         std::to_string(r.matchedEtOps) + " of " + std::to_string(r.etOps) + " ET ops matched, " +
         std::to_string(r.linkedDeviceOps) + " of " + std::to_string(r.deviceOps) +
         " device ops given their op";
}

Result<Run> openRun(const std::vector<std::string>& paths, const RunOptions& options,
                    const RunCallbacks& callbacks, const CancelToken& cancel) {
  return RunOpener(options, callbacks, cancel).open(paths);
}

Result<Run> openRankFiles(const std::vector<RankFiles>& ranks, const RunOptions& options,
                          const RunCallbacks& callbacks, const CancelToken& cancel) {
  return RunOpener(options, callbacks, cancel).open(ranks);
}

Result<Run> runOfTrace(std::shared_ptr<const Trace> trace, const RunOptions& options) {
  if (!trace) return Error{"no trace"};
  return RunOpener(options, {}, {}).open(std::move(trace));
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
