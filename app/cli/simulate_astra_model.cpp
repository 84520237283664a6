// SPDX-License-Identifier: MIT
#include "simulate_astra_model.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "chakra/convert_files.h"
#include "command.h"
#include "model/time.h"
#include "session/astra_sim_comparison.h"
#include "simulate/astra_model.h"

namespace sutra::cli {

int runAstraModelEngine(const Args& args) {
  for (const char* other :
       {"--kineto", "--et", "--scale", "--launch-latency-us", "--launch-latency-scale",
        "--cpu-speed", "--step", "-o", "--comm-bandwidth-gbs", "--timeout"})
    if (args.value(other))
      return fail("simulate", std::string(other) + " does not go with --engine astra-model");
  if (args.flag("--no-sync") || args.flag("--graph-only"))
    return fail("simulate", "--no-sync and --graph-only do not go with --engine astra-model");
  if (args.positional().size() != 1)
    return fail("simulate",
                "--engine astra-model takes one PREFIX of a `sutra-cli convert` export");
  auto inputs = astraSimInputsForExport(args.positional().front());
  if (!inputs) return fail("simulate", inputs.error().message);
  if (auto network = args.value("--network")) inputs->network = *network;
  if (auto system = args.value("--system")) inputs->system = *system;
  auto run = runAstraModel(*inputs);
  if (!run) return fail("simulate", run.error().message);

  nlohmann::json ranks = nlohmann::json::array();
  if (!args.flag("--json")) {
    std::printf("astra-model (ASTRA-sim's rules) on %s: %d ranks\n", inputs->workload.c_str(),
                inputs->npus);
    std::printf("  network %s (%s), system %s\n", inputs->network.c_str(),
                describeAstraSimNetwork(inputs->network).c_str(), inputs->system.c_str());
    std::printf("  %6s %14s %14s %9s\n", "rank", "measured", "astra-model", "off");
  }
  for (const auto& r : run->ranks) {
    auto measured = chakraMeasuredSpanNs(chakra::rankFileName(inputs->workload, r.rank));
    if (!measured) return fail("simulate", measured.error().message);
    std::optional<double> off;
    if (*measured && **measured > 0)
      off = 100.0 * static_cast<double>(r.finishNs - **measured) / static_cast<double>(**measured);
    ranks.push_back({{"rank", r.rank},
                     {"measured_ns", *measured ? nlohmann::json(**measured) : nlohmann::json()},
                     {"astra_model_ns", r.finishNs},
                     {"off_percent", off ? nlohmann::json(*off) : nlohmann::json()},
                     {"nodes", r.nodes},
                     {"issued", r.issued}});
    if (args.flag("--json")) continue;
    char offText[32] = "-";
    if (off) std::snprintf(offText, sizeof offText, "%+.2f %%", *off);
    std::printf("  %6d %14s %14s %9s\n", r.rank,
                *measured ? formatDuration(**measured).c_str() : "-",
                formatDuration(r.finishNs).c_str(), offText);
  }
  if (args.flag("--json")) {
    const nlohmann::json out = {{"engine", "astra-model"},
                                {"workload", inputs->workload},
                                {"network", inputs->network},
                                {"system", inputs->system},
                                {"ranks", ranks}};
    std::printf("%s\n", jsonText(out).c_str());
    return kExitOk;
  }
  for (const auto& p : run->problems.all())
    std::printf("  %s: %s (%llu), e.g. %s\n", std::string(severityName(p.severity)).c_str(),
                p.what.c_str(), static_cast<unsigned long long>(p.count), p.example.c_str());
  return kExitOk;
}

}  // namespace sutra::cli
