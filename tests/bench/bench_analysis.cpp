// SPDX-License-Identifier: MIT
// sutra-bench-analysis: the operator table and the critical path on a large trace made by
// replicating a real one back to back (times and correlation ids shifted), with each stage's CPU
// time. Goal (issue 6): each under a second after loading on the ~1 GB scaled trace.
//
// Usage: sutra-bench-analysis [KINETO_TRACE] [COPIES]   (defaults: ../shared param linear, 48:
//        about 3 million events: 48 x its 21 MB of JSON is ~1 GB)
// Prints one JSON object: {"events","copies","seconds":{...}}.
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "analysis/critical_path.h"
#include "analysis/op_table.h"
#include "bench_process.h"
#include "io/readers.h"
#include "link/launch_index.h"
#include "link/steps.h"
#include "link/sync_dependencies.h"
#include "replicate_trace.h"

namespace {

using sutra::bench::cpuSeconds;

}  // namespace

int main(int argc, char** argv) {
  using namespace sutra;
  const std::string path =
      argc > 1 ? argv[1] : std::string(SUTRA_SHARED_TRACES) + "/param/linear_kineto.json.gz";
  const int copies = argc > 2 ? std::atoi(argv[2]) : 48;
  auto source = readKinetoTrace(path);
  if (!source) {
    std::fprintf(stderr, "%s\n", source.error().message.c_str());
    return 2;
  }
  double t0 = cpuSeconds();
  const Trace big = bench::replicateTrace(*source, copies);
  const double tReplicate = cpuSeconds() - t0;

  t0 = cpuSeconds();
  const LaunchIndex launches = LaunchIndex::build(big);
  const double tLaunches = cpuSeconds() - t0;
  t0 = cpuSeconds();
  const auto syncs = findSyncDependencies(big, launches);
  const double tSyncs = cpuSeconds() - t0;
  t0 = cpuSeconds();
  const auto steps = findSteps(big, launches);
  const double tSteps = cpuSeconds() - t0;

  t0 = cpuSeconds();
  const OpTable whole = buildOpTable(big, launches, {wholeTraceWindow(big), false});
  const double tTable = cpuSeconds() - t0;
  t0 = cpuSeconds();
  const OpTable byShape = buildOpTable(big, launches, {wholeTraceWindow(big), true});
  const double tTableShapes = cpuSeconds() - t0;
  const TimeWindow firstStep = steps.empty() ? wholeTraceWindow(big) : stepWindow(steps.front());
  t0 = cpuSeconds();
  const OpTable stepTable = buildOpTable(big, launches, {firstStep, false});
  const double tStepTable = cpuSeconds() - t0;

  t0 = cpuSeconds();
  const CriticalPath wholePath = criticalPath(big, launches, syncs, wholeTraceWindow(big));
  const double tPath = cpuSeconds() - t0;
  t0 = cpuSeconds();
  const CriticalPath stepPath = criticalPath(big, launches, syncs, firstStep);
  const double tStepPath = cpuSeconds() - t0;

  std::printf(
      "{\"events\":%zu,\"copies\":%d,\"steps\":%zu,\"rows\":%zu,\"shape_rows\":%zu,"
      "\"step_rows\":%zu,\"path_edges\":%zu,\"path_graph_nodes\":%zu,\"step_path_edges\":%zu,\n"
      " \"seconds\":{\"replicate\":%.3f,\"launch_index\":%.3f,\"sync_dependencies\":%.3f,"
      "\"steps\":%.3f,\"op_table\":%.3f,\"op_table_by_shape\":%.3f,\"op_table_one_step\":%.3f,"
      "\"critical_path_whole\":%.3f,\"critical_path_one_step\":%.3f}}\n",
      big.events.size(), copies, steps.size(), whole.rows.size(), byShape.rows.size(),
      stepTable.rows.size(), wholePath.segments.size(), wholePath.nodes, stepPath.segments.size(),
      tReplicate, tLaunches, tSyncs, tSteps, tTable, tTableShapes, tStepTable, tPath, tStepPath);
  return 0;
}
