// SPDX-License-Identifier: MIT
// sutra-cli memory: each device's allocation peak, from torch.profiler's [memory] events.
#include <cstdio>
#include <iostream>

#include "analysis/memory.h"
#include "analysis_input.h"
#include "command.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli memory TRACE [--limit N] [--json]\n"
    "Memory per device from the [memory] events torch.profiler writes with profile_memory=True:\n"
    "the peak of allocated memory and when it happened, and the ops whose allocations were still\n"
    "live at the peak. A trace without memory events says so (exit 0).\n\n"
    "  --limit N   ops listed per device (default 10; 0: all)\n"
    "  --json      {\"memory_events\",\"unreadable_memory_events\",\"devices\":[{\"device_type\",\n"
    "              \"device_id\",\"peak_bytes\",\"peak_ns\",\"peak_reserved_bytes\",\"peak_op\",\n"
    "              \"totals_recorded\",\"matched_by_address\",\"allocations\",\"frees\",\n"
    "              \"live_at_peak\":[{\"name\",\"bytes\",\"allocations\"}]}]}\n";

int runMemory(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--limit"}, {"--json", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli memory: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  if (args->positional().size() != 1)
    return fail("memory", "give exactly one trace file (see --help)");
  std::size_t limit = 10;
  if (auto v = args->value("--limit")) {
    auto n = parseInteger(*v, "--limit");
    if (!n.ok()) return fail("memory", n.error().message);
    if (*n < 0) return fail("memory", "--limit: must not be negative");
    limit = static_cast<std::size_t>(*n);
  }
  auto input = loadAnalysisInput(args->positional()[0],
                                 {.etPath = {}, .wholeTraceTable = false, .syncs = false});
  if (!input.ok()) return fail("memory", input.error().message);
  const RankRun& loaded = **input;
  const Trace& trace = *loaded.trace;
  const MemoryReport report = buildMemoryReport(trace);
  if (args->flag("--json"))
    std::cout << jsonText(memoryJson(trace, report, limit), 2) << "\n";
  else
    std::cout << memoryText(trace, report, limit);
  return kExitOk;
}

RegisterCommand reg{{"memory", "memory peak per device and the ops live at it", 46, &runMemory}};

}  // namespace
}  // namespace sutra::cli
