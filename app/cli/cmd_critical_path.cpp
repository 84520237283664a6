// SPDX-License-Identifier: MIT
// sutra-cli critical-path: what bounds a step's length (HTA's critical path analysis).
#include <cstdio>
#include <iostream>

#include "analysis/critical_path.h"
#include "analysis_input.h"
#include "command.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli critical-path TRACE [--step N | --start-ns T --end-ns T] [--limit N] "
    "[--json]\n"
    "The critical path of a step of a Kineto trace, as Holistic Trace Analysis computes it: the\n"
    "chain of CPU ops, launches, device ops and syncs that bounds the step's length, and how much\n"
    "of it is CPU, device compute and communication, launch delay, kernel-to-kernel gaps and sync\n"
    "wait.\n\n"
    "  --step N       the step (default: the first step; the whole trace where there is none)\n"
    "  --start-ns T   or a time range, from T ...\n"
    "  --end-ns T     ... up to T (trace time, ns)\n"
    "  --limit N      events listed (default 40) or segments in --json (default all)\n"
    "  --json         "
    "{\"window\",\"start_ns\",\"end_ns\",\"length_ns\",\"breakdown\":{\"cpu_ns\",\n"
    "                 \"device_compute_ns\",\"device_communication_ns\",\"launch_delay_ns\",\n"
    "                 \"kernel_gap_ns\",\"sync_wait_ns\"},\"graph\",\"segments\":[...]}\n";

int runCriticalPath(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--step", "--start-ns", "--end-ns", "--limit"},
                          {"--json", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli critical-path: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().size() != 1)
    return fail("critical-path", "give exactly one trace file (see --help)");
  auto spec = windowSpecFrom(*args);
  if (!spec.ok()) return fail("critical-path", spec.error().message);
  std::optional<std::size_t> limit;
  if (auto v = args->value("--limit")) {
    auto n = parseInteger(*v, "--limit");
    if (!n.ok()) return fail("critical-path", n.error().message);
    if (*n < 0) return fail("critical-path", "--limit: must not be negative");
    limit = static_cast<std::size_t>(*n);
  }
  auto input = loadAnalysisInput(args->positional()[0]);
  if (!input.ok()) return fail("critical-path", input.error().message);
  const RankRun& loaded = **input;
  const Trace& trace = *loaded.trace;
  if (!spec->step && !spec->start && !spec->end && !loaded.steps().empty())
    spec->step = loaded.steps().front().number;
  auto window = resolveWindow(trace, loaded.steps(), *spec);
  if (!window.ok()) return fail("critical-path", window.error().message);
  CriticalPath path = criticalPath(trace, *loaded.launches(), *loaded.syncs(), *window);
  path.label = describeWindow(loaded.steps(), *spec);
  if (args->flag("--json"))
    std::cout << jsonText(criticalPathJson(trace, path, limit.value_or(0)), 2) << "\n";
  else
    std::cout << criticalPathText(trace, path, limit.value_or(40));
  return kExitOk;
}

RegisterCommand reg{{"critical-path",
                     "critical path of a step: CPU, device, launch delay, sync wait", 43,
                     &runCriticalPath}};

}  // namespace
}  // namespace sutra::cli
