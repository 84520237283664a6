// SPDX-License-Identifier: MIT
#pragma once
// Sutra's own network model: what a collective or a point-to-point message costs on a network
// described the way ASTRA-sim describes it (its analytical backend's network.yml and, optionally,
// its system layer's system.json), so that `sutra-cli simulate --network FILE` can cost the
// communication nodes of Chakra graphs that carry a size but no time, and get the figures
// ASTRA-sim's congestion-unaware analytical backend gets.
//
// What it follows (ASTRA-sim 518bd51, astra-network-analytical 599a047):
// - a message of B bytes between two NPUs takes hops * latency + B / bandwidth on the one
//   dimension where their addresses differ (bandwidth in GiB/s as ASTRA-sim reads "GB/s":
//   2^30 bytes per 1e9 ns; truncated to whole ns). Hops: Ring 1 per step along the shorter way
//   round, FullyConnected 1, Switch 2;
// - a collective is cut into preferred-dataset-splits chunks; each chunk runs the algorithm's
//   phases (one per dimension it spans), a phase runs in its dimension's queue, and each queue
//   runs at most active-chunks-per-dimension chunks at once (the network does not slow down when
//   several run: congestion-unaware), so chunks pipeline across dimensions;
// - inside a phase every packet handed between the NPU and the network pays endpoint-delay, and a
//   packet that is reduced pays 3 * size / local-mem-bw (one write, two reads);
// - point-to-point messages pay the message time alone (ASTRA-sim sends them straight to the
//   network, with no endpoint delay and no chunking).
// Broadcast, which ASTRA-sim replays from the node's own duration, is costed as a scatter and an
// all-gather (the ring all-reduce's messages without its reductions).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/time.h"
#include "util/result.h"

namespace sutra {

enum class NetworkTopology : std::uint8_t { Ring, FullyConnected, Switch };

struct NetworkDimension {
  NetworkTopology topology = NetworkTopology::Ring;
  int npus = 2;
  double bandwidthGBps = 0;  // "GB/s" as ASTRA-sim reads it: GiB/s
  double latencyNs = 0;      // per hop
};

// network.yml: topology, npus_count, bandwidth and latency, one entry per dimension.
struct NetworkConfig {
  std::vector<NetworkDimension> dims;
  std::string path;  // where it was read from, for messages
  std::int64_t npusCount() const;
};

Result<NetworkConfig> readNetworkConfig(const std::string& path);
Result<NetworkConfig> parseNetworkConfig(std::string_view yamlText, const std::string& name);

enum class CollectiveAlgorithm : std::uint8_t { Ring, Direct, HalvingDoubling };

// system.json: the values that change a collective's cost. The defaults (used without a system
// file) are those of ASTRA-sim's examples/system/native_collectives/Ring_4chunks.json: ring for
// every collective, 4 chunks, 1 active chunk per dimension, 10 ns endpoint delay, 1600 GB/s of
// local memory bandwidth, localBWAware all-reduce (reduce-scatter, all-gather back, one
// all-reduce in the last dimension).
struct SystemConfig {
  // One per dimension; a list shorter than the network repeats its last entry.
  std::vector<CollectiveAlgorithm> allReduce{CollectiveAlgorithm::Ring};
  std::vector<CollectiveAlgorithm> allGather{CollectiveAlgorithm::Ring};
  std::vector<CollectiveAlgorithm> reduceScatter{CollectiveAlgorithm::Ring};
  std::vector<CollectiveAlgorithm> allToAll{CollectiveAlgorithm::Ring};
  int directWindow = -1;  // "directN": N messages in flight; -1 ("direct"): all peers at once
  int preferredDatasetSplits = 4;
  int activeChunksPerDimension = 1;
  TimeNs endpointDelayNs = 10;
  double localMemBwGBps = 1600;  // GB/s (1e9 bytes per s, as ASTRA-sim reads local-mem-bw)
  bool localBwAware = true;      // "collective-optimization": localBWAware, else baseline
  std::string path;              // where it was read from ("" for the defaults)
};

Result<SystemConfig> readSystemConfig(const std::string& path);
Result<SystemConfig> parseSystemConfig(std::string_view jsonText, const std::string& name);

enum class CollectiveKind : std::uint8_t {
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  Broadcast
};
std::string_view collectiveKindName(CollectiveKind kind);

class NetworkModel {
 public:
  NetworkModel(NetworkConfig network, SystemConfig system);

  // One collective of `bytes` (ASTRA-sim's comm_size: the input of each rank; for an all-gather
  // what each rank contributes) over a group of `ranks` consecutive NPUs, from the moment the last
  // rank arrives to the end. A group smaller than the network takes the first dimensions it
  // fills (a group of 8 on [8, 4] is the first dimension); the last of them holds what is left,
  // and a partial dimension counts as a ring of its own (its last NPU next to its first).
  // Fails on a group of fewer than 2 ranks or more than the network has, and on an algorithm
  // that cannot run it (halving-doubling on a dimension that is not a power of two, or for an
  // all-to-all).
  Result<TimeNs> collectiveNs(CollectiveKind kind, std::uint64_t bytes, std::int64_t ranks) const;

  // The same over the dimensions marked true (a Chakra node's involved_dim, as ASTRA-sim reads
  // it: every NPU of each dimension marked; dimensions past the list are not involved). Fails
  // when no dimension is involved.
  Result<TimeNs> collectiveOnDimensionsNs(CollectiveKind kind, std::uint64_t bytes,
                                          const std::vector<bool>& involved) const;

  // One message of `bytes` from NPU `src` to NPU `dst` (0-based, < npusCount(), different).
  Result<TimeNs> messageNs(std::int64_t src, std::int64_t dst, std::uint64_t bytes) const;

  const NetworkConfig& network() const { return network_; }
  const SystemConfig& system() const { return system_; }

 private:
  NetworkConfig network_;
  SystemConfig system_;
};

}  // namespace sutra
