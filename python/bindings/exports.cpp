// SPDX-License-Identifier: MIT
// What a run becomes besides tables: its simulation under what-if knobs (per step, measured,
// replayed and projected), its Chakra .et files and its ranks' ET+ files.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chakra/convert_files.h"
#include "run_handle.h"
#include "session/rank_exports.h"
#include "session/run_simulation.h"

namespace sutra::python {
namespace {

using Scales = std::vector<std::pair<std::string, double>>;

SimKnobs knobsOf(const Scales& scales, const Scales& cpuScales, double networkSpeed,
                 std::optional<double> launchLatencyUs, double launchLatencyScale, double cpuSpeed,
                 bool noSync) {
  SimKnobs knobs;
  for (const auto& [pattern, factor] : scales) knobs.scales.push_back({pattern, factor});
  for (const auto& [pattern, factor] : cpuScales) knobs.hostScales.push_back({pattern, factor});
  knobs.networkSpeed = networkSpeed;
  if (launchLatencyUs) knobs.launchLatencyNs = valueOr(launchLatencyFromMicros(*launchLatencyUs));
  knobs.launchLatencyScale = launchLatencyScale;
  knobs.cpuSpeed = cpuSpeed;
  knobs.dropSyncs = noSync;
  if (auto ok = validateKnobs(knobs); !ok) throw CoreError(ok.error().message);
  return knobs;
}

// One row per rank and step: measured, replayed as measured, projected under the knobs.
nb::dict simulate(const RunHandle& h, const SimKnobs& knobs, std::optional<std::int64_t> step) {
  for (const auto& rank : h.run.ranks)
    if (!rank->has(RunStage::Simulate))
      throw CoreError(rank->path() + ": not simulated (open it with until='simulate')");
  std::optional<Result<RunSimulation>> simulated;
  {
    nb::gil_scoped_release release;
    SimulateOptions options;
    options.onlyStep = step;
    simulated.emplace(simulateRun(h.run, knobs, options));
  }
  const RunSimulation sim = valueOr(std::move(*simulated));
  nb::list rows;
  for (const RankSimulationResult& r : sim.ranks) {
    const auto& projected = r.projection.steps;
    const auto& replayed = r.baselineProjection.steps;
    for (std::size_t i = 0; i < projected.size(); ++i) {
      nb::dict row;
      row["rank"] = r.rank->rank;
      row["step"] = projected[i].number;
      row["name"] = projected[i].name;
      row["measured_ns"] = projected[i].measuredNs;
      row["replayed_ns"] = i < replayed.size() ? replayed[i].simulatedNs : projected[i].simulatedNs;
      row["projected_ns"] = projected[i].simulatedNs;
      rows.append(row);
    }
  }
  nb::dict out;
  out["rows"] = rows;
  out["knobs"] = describeKnobs(knobs);
  out["collectives_matched"] = sim.matching.collectives.size();
  out["network"] = sim.network.basis;
  return out;
}

nb::list toChakra(const RunHandle& h, const std::string& prefix, bool gzip, nb::object progress) {
  std::vector<chakra::RankExportInput> inputs;
  std::vector<std::string> inputPaths;
  for (const auto& rank : h.run.ranks) {
    if (!rank->trace) continue;
    inputs.push_back({rank->rank, rank->trace, rank->et(), rank->etPath, rank->linked()});
    inputPaths.push_back(rank->kinetoPath);
    if (!rank->etPath.empty()) inputPaths.push_back(rank->etPath);
  }
  if (inputs.empty()) throw CoreError("the run has no rank with a Kineto trace to export");
  chakra::ChakraExportSummary summary;
  runCancellable(
      [&](const CancelToken& cancel, const ProgressSink& sink) {
        chakra::ChakraWriteOptions write;
        write.gzip = gzip;
        write.protectedPaths = inputPaths;
        const auto onProgress = [&](int rankIndex, int rankCount, chakra::ExportStage stage) {
          const int steps = rankCount * chakra::kExportStages;
          const int done = rankIndex * chakra::kExportStages + static_cast<int>(stage);
          sink(steps ? done * 100 / steps : 100, chakra::exportStageName(stage));
          return !cancel.canceled();
        };
        summary = chakra::exportChakraTraces(inputs, prefix, write, onProgress);
      },
      progress);
  if (summary.canceled) throw CoreError(kCanceled);
  nb::list ranks;
  for (const auto& r : summary.ranks) {
    nb::dict row;
    row["rank"] = r.rank;
    row["path"] = r.path;
    row["nodes"] = r.nodes;
    row["edges"] = r.edges;
    row["matching"] = r.matching;
    row["et_path"] = r.etPath;
    row["error"] = r.error;
    row["problems"] = r.problems;
    ranks.append(row);
  }
  return ranks;
}

std::string toEtPlus(const RunHandle& h, std::size_t index, const std::string& path) {
  if (index >= h.run.ranks.size()) throw nb::index_error("no such rank index");
  const RankRun& rank = *h.run.ranks[index];
  if (!rank.trace) throw CoreError(rank.path() + ": a Chakra graph alone has no ET+ form");
  std::vector<std::string> inputs = {rank.kinetoPath};
  if (!rank.etPath.empty()) inputs.push_back(rank.etPath);
  std::string matching;
  Status written = Ok{};
  {
    nb::gil_scoped_release release;
    written = writeRankEtPlus(rank, path, inputs, &matching);
  }
  if (!written) throw CoreError(written.error().message);
  return matching;
}

}  // namespace

void bindExports(nb::module_& m) {
  m.def(
      "simulate",
      [](const RunHandle& h, const Scales& scales, const Scales& cpuScales, double networkSpeed,
         std::optional<double> launchLatencyUs, double launchLatencyScale, double cpuSpeed,
         bool noSync, std::optional<std::int64_t> step) {
        return simulate(h,
                        knobsOf(scales, cpuScales, networkSpeed, launchLatencyUs,
                                launchLatencyScale, cpuSpeed, noSync),
                        step);
      },
      nb::arg("run"), nb::arg("scales"), nb::arg("scale_cpu"), nb::arg("network_speed"),
      nb::arg("launch_latency_us").none(), nb::arg("launch_latency_scale"), nb::arg("cpu_speed"),
      nb::arg("no_sync"), nb::arg("step").none());
  m.def("to_chakra", &toChakra, nb::arg("run"), nb::arg("prefix"), nb::arg("gzip"),
        nb::arg("progress").none());
  m.def("to_et_plus", &toEtPlus, nb::arg("run"), nb::arg("rank"), nb::arg("path"));
}

}  // namespace sutra::python
