// SPDX-License-Identifier: MIT
// ASTRA-sim beside measured and Sutra, rank by rank (moved from the CLI so the window shares it).
#include "session/astra_sim_comparison.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>

#include "chakra/convert_files.h"
#include "chakra/et_file.h"
#include "chakra/network_model.h"
#include "session/run.h"
#include "session/run_simulation.h"
#include "simulate/astra_model.h"

namespace sutra {

namespace {

const char* topologyName(NetworkTopology topology) {
  switch (topology) {
    case NetworkTopology::Ring:
      return "Ring";
    case NetworkTopology::FullyConnected:
      return "FullyConnected";
    case NetworkTopology::Switch:
      return "Switch";
  }
  return "?";
}

// A number as a person writes it: no trailing zeros ("500", "164.5").
std::string plainNumber(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.1f", value);
  std::string out = text;
  if (out.size() > 2 && out.compare(out.size() - 2, 2, ".0") == 0) out.resize(out.size() - 2);
  return out;
}

}  // namespace

Result<std::optional<TimeNs>> chakraMeasuredSpanNs(const std::string& etPath) {
  auto trace = chakra::readChakraTrace(etPath);
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

std::string describeAstraSimNetwork(const std::string& networkYmlPath) {
  auto network = readNetworkConfig(networkYmlPath);
  if (!network) return network.error().message;
  std::string out;
  for (const auto& dim : network->dims)
    out += (out.empty() ? "" : "; ") + std::string(topologyName(dim.topology)) + ", " +
           std::to_string(dim.npus) + " NPUs, " + plainNumber(dim.bandwidthGBps) + " GB/s, " +
           plainNumber(dim.latencyNs) + " ns";
  return out;
}

Result<AstraSimComparison> compareWithAstraSim(const std::string& binary,
                                               const AstraSimInputs& inputs,
                                               const ChakraSimOptions& chakra,
                                               const AstraSimRunOptions& run) {
  AstraSimComparison out;
  out.binary = binary;
  out.inputs = inputs;
  out.network = describeAstraSimNetwork(inputs.network);

  // Sutra's own replay of the same graphs, all ranks together.
  std::vector<std::string> files;
  for (int r = 0; r < inputs.npus; ++r) files.push_back(chakra::rankFileName(inputs.workload, r));
  RunOptions options;
  options.chakraGraphs = true;
  options.wholeTraceTable = false;
  options.chakra = chakra;
  auto opened = openRun(files, options);
  if (!opened) return opened.error();
  auto sutra = simulateRun(*opened);
  if (!sutra) return sutra.error();
  std::map<int, TimeNs> sutraByRank;
  for (const auto& o : sutra->ranks) sutraByRank[o.rank->rank] = o.projection.simulatedNs;

  std::map<int, TimeNs> modelByRank;
  // A graph ASTRA-sim's rules cannot finish leaves the column empty: ASTRA-sim will say why.
  if (auto model = runAstraModel(inputs))
    for (const auto& r : model->ranks) modelByRank[r.rank] = r.finishNs;

  auto astra = runAstraSim(binary, inputs, run);
  if (!astra) return astra.error();

  for (const auto& f : astra->ranks) {
    AstraSimRankRow row;
    row.rank = f.rank;
    row.astraSimNs = f.cycles;
    row.exposedCommNs = f.exposedComm;
    auto measured = chakraMeasuredSpanNs(chakra::rankFileName(inputs.workload, f.rank));
    if (!measured) return measured.error();
    row.measuredNs = *measured;
    if (auto it = sutraByRank.find(f.rank); it != sutraByRank.end()) row.sutraNs = it->second;
    if (auto it = modelByRank.find(f.rank); it != modelByRank.end()) row.astraModelNs = it->second;
    out.rows.push_back(row);
  }
  return out;
}

}  // namespace sutra
