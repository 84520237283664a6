// SPDX-License-Identifier: MIT
// `sutra-cli simulate --engine astra-sim PREFIX`: ASTRA-sim on a convert export beside what was
// measured and what Sutra's replay of the same graphs gives, rank by rank.
#include "simulate_astra_sim.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "chakra/convert_files.h"
#include "chakra/et_file.h"
#include "command.h"
#include "model/time.h"
#include "session/run.h"
#include "session/run_simulation.h"
#include "simulate/astra_sim_engine.h"

namespace sutra::cli {

namespace {

struct RankRow {
  int rank = 0;
  std::optional<TimeNs> measuredNs;  // none where the graph has no start times
  std::optional<TimeNs> sutraNs;
  TimeNs astraSimNs = 0;
  std::optional<TimeNs> exposedCommNs;
};

// The measured iteration of a rank's graph: from its first node's start to its last node's end.
// A graph with no start times (ASTRA-sim's own examples) measured nothing.
Result<std::optional<TimeNs>> measuredSpanNs(const std::string& path) {
  auto trace = chakra::readChakraTrace(path);
  if (!trace) return trace.error();
  bool anyStart = false;
  std::uint64_t first = UINT64_MAX, last = 0;
  for (const auto& node : trace->nodes) {
    anyStart |= node.start_time_micros() > 0;
    first = std::min<std::uint64_t>(first, node.start_time_micros());
    last = std::max<std::uint64_t>(last, node.start_time_micros() + node.duration_micros());
  }
  if (!anyStart || first > last) return std::optional<TimeNs>();
  return std::optional<TimeNs>(static_cast<TimeNs>(last - first) * 1000);
}

std::string durationOr(const std::optional<TimeNs>& ns) {
  return ns ? formatDuration(*ns) : std::string("-");
}

nlohmann::json nsOrNull(const std::optional<TimeNs>& ns) {
  return ns ? nlohmann::json(*ns) : nlohmann::json();
}

}  // namespace

int runAstraSimEngine(const Args& args, const ChakraSimOptions& chakra) {
  for (const char* other : {"--kineto", "--et", "--scale", "--launch-latency-us",
                            "--launch-latency-scale", "--cpu-speed", "--step", "-o"})
    if (args.value(other))
      return fail("simulate",
                  std::string(other) + " goes with the Sutra engine, not --engine astra-sim");
  if (args.flag("--no-sync"))
    return fail("simulate", "--no-sync goes with the Sutra engine, not --engine astra-sim");
  if (args.positional().size() != 1)
    return fail("simulate", "--engine astra-sim takes one PREFIX of a `sutra-cli convert` export");
  AstraSimRunOptions runOptions;
  if (auto v = args.value("--timeout")) {
    char* end = nullptr;
    const double seconds = std::strtod(v->c_str(), &end);
    if (v->empty() || end != v->c_str() + v->size() || !(seconds > 0) || seconds > 86400)
      return fail("simulate", "--timeout '" + *v + "': expected seconds between 0 and 86400");
    runOptions.timeout = std::chrono::milliseconds(static_cast<long long>(seconds * 1000));
  }

  auto inputs = astraSimInputsForExport(args.positional().front());
  if (!inputs) return fail("simulate", inputs.error().message);
  auto binary = findAstraSimBinary();
  if (!binary) return fail("simulate", binary.error().message);

  // Sutra's own replay of the same graphs, all ranks together.
  std::vector<std::string> files;
  for (int r = 0; r < inputs->npus; ++r) files.push_back(chakra::rankFileName(inputs->workload, r));
  RunOptions options;
  options.chakraGraphs = true;
  options.wholeTraceTable = false;
  options.chakra = chakra;
  auto run = openRun(files, options);
  if (!run) return fail("simulate", run.error().message);
  auto sutra = simulateRun(*run);
  if (!sutra) return fail("simulate", sutra.error().message);
  std::map<int, TimeNs> sutraByRank;
  for (const auto& o : sutra->ranks) sutraByRank[o.rank->rank] = o.projection.simulatedNs;

  auto astra = runAstraSim(*binary, *inputs, runOptions);
  if (!astra) return fail("simulate", astra.error().message);

  std::vector<RankRow> rows;
  for (const auto& f : astra->ranks) {
    RankRow row;
    row.rank = f.rank;
    row.astraSimNs = f.cycles;  // the analytical backend's cycle is a nanosecond
    row.exposedCommNs = f.exposedComm;
    auto measured = measuredSpanNs(chakra::rankFileName(inputs->workload, f.rank));
    if (!measured) return fail("simulate", measured.error().message);
    row.measuredNs = *measured;
    if (auto it = sutraByRank.find(f.rank); it != sutraByRank.end()) row.sutraNs = it->second;
    rows.push_back(row);
  }

  if (args.flag("--json")) {
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& row : rows)
      ranks.push_back({{"rank", row.rank},
                       {"measured_ns", nsOrNull(row.measuredNs)},
                       {"sutra_ns", nsOrNull(row.sutraNs)},
                       {"astra_sim_ns", row.astraSimNs},
                       {"astra_sim_exposed_comm_ns", nsOrNull(row.exposedCommNs)}});
    const nlohmann::json out = {{"engine", "astra-sim"},
                                {"binary", *binary},
                                {"workload", inputs->workload},
                                {"network", inputs->network},
                                {"system", inputs->system},
                                {"memory", inputs->memory},
                                {"ranks", ranks}};
    std::printf("%s\n", jsonText(out).c_str());
    return kExitOk;
  }
  std::printf("ASTRA-sim (%s) on %s: %d ranks\n", binary->c_str(), inputs->workload.c_str(),
              inputs->npus);
  std::printf("  network %s, system %s\n", inputs->network.c_str(), inputs->system.c_str());
  std::printf("  %6s %14s %14s %14s %16s\n", "rank", "measured", "Sutra", "ASTRA-sim",
              "exposed comm");
  for (const auto& row : rows)
    std::printf("  %6d %14s %14s %14s %16s\n", row.rank, durationOr(row.measuredNs).c_str(),
                durationOr(row.sutraNs).c_str(), formatDuration(row.astraSimNs).c_str(),
                durationOr(row.exposedCommNs).c_str());
  return kExitOk;
}

}  // namespace sutra::cli
