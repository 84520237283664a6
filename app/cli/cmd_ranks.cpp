// SPDX-License-Identifier: MIT
// sutra-cli ranks: the overview of a job of many ranks, read with bounded memory (a rank at a
// time, summarised and dropped), cached, and mergeable across machines (--save, then the saved
// files given as inputs).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "analysis_input.h"
#include "cli_args.h"
#include "command.h"
#include "session/rank_overview_json.h"
#include "session/rank_overview_load.h"
#include "util/atomic_file.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli ranks DIR_OR_FILES... [--json] [--save FILE] [--sort COLUMN] [--no-cache]\n"
    "                       [--cache-dir DIR] [--jobs N] [--memory-mb N] [--progress]\n"
    "An overview of every rank of a job: each rank's trace is read, summarised and dropped (a few\n"
    "at a time, as memory allows), so a folder larger than memory is read whole. Per rank: steps,\n"
    "the mean ProfilerStep duration and, per step on average, device compute, communication not\n"
    "hidden by compute, and idle time; its waits at collectives (matched across ranks, on clocks\n"
    "aligned by the collectives' ends). Then the stragglers, with the evidence: the ranks the\n"
    "others wait for, the collectives they delay most, and ranks whose compute stands out.\n"
    "Summaries are cached beside the traces (.sutra-cache/ranks/, else ~/.cache/sutra/ranks), so\n"
    "a second run reads no trace. Inputs may also be summary files written by --save: run `ranks\n"
    "--save` on each node (or chunk of ranks) where the traces are, then `ranks A.json B.json`.\n\n"
    "  --json          {\"ranks\":[{\"rank\",\"steps\",\"step_ns\",\"compute_ns\",\"comm_ns\",\n"
    "                  \"idle_ns\",\"wait_ns\",\"collectives\",\"last_arrivals\",\n"
    "                  \"clock_offset_ns\",\"path\"}],\"stragglers\":[{\"rank\",\"reason\",\n"
    "                  \"last_arrivals\",\"collectives\",\"delay_caused_ns\",\"compute_ns\",\n"
    "                  "
    "\"median_compute_ns\",\"delayed\":[...]}],\"collectives\",\"unmatched_comms\",\n"
    "                  \"median_step_ns\",\"notes\"}\n"
    "  --save FILE     also write the ranks' summaries (small JSON) to FILE\n"
    "  --sort COLUMN   rows by rank (default), step, compute, comm, idle, wait or last, the\n"
    "                  largest first\n"
    "  --no-cache      neither read nor write cached summaries\n"
    "  --cache-dir DIR cache summaries in DIR instead\n"
    "  --jobs N        ranks read at once (default: one per core, as --memory-mb allows)\n"
    "  --memory-mb N   what the ranks read at once may take (default 3072)\n"
    "  --progress      a progress line on stderr even when it is not a terminal\n";

std::string ms(TimeNs ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(ns) / 1e6);
  return buf;
}

void printText(const RankOverview& o, const RankLoadCounts& counts,
               const std::vector<std::size_t>& order) {
  std::printf(
      "%zu ranks (%zu read, %zu from the cache, %zu from summary files), %zu collectives "
      "matched, %zu communication kernels unmatched; median step %s ms\n\n",
      o.ranks.size(), counts.ranksRead, counts.ranksFromCache, counts.ranksFromFiles,
      o.collectives.size(), o.unmatchedComms, ms(o.medianStep).c_str());
  std::printf("%6s %6s %12s %12s %12s %12s %12s %6s\n", "rank", "steps", "step_ms", "compute_ms",
              "comm_ms", "idle_ms", "wait_ms", "last");
  for (auto i : order) {
    const auto& r = o.ranks[i];
    std::printf("%6d %6zu %12s %12s %12s %12s %12s %6u\n", r.rank, r.steps.size(),
                ms(r.meanStep()).c_str(), ms(r.meanCompute()).c_str(),
                ms(r.meanExposedComm()).c_str(), ms(r.meanIdle()).c_str(),
                ms(o.stats[i].waitNs).c_str(), o.stats[i].lastArrivals);
  }
  std::printf(
      "\n(step, compute, comm (exposed) and idle: means per step; wait: at collectives, "
      "in all; last: collectives it arrived at last)\n");
  if (o.stragglers.empty()) {
    std::printf("\nNo straggler: no rank stands out.\n");
  } else {
    std::printf("\nStragglers:\n");
    for (const auto& s : o.stragglers) {
      std::printf("  rank %d: %s\n", o.ranks[s.rank].rank, s.reason.c_str());
      for (const auto& d : s.worst) {
        const auto& c = o.collectives[d.collective];
        std::printf("    delayed %s #%s of process group '%s' by %s ms\n", c.collective.c_str(),
                    c.seq ? std::to_string(*c.seq).c_str() : "?", c.processGroup.c_str(),
                    ms(d.delay).c_str());
      }
    }
  }
  for (const auto& n : counts.notes) std::printf("note: %s\n", n.c_str());
  for (const auto& n : o.notes) std::printf("note: %s\n", n.c_str());
}

int runRanks(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--save", "--sort", "--cache-dir", "--jobs", "--memory-mb"},
                          {"--json", "--no-cache", "--progress", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli ranks: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().empty())
    return fail("ranks", "give a folder of ranks, trace files or summary files (see --help)");
  RankOverviewOptions options;
  options.useCache = !args->flag("--no-cache");
  if (auto dir = args->value("--cache-dir")) options.cacheDir = *dir;
  for (const char* name : {"--jobs", "--memory-mb"}) {
    auto v = args->value(name);
    if (!v) continue;
    auto n = parseInteger(*v, name);
    if (!n.ok()) return fail("ranks", n.error().message);
    if (*n < 1) return fail("ranks", std::string(name) + ": must be at least 1");
    if (std::string(name) == "--jobs")
      options.jobs = static_cast<unsigned>(std::min<std::int64_t>(*n, 4096));
    else
      options.memoryBudgetBytes = static_cast<std::uint64_t>(*n) << 20;
  }
  const std::string sort = args->value("--sort").value_or("rank");
  static const std::vector<std::string> kSorts = {"rank", "step", "compute", "comm",
                                                  "idle", "wait", "last"};
  if (std::find(kSorts.begin(), kSorts.end(), sort) == kSorts.end())
    return fail("ranks", "--sort: '" + sort +
                             "' is not a column (rank, step, compute, comm, idle, wait, last)");
  const auto save = args->value("--save");
  if (save && isOneOfInputs(*save, args->positional()))
    return fail("ranks", *save + ": is one of the inputs; --save needs another file");

  const bool tty = ::isatty(STDERR_FILENO) != 0;
  const bool showProgress = tty || args->flag("--progress");
  RankOverviewCallbacks callbacks;
  if (showProgress)
    callbacks.progress = [tty](std::size_t done, std::size_t total, const std::string& what) {
      std::fprintf(stderr, "%sranks: %zu/%zu (%s)%s", tty ? "\r\033[K" : "", done, total,
                   what.c_str(), tty ? "" : "\n");
      std::fflush(stderr);
    };
  auto summaries = loadRankSummaries(args->positional(), options, callbacks);
  if (showProgress && tty) std::fputs("\n", stderr);
  if (!summaries) return fail("ranks", summaries.error().message);
  if (save) {
    std::vector<std::string> inputs = args->positional();
    for (const auto& s : summaries->summaries) inputs.push_back(s.path);
    AtomicFileOptions fileOptions;
    fileOptions.protectedPaths = inputs;
    auto written =
        writeFileAtomically(*save, rankSummariesToJson(summaries->summaries), fileOptions);
    if (!written) return fail("ranks", written.error().message);
  }
  const RankLoadCounts counts = std::move(summaries->counts);
  const RankOverview o = buildRankOverview(std::move(summaries->summaries));

  if (args->flag("--json")) {
    std::cout << jsonText(rankOverviewJson(o, counts), 2) << "\n";
    return kExitOk;
  }
  std::vector<std::size_t> order(o.ranks.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto value = [&](std::size_t i) -> TimeNs {
    const auto& r = o.ranks[i];
    if (sort == "step") return r.meanStep();
    if (sort == "compute") return r.meanCompute();
    if (sort == "comm") return r.meanExposedComm();
    if (sort == "idle") return r.meanIdle();
    if (sort == "wait") return o.stats[i].waitNs;
    if (sort == "last") return o.stats[i].lastArrivals;
    return 0;
  };
  if (sort != "rank")
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return value(a) > value(b); });
  printText(o, counts, order);
  return kExitOk;
}

RegisterCommand reg{
    {"ranks", "overview of many ranks: per-rank step breakdown and stragglers", 44, &runRanks}};

}  // namespace
}  // namespace sutra::cli
