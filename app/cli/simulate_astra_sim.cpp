// SPDX-License-Identifier: MIT
// `sutra-cli simulate --engine astra-sim PREFIX`: ASTRA-sim on a convert export beside what was
// measured and what Sutra's replay of the same graphs gives, rank by rank.
#include "simulate_astra_sim.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "command.h"
#include "model/time.h"
#include "session/astra_sim_comparison.h"
#include "simulate/astra_sim_engine.h"

namespace sutra::cli {

namespace {

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
  // What if another network: the given files instead of those fitted beside the export (Sutra's
  // replay costs its communication the same way, through the options already parsed).
  if (auto network = args.value("--network")) inputs->network = *network;
  if (auto system = args.value("--system")) inputs->system = *system;
  auto binary = findAstraSimBinary();
  if (!binary) return fail("simulate", binary.error().message);

  // Sutra's replay, ASTRA-sim and the measured spans: the one comparison the window runs too.
  auto compared = compareWithAstraSim(*binary, *inputs, chakra, runOptions);
  if (!compared) return fail("simulate", compared.error().message);
  const std::vector<AstraSimRankRow>& rows = compared->rows;

  if (args.flag("--json")) {
    nlohmann::json ranks = nlohmann::json::array();
    for (const auto& row : rows)
      ranks.push_back({{"rank", row.rank},
                       {"measured_ns", nsOrNull(row.measuredNs)},
                       {"sutra_ns", nsOrNull(row.sutraNs)},
                       {"astra_model_ns", nsOrNull(row.astraModelNs)},
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
  std::printf("  network %s (%s), system %s\n", inputs->network.c_str(),
              describeAstraSimNetwork(inputs->network).c_str(), inputs->system.c_str());
  std::printf("  %6s %14s %14s %14s %14s %16s\n", "rank", "measured", "Sutra", "astra-model",
              "ASTRA-sim", "exposed comm");
  for (const auto& row : rows)
    std::printf("  %6d %14s %14s %14s %14s %16s\n", row.rank, durationOr(row.measuredNs).c_str(),
                durationOr(row.sutraNs).c_str(), durationOr(row.astraModelNs).c_str(),
                formatDuration(row.astraSimNs).c_str(), durationOr(row.exposedCommNs).c_str());
  return kExitOk;
}

}  // namespace sutra::cli
