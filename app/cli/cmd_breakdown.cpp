// SPDX-License-Identifier: MIT
// sutra-cli breakdown: where each step's time went on the device and on the host (TensorBoard's
// step time breakdown, HTA's temporal breakdown).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "analysis/breakdown.h"
#include "analysis/rank_breakdown.h"
#include "analysis_input.h"
#include "command.h"
#include "io/discover.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli breakdown TRACE [--step N] [--idle-hint PERCENT] [--json]\n"
    "Where each step of a Kineto trace spent its time: on each device kernel, memcpy, memset,\n"
    "communication and idle time (overlaps counted once, in that order of priority); on the\n"
    "thread that ran the step runtime calls, dataloader, CPU ops and other. With measured hints:\n"
    "a device idle for much of a step and what the host was doing meanwhile.\n"
    "TRACE may be a folder of several ranks: each rank's steps, then per step the rank whose\n"
    "step is longest and the part that makes it so (--json: {\"ranks\":[{\"rank\",\"path\",\n"
    "...as below}],\"longest\":[{\"step\",\"longest_rank\",\"shortest_rank\",\"part\",...}]}).\n\n"
    "  --step N             only step N (default: every step)\n"
    "  --idle-hint PERCENT  hint where a device is idle at least this share of a step (default "
    "10)\n"
    "  --json               "
    "{\"device_backend\",\"steps\":[{\"step\",\"name\",\"start_ns\",\"end_ns\",\n"
    "                       "
    "\"device_end_ns\",\"host\":{\"thread\",\"runtime_ns\",\"dataloader_ns\",\n"
    "                       \"cpu_ops_ns\",\"other_ns\"},\"devices\":[{\"device\",\"kernel_ns\",\n"
    "                       \"memcpy_ns\",\"memset_ns\",\"communication_ns\",\"idle_ns\"}],\n"
    "                       \"hints\":[...]}]}\n";

// A folder whose traces are two ranks or more.
bool holdsSeveralRanks(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec)) return false;
  auto found = discoverTraces({path});
  if (!found) return false;  // the single-trace path says what is wrong
  return std::count_if(found->ranks.begin(), found->ranks.end(),
                       [](const RankGroup& g) { return g.kineto.has_value(); }) > 1;
}

// Each rank's breakdown, then per step the rank whose step is longest and by which part.
int runRanksBreakdown(const std::string& path, std::optional<std::int64_t> stepNumber,
                      const BreakdownOptions& options, const Args& args) {
  RunOptions runOptions = RunOptions::upTo(RunStage::Analyse);
  runOptions.linkEt = false;
  runOptions.wholeTraceTable = false;
  runOptions.syncDependencies = false;
  auto run = openRun({path}, runOptions);
  if (!run) return fail("breakdown", run.error().message);
  std::vector<RankBreakdown> ranks;
  std::vector<const RankRun*> opened;  // beside ranks
  for (const auto& rank : run->ranks) {
    if (!rank->trace) continue;  // a Chakra-only rank has no Kineto steps
    std::vector<Step> steps = rank->steps();
    if (stepNumber) {
      const Step* step = findStep(steps, *stepNumber);
      if (!step)
        return fail("breakdown", rank->kinetoPath + ": no step " + std::to_string(*stepNumber));
      steps = {*step};
    }
    ranks.push_back({rank->rank, buildBreakdown(*rank->trace, steps, options)});
    opened.push_back(rank.get());
  }
  const auto longest = longestRankSteps(ranks);
  if (args.flag("--json")) {
    nlohmann::json doc = {{"ranks", nlohmann::json::array()}};
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      const RankRun& rank = *opened[i];
      nlohmann::json entry = {{"rank", rank.rank}, {"path", rank.kinetoPath}};
      entry.update(breakdownJson(*rank.trace, ranks[i].breakdown));
      doc["ranks"].push_back(std::move(entry));
    }
    doc["longest"] = longestRankStepsJson(longest);
    std::cout << jsonText(doc, 2) << "\n";
    return kExitOk;
  }
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    const RankRun& rank = *opened[i];
    std::cout << "rank " << rank.rank << " ("
              << std::filesystem::path(rank.kinetoPath).filename().string() << "):\n"
              << breakdownText(*rank.trace, ranks[i].breakdown) << "\n";
  }
  std::cout << "Across the ranks:\n";
  for (const LongestRankStep& step : longest)
    std::cout << "  " << longestRankStepText(step) << "\n";
  return kExitOk;
}

int runBreakdown(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--step", "--idle-hint"}, {"--json", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli breakdown: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().size() != 1)
    return fail("breakdown", "give exactly one trace file (see --help)");
  std::optional<std::int64_t> stepNumber;
  if (auto v = args->value("--step")) {
    auto n = parseInteger(*v, "--step");
    if (!n.ok()) return fail("breakdown", n.error().message);
    stepNumber = *n;
  }
  BreakdownOptions options;
  if (auto v = args->value("--idle-hint")) {
    auto n = parseInteger(*v, "--idle-hint");
    if (!n.ok()) return fail("breakdown", n.error().message);
    if (*n < 0 || *n > 100) return fail("breakdown", "--idle-hint: a percentage from 0 to 100");
    options.idleHintPercent = double(*n);
  }
  const std::string& path = args->positional()[0];
  if (holdsSeveralRanks(path)) return runRanksBreakdown(path, stepNumber, options, *args);
  // Categories, names and times: no args text.
  auto input = loadAnalysisInput(
      path, {.etPath = {}, .wholeTraceTable = false, .syncs = false, .eventArgs = false});
  if (!input.ok()) return fail("breakdown", input.error().message);
  const RankRun& loaded = **input;
  const Trace& trace = *loaded.trace;
  std::vector<Step> steps = loaded.steps();
  if (stepNumber) {
    const Step* step = findStep(steps, *stepNumber);
    if (!step) {
      auto window = resolveWindow(trace, steps, WindowSpec{.step = stepNumber});
      return fail("breakdown", window.ok() ? "no such step" : window.error().message);
    }
    steps = {*step};
  }
  const Breakdown breakdown = buildBreakdown(trace, steps, options);
  if (args->flag("--json"))
    std::cout << jsonText(breakdownJson(trace, breakdown), 2) << "\n";
  else
    std::cout << breakdownText(trace, breakdown);
  return kExitOk;
}

RegisterCommand reg{{"breakdown",
                     "per step: kernel, memcpy, communication, idle; runtime, dataloader, CPU", 44,
                     &runBreakdown}};

}  // namespace
}  // namespace sutra::cli
