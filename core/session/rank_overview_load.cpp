// SPDX-License-Identifier: MIT
#include "session/rank_overview_load.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "io/discover.h"
#include "io/file_head.h"
#include "io/readers.h"
#include "link/launch_index.h"
#include "link/steps.h"
#include "session/run.h"
#include "util/atomic_file.h"
#include "util/parallel_for.h"

namespace sutra {
namespace {

namespace fs = std::filesystem;

struct FileStamp {
  std::string path;  // absolute
  std::uint64_t bytes = 0;
  std::int64_t mtimeNs = 0;
};

Result<FileStamp> stampOf(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return Error{path + ": cannot be read: " + strerror(errno)};
  std::error_code ec;
  auto abs = fs::absolute(path, ec);
  FileStamp out;
  out.path = ec ? path : abs.lexically_normal().string();
  out.bytes = static_cast<std::uint64_t>(st.st_size);
  out.mtimeNs = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  return out;
}

std::string hexHash(std::string_view text) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string userCacheDir() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return (fs::path(xdg) / "sutra" / "ranks").string();
  if (const char* home = std::getenv("HOME"); home && *home)
    return (fs::path(home) / ".cache" / "sutra" / "ranks").string();
  return {};
}

std::optional<std::string> readWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return std::move(s).str();
}

// A cache file: the summaries of the traces of one folder, each with the path, size and
// modification time it was made from. One file per folder, written once per load, so caching
// costs one write (and one sync) however many ranks there are.
using CacheEntries = std::map<std::string, RankSummary>;  // by absolute trace path

CacheEntries readCache(const std::string& file) {
  CacheEntries out;
  if (file.empty()) return out;
  const auto text = readWhole(file);
  if (!text) return out;
  auto summaries = rankSummariesFromJson(*text, file);
  if (!summaries) return out;  // a damaged cache is rebuilt, not reported
  for (auto& s : *summaries) out[s.path] = std::move(s);
  return out;
}

Status writeCache(const std::string& file, const CacheEntries& entries) {
  if (file.empty()) return Error{"no cache folder (neither XDG_CACHE_HOME nor HOME is set)"};
  std::vector<RankSummary> all;
  all.reserve(entries.size());
  for (const auto& [path, s] : entries) all.push_back(s);
  return writeFileAtomically(file, rankSummariesToJson(all));
}

bool matches(const RankSummary& s, const FileStamp& stamp) {
  return s.path == stamp.path && s.fileBytes == stamp.bytes && s.fileMtimeNs == stamp.mtimeNs;
}

// One rank to summarise: its trace and where its summary is cached.
struct RankJob {
  int rank = 0;
  FileStamp stamp;
  std::uint64_t readBytes = 0;  // what reading it may take in memory
};

// Reads, summarises and drops one rank's trace; stops when the caller cancels or `stop` is set
// (another rank failed).
Result<RankSummary> summarizeTraceFile(const RankJob& job, const CancelToken& cancel,
                                       const CancelToken& stop) {
  auto stopped = [&] { return cancel.canceled() || stop.canceled(); };
  ProgressFn onBytes = [&](std::uint64_t, std::uint64_t) { return !stopped(); };
  auto trace = readKinetoTrace(job.stamp.path, onBytes);
  if (stopped()) return Error{kCanceled};
  if (!trace) return trace.error();
  const LaunchIndex launches = LaunchIndex::build(*trace);
  const auto steps = findSteps(*trace, launches);
  RankSummary s = summarizeRank(*trace, launches, steps);
  s.rank = job.rank;
  s.path = job.stamp.path;
  s.fileBytes = job.stamp.bytes;
  s.fileMtimeNs = job.stamp.mtimeNs;
  return s;
}

bool isSummaryFile(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) return false;
  std::ifstream in(path, std::ios::binary);
  char head[256] = {};
  in.read(head, sizeof head);
  return looksLikeRankSummaries(std::string_view(head, static_cast<std::size_t>(in.gcount())));
}

}  // namespace

std::string rankCacheFileBeside(const std::string& tracePath) {
  return (fs::path(tracePath).parent_path() / ".sutra-cache" / "rank-summaries.json").string();
}

Result<LoadedRankSummaries> loadRankSummaries(const std::vector<std::string>& paths,
                                              const RankOverviewOptions& options,
                                              const RankOverviewCallbacks& callbacks,
                                              const CancelToken& cancel) {
  LoadedRankSummaries out;
  auto addSummaryFile = [&](const std::string& path) -> Status {
    auto text = readWhole(path);
    if (!text) return Error{path + ": cannot be read"};
    auto saved = rankSummariesFromJson(*text, path);
    if (!saved) return saved.error();
    out.counts.ranksFromFiles += saved->size();
    for (auto& s : *saved) out.summaries.push_back(std::move(s));
    return Ok{};
  };
  std::vector<std::string> tracePaths;
  for (const auto& p : paths) {
    if (!isSummaryFile(p)) {
      tracePaths.push_back(p);
      continue;
    }
    if (auto added = addSummaryFile(p); !added) return added.error();
  }

  std::vector<RankJob> jobs;
  if (!tracePaths.empty()) {
    auto found = discoverTraces(tracePaths);
    if (!found) return found.error();
    // Discovery's notes on unpaired execution traces do not concern an overview; what could
    // not be read does.
    out.counts.notes = found->unreadable;
    // Saved summaries in a folder given (a node's --save output copied beside the others') are
    // no traces to discovery: they join here.
    for (const auto& f : found->files)
      if (f.kind == FileKind::Unknown && isSummaryFile(f.path))
        if (auto added = addSummaryFile(f.path); !added) return added.error();
    for (const auto& g : found->ranks) {
      if (!g.kineto) {
        out.counts.notes.push_back("rank " + std::to_string(g.rank) +
                                   ": no Kineto trace, left out of the overview");
        continue;
      }
      auto stamp = stampOf(*g.kineto);
      if (!stamp) return stamp.error();
      RankJob job{g.rank, std::move(stamp).value(), 0};
      // A gzipped trace expands about tenfold; a read holds about its uncompressed size.
      const auto head = FileHead::open(*g.kineto);
      const bool gzip = head && head->gzip();
      job.readBytes = job.stamp.bytes * (gzip ? 10 : 1);
      jobs.push_back(std::move(job));
    }
  }
  if (jobs.empty() && out.summaries.empty())
    return Error{(paths.empty() ? std::string("no paths given") : paths.front()) +
                 ": no Kineto trace and no rank summaries to make an overview of"};

  const std::size_t total = jobs.size() + out.summaries.size();
  std::size_t done = out.summaries.size();
  std::mutex mutex;
  auto report = [&](const std::string& what) {
    if (callbacks.progress) callbacks.progress(++done, total, what);
  };

  // The cache first: what it holds needs no reading. Each trace's folder has one cache file
  // (beside it, else in the user's cache folder; or in options.cacheDir).
  auto cacheFiles = [&](const RankJob& job) {
    const std::string folder = fs::path(job.stamp.path).parent_path().string();
    const std::string name = hexHash(folder) + ".json";
    std::vector<std::string> files;
    if (!options.cacheDir.empty()) {
      files.push_back((fs::path(options.cacheDir) / name).string());
    } else {
      files.push_back(rankCacheFileBeside(job.stamp.path));
      const std::string user = userCacheDir();
      if (!user.empty()) files.push_back((fs::path(user) / name).string());
    }
    return files;
  };
  std::map<std::string, CacheEntries> caches;  // by cache file, read once each
  auto cacheOf = [&](const std::string& file) -> CacheEntries& {
    auto it = caches.find(file);
    if (it == caches.end()) it = caches.emplace(file, readCache(file)).first;
    return it->second;
  };
  std::vector<std::optional<RankSummary>> results(jobs.size());
  std::vector<std::size_t> toRead;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (options.useCache)
      for (const auto& file : cacheFiles(jobs[i])) {
        const auto& entries = cacheOf(file);
        auto hit = entries.find(jobs[i].stamp.path);
        if (hit != entries.end() && matches(hit->second, jobs[i].stamp)) {
          results[i] = hit->second;
          results[i]->rank = jobs[i].rank;
          break;
        }
      }
    if (results[i]) {
      ++out.counts.ranksFromCache;
      report("rank " + std::to_string(jobs[i].rank) + " from the cache");
    } else {
      toRead.push_back(i);
    }
  }

  std::uint64_t largest = 1;
  for (auto i : toRead) largest = std::max(largest, jobs[i].readBytes);
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  unsigned parallel = options.jobs ? options.jobs : cores;
  parallel = static_cast<unsigned>(std::clamp<std::uint64_t>(
      std::min<std::uint64_t>(parallel, options.memoryBudgetBytes / largest), 1,
      std::max<std::size_t>(1, toRead.size())));
  out.counts.jobs = parallel;

  std::optional<Error> failure;
  CancelToken stop;  // the caller's cancel, or the first failure
  std::string cacheNote;
  parallelFor(
      toRead.size(),
      [&](std::size_t k) {
        if (cancel.canceled() || stop.canceled()) return;
        const RankJob& job = jobs[toRead[k]];
        auto summary = summarizeTraceFile(job, cancel, stop);
        std::lock_guard lock(mutex);
        if (!summary) {
          // The first failure is the one to tell; ranks stopped because of it say "canceled".
          if (!failure && !stop.canceled()) failure = summary.error();
          stop.cancel();
          return;
        }
        results[toRead[k]] = std::move(summary).value();
        ++out.counts.ranksRead;
        report("rank " + std::to_string(job.rank) + " read");
      },
      parallel);
  if (cancel.canceled()) return Error{kCanceled};
  if (failure) return *failure;
  if (options.useCache && !toRead.empty()) {
    // What was read joins each folder's cache file, written once; beside the traces where that
    // folder is writable, else in the user's cache folder.
    std::map<std::string, std::vector<std::size_t>> byFolder;
    for (auto i : toRead)
      byFolder[fs::path(jobs[i].stamp.path).parent_path().string()].push_back(i);
    for (const auto& [folder, read] : byFolder) {
      Status written = Error{"no cache folder"};
      for (const auto& file : cacheFiles(jobs[read.front()])) {
        CacheEntries& entries = cacheOf(file);
        for (auto i : read) entries[jobs[i].stamp.path] = *results[i];
        written = writeCache(file, entries);
        if (written) break;
      }
      if (!written && cacheNote.empty())
        cacheNote = "summaries not cached: " + written.error().message;
    }
  }
  if (!cacheNote.empty()) out.counts.notes.push_back(cacheNote);
  for (auto& r : results) out.summaries.push_back(std::move(*r));
  std::stable_sort(out.summaries.begin(), out.summaries.end(),
                   [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
  return out;
}

Result<LoadedRankOverview> loadRankOverview(const std::vector<std::string>& paths,
                                            const RankOverviewOptions& options,
                                            const RankOverviewCallbacks& callbacks,
                                            const CancelToken& cancel) {
  auto loaded = loadRankSummaries(paths, options, callbacks, cancel);
  if (!loaded) return loaded.error();
  LoadedRankOverview out;
  out.overview = buildRankOverview(std::move(loaded->summaries));
  out.counts = std::move(loaded->counts);
  return out;
}

}  // namespace sutra
