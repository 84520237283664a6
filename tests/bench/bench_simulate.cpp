// SPDX-License-Identifier: MIT
// sutra-bench-simulate: the simulator on a large trace made by replicating a real one with shifted
// times (and shifted correlation ids), reporting each stage's time. The goal: one million graph
// nodes simulated in under a second on the development machine.
//
// Usage: sutra-bench-simulate [KINETO_TRACE] [MIN_NODES]   (defaults: ../shared linear, 1000000)
#include <time.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>

#include "io/readers.h"
#include "link/launch_index.h"
#include "link/sync_dependencies.h"
#include "replicate_trace.h"
#include "simulate/sim_inputs.h"
#include "simulate/simulator.h"

namespace {

// CPU time of this process: the machine this runs on is shared, so wall time overstates.
struct Clock {
  struct time_point {
    double wall, cpu;
  };
  static time_point now() {
    timespec cpu{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    return {wall, static_cast<double>(cpu.tv_sec) + 1e-9 * static_cast<double>(cpu.tv_nsec)};
  }
};
double wallSince(Clock::time_point t0) { return Clock::now().wall - t0.wall; }
double secondsSince(Clock::time_point t0) { return Clock::now().cpu - t0.cpu; }

}  // namespace

int main(int argc, char** argv) {
  using namespace sutra;
  const std::string path =
      argc > 1 ? argv[1] : std::string(SUTRA_SHARED_TRACES) + "/param/linear_kineto.json.gz";
  const std::size_t minNodes = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1'000'000;
  auto source = readKinetoTrace(path);
  if (!source) {
    std::fprintf(stderr, "%s\n", source.error().message.c_str());
    return 2;
  }
  // Nodes per copy, from the source itself.
  const LaunchIndex sourceIndex = LaunchIndex::build(*source);
  const SimGraph sourceGraph = buildSimGraph(
      *source, simInputsFromKineto(sourceIndex, findSyncDependencies(*source, sourceIndex)));
  const int copies =
      static_cast<int>((minNodes + sourceGraph.nodes.size() - 1) / sourceGraph.nodes.size());

  auto t0 = Clock::now();
  const Trace big = bench::replicateTrace(*source, copies);
  const double tReplicate = secondsSince(t0);
  t0 = Clock::now();
  const LaunchIndex index = LaunchIndex::build(big);
  const double tIndex = secondsSince(t0);
  t0 = Clock::now();
  const auto syncs = findSyncDependencies(big, index);
  const double tSyncs = secondsSince(t0);
  t0 = Clock::now();
  const SimGraph graph = buildSimGraph(big, simInputsFromKineto(index, syncs));
  const double tGraph = secondsSince(t0), tGraphWall = wallSince(t0);
  t0 = Clock::now();
  auto run = simulate(graph);
  const double tRun = secondsSince(t0), tRunWall = wallSince(t0);
  SimKnobs knobs;
  knobs.scales.push_back({"gemm", 0.5});
  knobs.launchLatencyNs = 2000;
  t0 = Clock::now();
  auto whatIf = simulate(graph, knobs);
  const double tWhatIf = secondsSince(t0);
  t0 = Clock::now();
  TimeNs checksum = 0;
  for (EventId e = 0; e < big.events.size(); ++e)
    if (auto t = simulatedTimes(graph, *run, e)) checksum += t->second - t->first;
  const double tMap = secondsSince(t0);
  if (!run || !whatIf) return 1;

  std::printf("source: %s (%zu events, %zu graph nodes)\n", path.c_str(), source->events.size(),
              sourceGraph.nodes.size());
  std::printf("replicated x%d: %zu events, %zu nodes, %zu edges, %zu device ops\n", copies,
              big.events.size(), graph.nodes.size(), graph.edges.size(), graph.deviceOpCount());
  std::printf("CPU seconds of this process per stage:\n");
  std::printf("replicate + TraceBuilder::finish  %8.3f s\n", tReplicate);
  std::printf("LaunchIndex::build                %8.3f s\n", tIndex);
  std::printf("findSyncDependencies              %8.3f s\n", tSyncs);
  std::printf("buildSimGraph                     %8.3f s\n", tGraph);
  std::printf("simulate (no knobs)               %8.3f s  (%.0f ns per node)\n", tRun,
              1e9 * tRun / static_cast<double>(graph.nodes.size()));
  std::printf("simulate (gemm x0.5, latency 2us) %8.3f s\n", tWhatIf);
  std::printf("simulated times of every event    %8.3f s\n", tMap);
  std::printf(
      "graph + simulate                  %8.3f s  (goal: under 1 s for 1M nodes; wall %.3f s)\n",
      tGraph + tRun, tGraphWall + tRunWall);
  std::printf("projected %.3f ms measured-replay, %.3f ms what-if (checksum %lld)\n",
              static_cast<double>(run->finish - run->begin) / 1e6,
              static_cast<double>(whatIf->finish - whatIf->begin) / 1e6,
              static_cast<long long>(checksum));
  return 0;
}
