// SPDX-License-Identifier: MIT
// sutra-cli queue: how many ops were queued on each device stream (HTA's queue length summary).
#include <cstdio>
#include <iostream>

#include "analysis/queue_length.h"
#include "analysis_input.h"
#include "command.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli queue TRACE [--step N | --start-ns T --end-ns T] [--json]\n"
    "How many ops were queued on each device stream of a Kineto trace (launched and not yet\n"
    "started), as Holistic Trace Analysis summarises its queue length: one sample per change,\n"
    "count, mean, standard deviation, min, quartiles and max, and the mean over time beside them.\n"
    "A stream whose queue stays long is fed faster than it runs; one near zero waits on the "
    "host.\n\n"
    "  --step N       the device ops launched in step N (default: the whole trace)\n"
    "  --start-ns T   or launched in a time range, from T ...\n"
    "  --end-ns T     ... up to T (trace time, ns)\n"
    "  --json         "
    "{\"window\",\"streams\":[{\"device\",\"stream\",\"count\",\"mean\",\"std\",\"min\",\n"
    "                 \"p25\",\"p50\",\"p75\",\"max\",\"time_weighted_mean\"}]}\n";

int runQueue(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--step", "--start-ns", "--end-ns"},
                          {"--json", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli queue: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().size() != 1)
    return fail("queue", "give exactly one trace file (see --help)");
  auto spec = windowSpecFrom(*args);
  if (!spec.ok()) return fail("queue", spec.error().message);
  auto input = loadAnalysisInput(
      args->positional()[0],
      {.etPath = {}, .wholeTraceTable = false, .syncs = false, .eventArgs = false});
  if (!input.ok()) return fail("queue", input.error().message);
  const RankRun& loaded = **input;
  auto window = resolveWindow(*loaded.trace, loaded.steps(), *spec);
  if (!window.ok()) return fail("queue", window.error().message);
  const auto streams = queueLengths(*loaded.trace, *loaded.launches(), *window);
  const std::string label = describeWindow(loaded.steps(), *spec);
  if (args->flag("--json")) {
    nlohmann::json doc = {{"window", label}};
    doc.update(queueLengthJson(streams));
    std::cout << jsonText(doc, 2) << "\n";
  } else {
    std::cout << "Device ops launched in " << label << ".\n" << queueLengthText(streams);
  }
  return kExitOk;
}

RegisterCommand reg{
    {"queue", "ops queued on each stream over time: mean, quartiles, max", 49, &runQueue}};

}  // namespace
}  // namespace sutra::cli
