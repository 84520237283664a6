// SPDX-License-Identifier: MIT
#pragma once
// ASTRA-sim's three configuration files, written beside a Chakra export so that ASTRA-sim can run
// it as it is: PREFIX.network.yml (a ring of the exported ranks, with a bandwidth and a latency
// fitted to the collectives the trace measured), PREFIX.system.json (ring collectives, roofline
// only where every compute node says how much work it does) and PREFIX.memory.json (no remote
// memory). Sutra does not grow its own cluster simulator: beyond one machine, ASTRA-sim is the
// engine, and these files are what it needs to start from the measured run.
#include <cstddef>
#include <string>
#include <vector>

#include "chakra/et_file.h"
#include "util/result.h"

namespace sutra::chakra {

// The values ASTRA-sim's own examples use (and ../shared/traces/astra-sim/README.md), taken where
// the trace has nothing to fit them from.
inline constexpr double kAstraSimDefaultBandwidthGBps = 50.0;
inline constexpr double kAstraSimDefaultLatencyNs = 500.0;
inline constexpr double kAstraSimDefaultPeakPerfTflops = 900.0;
inline constexpr double kAstraSimDefaultLocalMemBwGBps = 1600.0;

// One measured collective of the export: a COMM_COLL_NODE's comm_type, comm_size and duration.
struct CollectiveSample {
  int commType = 0;  // ChakraProtoMsg::CollectiveCommType
  double bytes = 0;  // comm_size
  double durationNs = 0;
  double startNs = -1;  // where the node says (-1: unknown)
};

// What the fit needs from an export, gathered rank by rank so the graphs need not stay in memory.
struct AstraSimFitInput {
  std::vector<std::vector<CollectiveSample>> rankCollectives;  // each rank's, in file order
  std::size_t computeNodes = 0;                                // COMP_NODEs
  std::size_t computeNodesWithOps = 0;  // of which with num_ops and a tensor_size > 0
  double computeOps = 0;                // num_ops over the device compute nodes that ran
  double computeNs = 0;                 // and their measured time

  void addRank(const ChakraTrace& trace);
  // The same node by node (a conversion encoded as it is built): beginRank, then each node in
  // file order.
  void beginRank();
  void addNode(const ChakraProtoMsg::Node& node);
  void addNode(const NodeFacts& node);  // the same from what the encoder gives
  // Appends `other`'s ranks and counts: a rank gathered on its own, kept once it was written.
  void add(AstraSimFitInput&& other);
  // The collectives the fit uses: the n-th collective of every rank (where the ranks agree on its
  // type and size) at the shortest of its ranks' durations. A collective ends for all its ranks
  // together, so the others' longer durations are waits for the last to arrive, which ASTRA-sim
  // simulates itself; the last arriver's duration is the transfer. Collectives that ran back to
  // back on every rank (each starting at the previous one's end: the shares of an overlapped run,
  // astra_sim_graph.h) are taken together, from the rank whose run of them was shortest: each
  // rank shares their common time out among them in its own way, and the shortest of each share
  // would add up to less than any rank took.
  std::vector<CollectiveSample> matchedCollectives() const;
};

struct AstraSimConfig {
  int npus = 0;  // the ranks exported
  double bandwidthGBps = kAstraSimDefaultBandwidthGBps;
  double latencyNs = kAstraSimDefaultLatencyNs;
  // system.json's local-mem-bw (GB/s): the reduction's memory traffic in every collective step;
  // raised where ASTRA-sim's collectives could not be as fast as the measured ones without.
  double localMemBwGBps = kAstraSimDefaultLocalMemBwGBps;
  std::size_t collectivesFitted = 0;  // 0: the network is the defaults
  std::string networkBasis;           // how bandwidth and latency were chosen, in words
  // The fitted ring against the collectives it was fitted to: root mean square and the largest
  // error as a share of the measured duration (0 where nothing was fitted).
  double residualRmsNs = 0;
  double residualMaxRelative = 0;
  bool roofline = false;
  double peakPerfTflops = kAstraSimDefaultPeakPerfTflops;
  std::string computeBasis;  // why roofline is on or off, and where peak-perf comes from
};

// The ring's cost of one collective as ASTRA-sim's Ring algorithm runs it on `groupSize` NPUs:
// the link latencies paid (its steps) and the bytes each NPU sends, for comm_size `bytes`.
// Collectives the fit leaves out (broadcast, whose measured time ASTRA-sim replays, and the kinds
// ASTRA-sim rejects) give zero steps.
struct RingCost {
  double steps = 0;
  double bytes = 0;
};
RingCost ringCost(int commType, double bytes, int groupSize);

// Bandwidth and latency by least squares of duration = latency * steps + bytes / bandwidth over
// the measured collectives (matchedCollectives); the defaults where there are none; the roofline
// settings from the compute nodes. Never fails: every gap falls back to a documented default, said
// in the basis.
AstraSimConfig fitAstraSimConfig(const AstraSimFitInput& input, int npus);

struct AstraSimConfigPaths {
  std::string network;  // PREFIX.network.yml
  std::string system;   // PREFIX.system.json
  std::string memory;   // PREFIX.memory.json
  std::vector<std::string> all() const { return {network, system, memory}; }
};
AstraSimConfigPaths astraSimConfigPaths(const std::string& prefix);

// The files' text, for the writer and the tests.
std::string astraSimNetworkYaml(const AstraSimConfig& config);
std::string astraSimSystemJson(const AstraSimConfig& config);
std::string astraSimMemoryJson();

// Whether the three files may be written: none is one of protectedPaths (the inputs) or exists as
// anything but a regular file. Checked before anything of an export is written.
Status checkAstraSimConfigTargets(const std::string& prefix,
                                  const std::vector<std::string>& protectedPaths);

// Writes the three files atomically, never over a path in protectedPaths (the inputs) nor over
// anything that is not a regular file. Returns the paths written.
Result<AstraSimConfigPaths> writeAstraSimConfig(const AstraSimConfig& config,
                                                const std::string& prefix,
                                                const std::vector<std::string>& protectedPaths);

}  // namespace sutra::chakra
