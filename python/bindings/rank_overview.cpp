// SPDX-License-Identifier: MIT
// The overview of many ranks (sutra-cli ranks): read here with core's bounded-memory loader, or
// merged from the summaries that other processes made (dask workers), as `ranks --save` files are
// merged today.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <optional>

#include "analysis/rank_summary.h"
#include "io/discover.h"
#include "run_handle.h"
#include "session/rank_overview_json.h"
#include "session/rank_overview_load.h"

namespace sutra::python {
namespace {

RankOverviewOptions overviewOptions(bool useCache, const std::string& cacheDir, unsigned jobs) {
  RankOverviewOptions options;
  options.useCache = useCache;
  options.cacheDir = cacheDir;
  options.jobs = jobs;
  return options;
}

LoadedRankSummaries load(const std::vector<std::string>& paths, const RankOverviewOptions& options,
                         nb::handle progress) {
  std::optional<Result<LoadedRankSummaries>> loaded;
  runCancellable(
      [&](const CancelToken& cancel, const ProgressSink& sink) {
        RankOverviewCallbacks callbacks;
        callbacks.progress = [&sink](std::size_t done, std::size_t total, const std::string& what) {
          sink(total ? static_cast<int>(done * 100 / total) : 100, what);
        };
        loaded.emplace(loadRankSummaries(paths, options, callbacks, cancel));
      },
      progress);
  return valueOr(std::move(*loaded));
}

nb::dict countsDict(const RankLoadCounts& counts) {
  nb::dict d;
  d["ranks_read"] = counts.ranksRead;
  d["ranks_from_cache"] = counts.ranksFromCache;
  d["ranks_from_files"] = counts.ranksFromFiles;
  d["notes"] = counts.notes;
  return d;
}

}  // namespace

void bindRankOverview(nb::module_& m) {
  m.def(
      "rank_overview_json",
      [](const std::vector<std::string>& paths, bool useCache, const std::string& cacheDir,
         unsigned jobs, nb::object progress) {
        auto loaded = load(paths, overviewOptions(useCache, cacheDir, jobs), progress);
        nb::gil_scoped_release release;
        const RankOverview overview = buildRankOverview(std::move(loaded.summaries));
        return rankOverviewJson(overview, loaded.counts).dump();
      },
      nb::arg("paths"), nb::arg("use_cache"), nb::arg("cache_dir"), nb::arg("jobs"),
      nb::arg("progress").none(),
      "sutra-cli ranks --json over trace files, folders and summaries.");

  m.def(
      "rank_summaries",
      [](const std::vector<std::string>& paths, bool useCache, const std::string& cacheDir,
         unsigned jobs) {
        auto loaded = load(paths, overviewOptions(useCache, cacheDir, jobs), nb::none());
        return std::make_pair(rankSummariesToJson(loaded.summaries), countsDict(loaded.counts));
      },
      nb::arg("paths"), nb::arg("use_cache"), nb::arg("cache_dir"), nb::arg("jobs"),
      "The summaries of the ranks in `paths` as the document sutra-cli ranks --save writes, and "
      "the load's counts.");

  m.def(
      "merge_rank_summaries",
      [](const std::vector<std::pair<std::string, std::string>> documents,
         const std::vector<std::string>& notes) {
        std::vector<RankSummary> summaries;
        RankLoadCounts counts;
        counts.notes = notes;
        for (const auto& [source, text] : documents) {
          auto parsed = valueOr(rankSummariesFromJson(text, source));
          counts.ranksFromFiles += parsed.size();
          for (auto& s : parsed) summaries.push_back(std::move(s));
        }
        std::stable_sort(
            summaries.begin(), summaries.end(),
            [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
        for (std::size_t i = 1; i < summaries.size(); ++i)
          if (summaries[i].rank == summaries[i - 1].rank)
            throw CoreError(summaries[i].path + ": rank " + std::to_string(summaries[i].rank) +
                            " is also in " + summaries[i - 1].path);
        nb::gil_scoped_release release;
        return rankOverviewJson(buildRankOverview(std::move(summaries)), counts).dump();
      },
      nb::arg("documents"), nb::arg("notes"),
      "The overview of summaries made elsewhere: (source, document) pairs as rank_summaries "
      "returns them, merged as ranks --save files are.");

  m.def(
      "rank_trace_files",
      [](const std::vector<std::string>& paths) {
        const Discovery found = valueOr(discoverTraces(paths));
        std::vector<std::string> files;
        for (const RankGroup& g : found.ranks)
          if (g.kineto) files.push_back(*g.kineto);
        return files;
      },
      nb::arg("paths"), "The Kineto trace of each rank found in `paths`.");
}

}  // namespace sutra::python
