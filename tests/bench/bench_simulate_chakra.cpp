// SPDX-License-Identifier: MIT
// sutra-bench-simulate-chakra: the simulator on a Chakra graph of a million nodes, made by
// converting a real linked pair (Sutra's own converter) and chaining copies of the graph one after
// another (ids, dependencies and start times shifted; each copy's first node depends on the
// previous copy's last). Reports each stage's CPU time; the goal: one million nodes simulated in
// under a second on the development machine.
//
// Usage: sutra-bench-simulate-chakra [ET KINETO] [MIN_NODES]   (defaults: ../shared linear pair,
// 1000000)
#include <sys/resource.h>
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench_process.h"
#include "chakra/convert_files.h"
#include "simulate/chakra_simulation.h"
#include "simulate/simulator.h"

namespace {

using sutra::bench::cpuSeconds;

double peakRssMb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_maxrss) / 1024.0;
}

sutra::chakra::ChakraTrace chain(const sutra::chakra::ChakraTrace& source, int copies) {
  sutra::chakra::ChakraTrace out;
  out.meta = source.meta;
  std::uint64_t maxId = 0, lastEndUs = 0;
  for (const auto& n : source.nodes) {
    maxId = std::max<std::uint64_t>(maxId, n.id());
    lastEndUs = std::max<std::uint64_t>(lastEndUs, n.start_time_micros() + n.duration_micros());
  }
  const std::uint64_t idSpan = maxId + 1, period = lastEndUs + 1000;
  out.nodes.reserve(source.nodes.size() * static_cast<std::size_t>(copies));
  for (int c = 0; c < copies; ++c) {
    const std::uint64_t shift = idSpan * static_cast<std::uint64_t>(c);
    for (std::size_t i = 0; i < source.nodes.size(); ++i) {
      auto& n = out.nodes.emplace_back(source.nodes[i]);
      n.set_id(n.id() + shift);
      n.set_start_time_micros(n.start_time_micros() + period * static_cast<std::uint64_t>(c));
      for (auto& d : *n.mutable_ctrl_deps()) d += shift;
      for (auto& d : *n.mutable_data_deps()) d += shift;
      if (i == 0 && c > 0) n.add_data_deps(source.nodes.back().id() + shift - idSpan);
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace sutra;
  const std::string shared = SUTRA_SHARED_TRACES;
  const std::string et = argc > 2 ? argv[1] : shared + "/param/linear_et.json.gz";
  const std::string kineto = argc > 2 ? argv[2] : shared + "/param/linear_kineto.json.gz";
  const std::size_t minNodes = argc > 3    ? std::strtoull(argv[3], nullptr, 10)
                               : argc == 2 ? std::strtoull(argv[1], nullptr, 10)
                                           : 1'000'000;
  auto conv = chakra::convertTracePair(et, kineto);
  if (!conv) {
    std::fprintf(stderr, "%s\n", conv.error().message.c_str());
    return 2;
  }
  const auto& source = conv->chakra.trace;
  const int copies = static_cast<int>((minNodes + source.nodes.size() - 1) / source.nodes.size());

  double t0 = cpuSeconds();
  const chakra::ChakraTrace big = chain(source, copies);
  const double tChain = cpuSeconds() - t0;
  t0 = cpuSeconds();
  const auto sim = prepareChakraSimulation(big, 0);
  const double tPrepare = cpuSeconds() - t0;
  t0 = cpuSeconds();
  auto run = simulate(sim->graph);
  const double tRun = cpuSeconds() - t0;
  SimKnobs knobs;
  knobs.scales.push_back({"gemm", 0.5});
  t0 = cpuSeconds();
  auto whatIf = simulate(sim->graph, knobs);
  const double tWhatIf = cpuSeconds() - t0;
  ChakraSimOptions graphOnly;
  graphOnly.dependenciesOnly = true;
  t0 = cpuSeconds();
  const auto bare = prepareChakraSimulation(big, 0, graphOnly);
  auto bareRun = simulate(bare->graph);
  const double tBare = cpuSeconds() - t0;
  if (!run || !whatIf || !bareRun) return 1;

  std::printf("source: %s + %s -> %zu Chakra nodes\n", et.c_str(), kineto.c_str(),
              source.nodes.size());
  std::printf("chained x%d: %zu nodes, %zu edges, %zu device ops\n", copies,
              sim->graph.nodes.size(), sim->graph.edges.size(), sim->graph.deviceOpCount());
  std::printf("CPU seconds of this process per stage:\n");
  std::printf("chain the copies (protobuf)             %8.3f s\n", tChain);
  std::printf("timeline + graph (prepareChakraSimulation) %5.3f s\n", tPrepare);
  std::printf("simulate (no knobs)                     %8.3f s  (%.0f ns per node)\n", tRun,
              1e9 * tRun / static_cast<double>(sim->graph.nodes.size()));
  std::printf("simulate (gemm x0.5)                    %8.3f s\n", tWhatIf);
  std::printf("graph only: timeline + graph + simulate %8.3f s\n", tBare);
  std::printf("graph + simulate                        %8.3f s  (goal: under 1 s for 1M nodes)\n",
              tPrepare + tRun);
  std::printf("peak RSS %.0f MB\n", peakRssMb());
  std::printf("projected %.3f ms replay, %.3f ms what-if, %.3f ms graph only\n",
              static_cast<double>(run->finish - run->begin) / 1e6,
              static_cast<double>(whatIf->finish - whatIf->begin) / 1e6,
              static_cast<double>(bareRun->finish - bareRun->begin) / 1e6);
  return 0;
}
