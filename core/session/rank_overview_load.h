// SPDX-License-Identifier: MIT
#pragma once
// The overview of a job of many ranks (analysis/rank_overview.h), read with bounded memory: each
// rank's trace is read, summarised (analysis/rank_summary.h) and dropped before the next is
// read, a few ranks at a time over the cores as memory allows, so a folder larger than memory
// opens as a whole. Summaries are cached, keyed by the trace's path, size and modification time
// (one file per folder of traces: .sutra-cache/rank-summaries.json beside them where that folder
// is writable, else in the user's cache folder), so a second open reads no trace. Saved summaries
// (sutra-cli ranks --save) given among the paths are merged with the ranks read.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analysis/rank_overview.h"
#include "util/cancel_token.h"
#include "util/result.h"

namespace sutra {

struct RankOverviewOptions {
  bool useCache = true;
  // Where summaries are cached; empty: beside the traces, else the user's cache folder
  // ($XDG_CACHE_HOME/sutra/ranks, else ~/.cache/sutra/ranks).
  std::string cacheDir;
  // Ranks read at once; 0: one per core, fewer where memoryBudgetBytes would not hold them.
  unsigned jobs = 0;
  // What the traces read at once may take (a read takes up to about the uncompressed size).
  std::uint64_t memoryBudgetBytes = 3ull << 30;
};

struct RankOverviewCallbacks {
  // After each rank: how many of `total` are done and what was last done ("rank 7 read", "rank 7
  // from the cache"). Called from the reading threads, one call at a time.
  std::function<void(std::size_t done, std::size_t total, const std::string& what)> progress;
};

struct RankLoadCounts {
  std::size_t ranksRead = 0;       // traces read
  std::size_t ranksFromCache = 0;  // summaries found in the cache
  std::size_t ranksFromFiles = 0;  // summaries from saved summary files
  unsigned jobs = 1;               // ranks read at once
  std::vector<std::string> notes;  // what discovery could not read, and the cache's
};

struct LoadedRankSummaries {
  std::vector<RankSummary> summaries;  // in rank order
  RankLoadCounts counts;
};

// The summaries of every rank in `paths` (trace files, folders, saved summary files). Fails with a
// message naming the file and the problem (a trace that cannot be read, a summary file that is
// not one, nothing to summarise); a canceled load fails with kCanceled (run.h).
Result<LoadedRankSummaries> loadRankSummaries(const std::vector<std::string>& paths,
                                              const RankOverviewOptions& options = {},
                                              const RankOverviewCallbacks& callbacks = {},
                                              const CancelToken& cancel = {});

struct LoadedRankOverview {
  RankOverview overview;
  RankLoadCounts counts;
};

// loadRankSummaries, then buildRankOverview.
Result<LoadedRankOverview> loadRankOverview(const std::vector<std::string>& paths,
                                            const RankOverviewOptions& options = {},
                                            const RankOverviewCallbacks& callbacks = {},
                                            const CancelToken& cancel = {});

// The file beside a trace where the summaries of its folder's traces are cached:
// <its folder>/.sutra-cache/rank-summaries.json.
std::string rankCacheFileBeside(const std::string& tracePath);

}  // namespace sutra
