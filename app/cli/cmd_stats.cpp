// SPDX-License-Identifier: MIT
// sutra-cli stats: the operator table of torch.profiler's key_averages().table().
#include <cstdio>
#include <iostream>

#include "analysis/op_table.h"
#include "analysis/op_table_format.h"
#include "analysis_input.h"
#include "command.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli stats TRACE [--step N | --start-ns T --end-ns T] [--sort KEY]\n"
    "                       [--group-by-shape] [--limit N] [--json | --csv]\n"
    "The operator table of a Kineto trace, as torch.profiler's key_averages().table() prints it:\n"
    "self and total CPU and device time and calls per operator, annotation, runtime call and\n"
    "device op.\n\n"
    "  --step N           only step N (ProfilerStep#N; else iteration N between repeats of the\n"
    "                     outermost repeating annotation)\n"
    "  --start-ns T       only events from T (trace time, ns) ...\n"
    "  --end-ns T         ... up to T (exclusive)\n"
    "  --sort KEY         self_device (default where there is device time), self_cpu (default\n"
    "                     otherwise), cpu_total, device_total, calls, name\n"
    "  --group-by-shape   one row per name and input shapes (torch's group_by_input_shape)\n"
    "  --count-recursion-once  corrected totals: an op nested in an op of its own name adds no\n"
    "                     total (torch's key_averages counts it twice; the default matches torch)\n"
    "  --limit N          at most N rows (default: 100 in the table, all in --json and --csv)\n"
    "  --json             {\"device\",\"window\":{\"start_ns\",\"end_ns\"},\"rows\":[{\"name\",\n"
    "                     \"input_shapes\"?,\"calls\",\"self_cpu_ns\",\"cpu_total_ns\",\n"
    "                     \"self_device_ns\",\"device_total_ns\",\"cpu_memory_bytes\"?,\n"
    "                     \"self_cpu_memory_bytes\"?,\"device_memory_bytes\"?,\n"
    "                     \"self_device_memory_bytes\"?}],\"self_cpu_total_ns\",\n"
    "                     \"self_device_total_ns\",\"memory_recorded\"?}; the memory columns "
    "where\n"
    "                     the trace has [memory] events (profile_memory=True), as torch counts "
    "them\n"
    "  --csv              the rows as CSV\n";

int runStats(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(
      argc, argv, {"--step", "--start-ns", "--end-ns", "--sort", "--limit"},
      {"--group-by-shape", "--count-recursion-once", "--json", "--csv", "--help", "-h"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli stats: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("--help") || args->flag("-h")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  auto fail = [](const std::string& message) {
    std::fprintf(stderr, "sutra-cli stats: %s\n", message.c_str());
    return kExitBadInput;
  };
  if (args->positional().size() != 1) return fail("give exactly one trace file (see --help)");
  if (args->flag("--json") && args->flag("--csv")) return fail("choose --json or --csv, not both");
  std::optional<OpSort> sort;
  if (auto v = args->value("--sort")) {
    sort = parseOpSort(*v);
    if (!sort)
      return fail("--sort: unknown key '" + *v +
                  "' (self_device, self_cpu, cpu_total, device_total, calls, name)");
  }
  std::optional<std::size_t> limit;
  if (auto v = args->value("--limit")) {
    auto n = parseInteger(*v, "--limit");
    if (!n.ok()) return fail(n.error().message);
    if (*n < 0) return fail("--limit: must not be negative");
    limit = static_cast<std::size_t>(*n);
  }
  auto spec = windowSpecFrom(*args);
  if (!spec.ok()) return fail(spec.error().message);

  const OpTableOptions asked{
      {}, args->flag("--group-by-shape"), args->flag("--count-recursion-once")};
  // The whole trace as torch counts it is the table the run API builds anyway: not built twice.
  const bool wholeTrace = !spec->step && !spec->start && !spec->end && !asked.groupByInputShapes &&
                          !asked.countRecursionOnce;
  // The args text (most of a trace's memory) is read only for the input shapes.
  auto input = loadAnalysisInput(args->positional()[0], {.etPath = {},
                                                         .wholeTraceTable = wholeTrace,
                                                         .syncs = false,
                                                         .eventArgs = asked.groupByInputShapes});
  if (!input.ok()) return fail(input.error().message);
  const RankRun& loaded = **input;
  const Trace& trace = *loaded.trace;
  auto window = resolveWindow(trace, loaded.steps(), *spec);
  if (!window.ok()) return fail(window.error().message);

  OpTable table = wholeTrace
                      ? *loaded.opTable()
                      : buildOpTable(trace, *loaded.launches(),
                                     {*window, asked.groupByInputShapes, asked.countRecursionOnce});
  sortOpRows(table.rows,
             sort.value_or(table.hasDeviceTime() ? OpSort::SelfDevice : OpSort::SelfCpu));
  if (args->flag("--json")) {
    std::cout << jsonText(opTableJson(table, limit.value_or(0)), 2) << "\n";
  } else if (args->flag("--csv")) {
    std::cout << opTableCsv(table, limit.value_or(0));
  } else {
    std::cout << opTableText(table, limit.value_or(100));
  }
  return kExitOk;
}

RegisterCommand reg{{"stats", "operator table (torch key_averages): self/total CPU and device time",
                     40, &runStats}};

}  // namespace
}  // namespace sutra::cli
