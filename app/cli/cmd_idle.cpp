// SPDX-License-Identifier: MIT
// sutra-cli idle: why each device stream stood idle between its ops (HTA's idle time breakdown).
#include <cstdio>
#include <iostream>

#include "analysis/idle_time.h"
#include "analysis_input.h"
#include "command.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli idle TRACE [--step N | --start-ns T --end-ns T] [--kernel-wait NS] "
    "[--json]\n"
    "Why each device stream of a Kineto trace stood idle between its ops, as Holistic Trace\n"
    "Analysis breaks idle time down: host wait (the op's launch call started after the stream had\n"
    "gone idle: the host did not queue work fast enough), kernel wait (a shorter gap than\n"
    "--kernel-wait: the cost of launching back to back) and other (e.g. waiting for another\n"
    "stream).\n\n"
    "  --step N          the device ops launched in step N (default: the whole trace)\n"
    "  --start-ns T      or launched in a time range, from T ...\n"
    "  --end-ns T        ... up to T (trace time, ns)\n"
    "  --kernel-wait NS  gaps shorter than this are kernel wait (default 30000, HTA's)\n"
    "  --json            "
    "{\"window\",\"kernel_wait_threshold_ns\",\"streams\":[{\"device\",\"stream\",\n"
    "                    \"ops\",\"idle_ns\",\"host_wait_ns\",\"kernel_wait_ns\",\"other_ns\",\n"
    "                    \"host_wait_gaps\",\"kernel_wait_gaps\",\"other_gaps\"}]}\n";

int runIdle(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--step", "--start-ns", "--end-ns", "--kernel-wait"},
                          {"--json", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli idle: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().size() != 1)
    return fail("idle", "give exactly one trace file (see --help)");
  auto spec = windowSpecFrom(*args);
  if (!spec.ok()) return fail("idle", spec.error().message);
  IdleTimeOptions options;
  if (auto v = args->value("--kernel-wait")) {
    auto n = parseInteger(*v, "--kernel-wait");
    if (!n.ok()) return fail("idle", n.error().message);
    if (*n < 0) return fail("idle", "--kernel-wait: must not be negative");
    options.kernelWaitThreshold = *n;
  }
  auto input = loadAnalysisInput(
      args->positional()[0],
      {.etPath = {}, .wholeTraceTable = false, .syncs = false, .eventArgs = false});
  if (!input.ok()) return fail("idle", input.error().message);
  const RankRun& loaded = **input;
  auto window = resolveWindow(*loaded.trace, loaded.steps(), *spec);
  if (!window.ok()) return fail("idle", window.error().message);
  const auto streams = idleTimeBreakdown(*loaded.trace, *loaded.launches(), *window, options);
  const std::string label = describeWindow(loaded.steps(), *spec);
  if (args->flag("--json")) {
    nlohmann::json doc = {{"window", label}};
    doc.update(idleTimeJson(streams, options));
    std::cout << jsonText(doc, 2) << "\n";
  } else {
    std::cout << "Device ops launched in " << label << ".\n" << idleTimeText(streams, options);
  }
  return kExitOk;
}

RegisterCommand reg{
    {"idle", "each stream's idle time: host wait, kernel wait, other", 48, &runIdle}};

}  // namespace
}  // namespace sutra::cli
