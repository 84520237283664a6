// SPDX-License-Identifier: MIT
// sutra-bench-ranks: the rank overview's time and peak memory against the folder's size. Each
// measurement runs in a child process of its own (fork), so its peak RSS is the overview's alone:
// the folder read with no cache (cold), then read again writing the cache, then from the cache
// (warm). The folder is generated (sutra-gen-ranks's generator) unless --dir names one.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "io/discover.h"
#include "rank_folder_generator.h"
#include "session/rank_overview_load.h"

namespace fs = std::filesystem;

namespace {

struct Measure {
  double wallS = 0;
  long peakKiB = 0;
  bool ok = false;
};

// Runs the overview of `dir` in a child; its exit status says whether it succeeded.
Measure measure(const std::string& dir, const sutra::RankOverviewOptions& options,
                std::size_t expectRanks) {
  const auto t0 = std::chrono::steady_clock::now();
  std::fflush(stdout);  // or the child prints what the parent has buffered again
  const pid_t pid = fork();
  if (pid == 0) {
    auto loaded = sutra::loadRankOverview({dir}, options);
    if (!loaded) {
      std::fprintf(stderr, "sutra-bench-ranks: %s\n", loaded.error().message.c_str());
      _exit(2);
    }
    if (loaded->overview.ranks.size() != expectRanks) _exit(3);
    std::printf(
        "    (%zu ranks: %zu read, %zu from the cache, %u at once; %zu collectives, %zu "
        "stragglers)\n",
        loaded->overview.ranks.size(), loaded->counts.ranksRead, loaded->counts.ranksFromCache,
        loaded->counts.jobs, loaded->overview.collectives.size(),
        loaded->overview.stragglers.size());
    std::fflush(stdout);
    _exit(0);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  Measure m;
  m.wallS = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  m.peakKiB = usage.ru_maxrss;
  m.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return m;
}

std::uint64_t folderBytes(const std::string& dir) {
  std::uint64_t total = 0;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file() && e.path().string().find(".sutra-cache") == std::string::npos)
      total += e.file_size();
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  sutra::gen::RankFolderSpec spec;
  spec.ranks = 256;
  spec.targetBytesPerRank = 1'000'000;
  spec.slowRank = 3;
  std::string dir;
  bool keep = false, coldOnly = false;
  unsigned jobs = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--ranks")
      spec.ranks = std::atoi(next().c_str());
    else if (a == "--mb-per-rank")
      spec.targetBytesPerRank = static_cast<std::uint64_t>(std::atof(next().c_str()) * 1e6);
    else if (a == "--steps")
      spec.steps = std::atoi(next().c_str());
    else if (a == "--dir")
      dir = next();
    else if (a == "--jobs")
      jobs = static_cast<unsigned>(std::atoi(next().c_str()));
    else if (a == "--keep")
      keep = true;
    else if (a == "--cold-only")
      coldOnly = true;
    else {
      std::fprintf(stderr,
                   "Usage: sutra-bench-ranks [--ranks N] [--mb-per-rank X] [--steps N] "
                   "[--jobs N] [--dir EXISTING_DIR] [--keep] [--cold-only]\n");
      return 2;
    }
  }
  bool generated = false;
  std::size_t ranks = static_cast<std::size_t>(spec.ranks);
  if (dir.empty()) {
    dir = (fs::temp_directory_path() / ("sutra-bench-ranks-" + std::to_string(getpid()))).string();
    const auto t0 = std::chrono::steady_clock::now();
    auto run = sutra::gen::generateRankFolder(dir, spec);
    if (!run) {
      std::fprintf(stderr, "sutra-bench-ranks: %s\n", run.error().message.c_str());
      return 2;
    }
    generated = true;
    std::printf("generated %d ranks in %s in %.1f s\n", spec.ranks, dir.c_str(),
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  } else {
    auto found = sutra::discoverTraces({dir});
    if (!found) {
      std::fprintf(stderr, "sutra-bench-ranks: %s\n", found.error().message.c_str());
      return 2;
    }
    ranks = 0;
    for (const auto& g : found->ranks) ranks += g.kineto ? 1 : 0;
  }
  const std::uint64_t bytes = folderBytes(dir);
  std::printf(
      "folder: %.1f MB (%.2f MB a rank)\n", static_cast<double>(bytes) / 1e6,
      static_cast<double>(bytes) / 1e6 / static_cast<double>(std::max<std::size_t>(1, ranks)));
  const std::string cache =
      (fs::temp_directory_path() / ("sutra-bench-ranks-cache-" + std::to_string(getpid())))
          .string();
  sutra::RankOverviewOptions cold;
  cold.useCache = false;
  cold.jobs = jobs;
  sutra::RankOverviewOptions writing = cold;
  writing.useCache = true;
  writing.cacheDir = cache;
  fs::remove_all(cache);
  std::printf("%-28s %10s %14s\n", "overview", "wall s", "peak RSS MB");
  bool ok = true;
  for (auto [name, options] :
       {std::pair{"cold (no cache)", cold}, std::pair{"cold, writing the cache", writing},
        std::pair{"warm (from the cache)", writing}}) {
    const Measure m = measure(dir, options, ranks);
    std::printf("%-28s %10.2f %14.1f%s\n", name, m.wallS, static_cast<double>(m.peakKiB) / 1024.0,
                m.ok ? "" : "  FAILED");
    std::fflush(stdout);
    ok = ok && m.ok;
    if (coldOnly) break;
  }
  fs::remove_all(cache);
  if (generated && !keep) fs::remove_all(dir);
  return ok ? 0 : 1;
}
