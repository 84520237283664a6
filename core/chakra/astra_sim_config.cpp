// SPDX-License-Identifier: MIT
#include "chakra/astra_sim_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

#include "chakra/network_model.h"
#include "util/atomic_file.h"

namespace sutra::chakra {

namespace {

// ASTRA-sim's analytical backend reads "GB/s" as 2^30 bytes per second (bw_GBps_to_Bpns).
constexpr double kBytesPerGB = 1073741824.0;
// system.json's preferred-dataset-splits: ASTRA-sim cuts each collective into this many chunks
// and, with one active chunk per dimension, runs them one after another, so every chunk pays
// the ring's link latencies again.
constexpr int kDatasetSplits = 4;

double bytesPerNsToGBps(double bytesPerNs) { return bytesPerNs * 1e9 / kBytesPerGB; }

}  // namespace

void AstraSimFitInput::addRank(const ChakraTrace& trace) {
  beginRank();
  for (const auto& node : trace.nodes) addNode(node);
}

void AstraSimFitInput::beginRank() { rankCollectives.emplace_back(); }

void AstraSimFitInput::add(AstraSimFitInput&& other) {
  for (auto& rank : other.rankCollectives) rankCollectives.push_back(std::move(rank));
  computeNodes += other.computeNodes;
  computeNodesWithOps += other.computeNodesWithOps;
  computeOps += other.computeOps;
  computeNs += other.computeNs;
}

void AstraSimFitInput::addNode(const ChakraProtoMsg::Node& node) { addNode(nodeFacts(node)); }

void AstraSimFitInput::addNode(const NodeFacts& node) {
  if (rankCollectives.empty()) beginRank();
  if (node.type == ChakraProtoMsg::COMM_COLL_NODE) {
    CollectiveSample sample;
    sample.commType = static_cast<int>(node.commType.value_or(-1));
    sample.bytes = static_cast<double>(node.commSize.value_or(0));
    sample.durationNs = static_cast<double>(node.durationMicros) * 1000.0;
    if (node.startMicros) sample.startNs = static_cast<double>(*node.startMicros) * 1000.0;
    rankCollectives.back().push_back(sample);
  } else if (node.type == ChakraProtoMsg::COMP_NODE) {
    ++computeNodes;
    const std::int64_t ops = node.numOps.value_or(-1);
    // ASTRA-sim's roofline divides num_ops by tensor_size and rejects a node without either.
    if (ops < 0 || node.tensorSize.value_or(0) <= 0) return;
    ++computeNodesWithOps;
    if (!node.cpuOp && ops > 0 && node.durationMicros > 0) {  // device compute
      computeOps += static_cast<double>(ops);
      computeNs += static_cast<double>(node.durationMicros) * 1000.0;
    }
  }
}

namespace {

// Where every rank has as many collectives, of the same types and sizes, all timed: the indices
// where a run of back-to-back collectives starts on every rank (the first always does).
std::optional<std::vector<std::size_t>> commonRunStarts(
    const std::vector<std::vector<CollectiveSample>>& ranks) {
  const std::size_t count = ranks.front().size();
  std::vector<char> starts(count, 1);
  for (const auto& rank : ranks) {
    if (rank.size() != count) return std::nullopt;
    for (std::size_t i = 0; i < count; ++i) {
      const CollectiveSample& c = rank[i];
      if (c.startNs < 0 || c.commType != ranks.front()[i].commType ||
          c.bytes != ranks.front()[i].bytes)
        return std::nullopt;
      // Back to back: starting at the previous one's end to the microsecond (as the layout
      // shares a union out; measured collectives meet so exactly only by chance).
      if (i > 0 && rank[i - 1].durationNs > 0 &&
          c.startNs == rank[i - 1].startNs + rank[i - 1].durationNs)
        starts[i] = 0;
    }
  }
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < count; ++i)
    if (starts[i]) out.push_back(i);
  return out;
}

}  // namespace

std::vector<CollectiveSample> AstraSimFitInput::matchedCollectives() const {
  std::vector<CollectiveSample> out;
  if (rankCollectives.empty()) return out;
  if (rankCollectives.size() > 1 && !rankCollectives.front().empty()) {
    if (const auto runs = commonRunStarts(rankCollectives);
        runs && runs->size() < rankCollectives.front().size()) {
      // Runs of back-to-back collectives: each from the rank whose run was shortest.
      const std::size_t count = rankCollectives.front().size();
      for (std::size_t k = 0; k < runs->size(); ++k) {
        const std::size_t from = (*runs)[k], to = k + 1 < runs->size() ? (*runs)[k + 1] : count;
        std::size_t best = 0;
        double bestNs = 0;
        for (std::size_t r = 0; r < rankCollectives.size(); ++r) {
          double ns = 0;
          for (std::size_t i = from; i < to; ++i) ns += rankCollectives[r][i].durationNs;
          if (r == 0 || ns < bestNs) {
            best = r;
            bestNs = ns;
          }
        }
        for (std::size_t i = from; i < to; ++i) out.push_back(rankCollectives[best][i]);
      }
      return out;
    }
  }
  std::size_t count = 0;
  for (const auto& rank : rankCollectives) count = std::max(count, rank.size());
  for (std::size_t i = 0; i < count; ++i) {
    std::optional<CollectiveSample> shortest;
    bool agree = true;
    for (const auto& rank : rankCollectives) {
      if (i >= rank.size()) continue;  // a rank with fewer: the others still tell
      const CollectiveSample& c = rank[i];
      if (!shortest) {
        shortest = c;
        continue;
      }
      agree &= c.commType == shortest->commType && c.bytes == shortest->bytes;
      shortest->durationNs = std::min(shortest->durationNs, c.durationNs);
    }
    if (!agree) {
      // The ranks' n-th collectives differ (ranks in different groups): each as measured.
      for (const auto& rank : rankCollectives)
        if (i < rank.size()) out.push_back(rank[i]);
      continue;
    }
    if (shortest) out.push_back(*shortest);
  }
  return out;
}

RingCost ringCost(int commType, double bytes, int groupSize) {
  if (groupSize < 2 || bytes <= 0) return {};
  const double n = groupSize;
  RingCost cost;
  // Ring.cc: the steps (stream_count) and the message of each step, per comm_type.
  switch (commType) {
    case ChakraProtoMsg::ALL_REDUCE:  // reduce-scatter then all-gather: 2(n-1) steps of size/n
      cost = {2 * (n - 1), 2 * (n - 1) * bytes / n};
      break;
    case ChakraProtoMsg::ALL_GATHER:  // ASTRA-sim takes comm_size as each NPU's part
      cost = {n - 1, (n - 1) * bytes};
      break;
    case ChakraProtoMsg::REDUCE_SCATTER:
      cost = {n - 1, (n - 1) * bytes / n};
      break;
    case ChakraProtoMsg::ALL_TO_ALL:  // n(n-1)/2 steps of size/n
      cost = {n * (n - 1) / 2, (n - 1) * bytes / 2};
      break;
    default:  // broadcast (replayed at its measured time) and what ASTRA-sim rejects
      return {};
  }
  cost.steps *= kDatasetSplits;
  return cost;
}

namespace {

// The collectives the ring fit uses, as ASTRA-sim's analytical backend costs them on `config`
// (chakra/network_model.h, which matches it): each with its measured duration. Empty where
// the model cannot cost one.
std::vector<std::pair<double, double>> modelledCollectives(
    const AstraSimConfig& config, const std::vector<CollectiveSample>& samples) {
  NetworkConfig network;
  network.dims.push_back(
      {NetworkTopology::Ring, config.npus, config.bandwidthGBps, config.latencyNs});
  auto system = parseSystemConfig(astraSimSystemJson(config), "system.json");
  if (!system) return {};
  const NetworkModel model(std::move(network), std::move(*system));
  std::vector<std::pair<double, double>> out;
  for (const auto& c : samples) {
    if (ringCost(c.commType, c.bytes, config.npus).steps <= 0 || c.durationNs <= 0) continue;
    std::optional<CollectiveKind> kind;
    switch (c.commType) {
      case ChakraProtoMsg::ALL_REDUCE:
        kind = CollectiveKind::AllReduce;
        break;
      case ChakraProtoMsg::ALL_GATHER:
        kind = CollectiveKind::AllGather;
        break;
      case ChakraProtoMsg::REDUCE_SCATTER:
        kind = CollectiveKind::ReduceScatter;
        break;
      case ChakraProtoMsg::ALL_TO_ALL:
        kind = CollectiveKind::AllToAll;
        break;
      default:
        break;
    }
    if (!kind) continue;
    auto ns = model.collectiveNs(*kind, static_cast<std::uint64_t>(c.bytes), config.npus);
    if (!ns) return {};
    out.emplace_back(static_cast<double>(*ns), c.durationNs);
  }
  return out;
}

// The ring's least squares leave out what ASTRA-sim adds to a collective (chunks, endpoint
// delays, the local reduction): the bandwidth is tuned (bisection) until ASTRA-sim's own cost of
// the measured collectives adds up to their measured time, and the residuals are those of that
// cost, what ASTRA-sim will be off by.
void tuneOnNetworkModel(AstraSimConfig& config, const std::vector<CollectiveSample>& samples) {
  auto excess = [&](double gbps) {
    AstraSimConfig trial = config;
    trial.bandwidthGBps = gbps;
    double sum = 0;
    const auto costs = modelledCollectives(trial, samples);
    for (const auto& [model, measured] : costs) sum += model - measured;
    return std::make_pair(sum, !costs.empty());
  };
  double lo = config.bandwidthGBps / 16, hi = config.bandwidthGBps * 1024;
  auto [atLo, okLo] = excess(lo);
  auto [atHi, okHi] = excess(hi);
  if (okHi && atHi > 0 && config.latencyNs > 0) {
    // Too slow at any bandwidth: ASTRA-sim pays the link latency on every step of every chunk,
    // more than the collectives took. The latency goes, the bandwidth takes all.
    config.latencyNs = 0;
    config.networkBasis +=
        ", latency 0 (ASTRA-sim's chunked ring paid it more often than the "
        "measured collectives allow)";
    std::tie(atLo, okLo) = excess(lo);
    std::tie(atHi, okHi) = excess(hi);
  }
  for (int raise = 0; raise < 3 && okHi && atHi > 0; ++raise) {
    // Still too slow: the local reduction's memory traffic alone takes longer than the measured
    // collectives did. Its bandwidth is raised until it does not.
    config.localMemBwGBps *= 64;
    std::tie(atLo, okLo) = excess(lo);
    std::tie(atHi, okHi) = excess(hi);
    if (okHi && atHi <= 0) {
      char raised[128];
      std::snprintf(raised, sizeof raised,
                    ", local-mem-bw %.0f GB/s (the reduction's memory traffic at %.0f took longer "
                    "than the measured collectives)",
                    config.localMemBwGBps, kAstraSimDefaultLocalMemBwGBps);
      config.networkBasis += raised;
    }
  }
  if (okLo && okHi && atLo > 0 && atHi < 0) {
    for (int i = 0; i < 60; ++i) {
      const double mid = std::sqrt(lo * hi);
      (excess(mid).first > 0 ? lo : hi) = mid;
    }
    config.bandwidthGBps = std::sqrt(lo * hi);
    config.networkBasis += ", bandwidth tuned to ASTRA-sim's collective cost";
  }
  double squares = 0;
  const auto costs = modelledCollectives(config, samples);
  for (const auto& [model, measured] : costs) {
    squares += (model - measured) * (model - measured);
    config.residualMaxRelative =
        std::max(config.residualMaxRelative, std::abs(model - measured) / measured);
  }
  if (costs.empty()) return;
  config.residualRmsNs = std::sqrt(squares / static_cast<double>(costs.size()));
  char residuals[128];
  std::snprintf(
      residuals, sizeof residuals,
      "; ASTRA-sim's cost of the measured collectives off by rms %.3f us, at most %.1f %%",
      config.residualRmsNs / 1000.0, 100.0 * config.residualMaxRelative);
  config.networkBasis += residuals;
}

}  // namespace

AstraSimConfig fitAstraSimConfig(const AstraSimFitInput& input, int npus) {
  AstraSimConfig config;
  config.npus = npus;

  // Least squares of duration = latency * steps + bytes * nsPerByte over the collectives the
  // ring model prices: two unknowns, so the 2x2 normal equations. Measured durations include the
  // wait for the slowest rank, so the fit errs towards a slower network, never a faster one.
  double ss = 0, sb = 0, bb = 0, sd = 0, bd = 0;
  std::size_t used = 0;
  for (const auto& c : input.matchedCollectives()) {
    const RingCost cost = ringCost(c.commType, c.bytes, npus);
    if (cost.steps <= 0 || c.durationNs <= 0) continue;
    ss += cost.steps * cost.steps;
    sb += cost.steps * cost.bytes;
    bb += cost.bytes * cost.bytes;
    sd += cost.steps * c.durationNs;
    bd += cost.bytes * c.durationNs;
    ++used;
  }
  if (used == 0) {
    config.networkBasis =
        npus < 2 ? "defaults: one rank, no ring to fit"
                 : "defaults: no all-reduce, all-gather, reduce-scatter or all-to-all measured";
  } else {
    double latency = kAstraSimDefaultLatencyNs;
    double nsPerByte = 0;
    const double det = ss * bb - sb * sb;
    std::string how;
    if (det > 1e-9 * ss * bb) {
      latency = (sd * bb - bd * sb) / det;
      nsPerByte = (ss * bd - sb * sd) / det;
      how = "least squares";
    } else {
      // One size (or sizes in proportion to the steps): latency and bandwidth cannot be told
      // apart, so the latency stays the default and the bandwidth takes the rest.
      nsPerByte = (bd - latency * sb) / bb;
      how = "bandwidth fitted, latency default (one collective size)";
    }
    if (latency < 0 || nsPerByte <= 0) {
      // A negative latency (small collectives faster than the line through the large ones):
      // none, and all of the time is bandwidth.
      latency = 0;
      nsPerByte = bd / bb;
      how += ", latency clamped to 0";
    }
    if (nsPerByte > 0) {
      config.bandwidthGBps = bytesPerNsToGBps(1.0 / nsPerByte);
      config.latencyNs = latency;
      config.collectivesFitted = used;
      config.networkBasis =
          how + " over " + std::to_string(used) + " collective(s), ring of " + std::to_string(npus);
      tuneOnNetworkModel(config, input.matchedCollectives());
    } else {
      config.networkBasis = "defaults: the collectives' durations fit no positive bandwidth";
    }
  }

  // Roofline only where ASTRA-sim can price every compute node; else each replays its measured
  // duration_micros. Peak performance: the device compute's measured throughput, ops / time.
  config.roofline = input.computeNodes > 0 && input.computeNodesWithOps == input.computeNodes;
  if (!config.roofline) {
    config.computeBasis =
        input.computeNodes == 0
            ? "roofline off: no compute nodes"
            : "roofline off: " + std::to_string(input.computeNodes - input.computeNodesWithOps) +
                  " of " + std::to_string(input.computeNodes) +
                  " compute node(s) without num_ops and tensor_size";
  } else if (input.computeOps > 0 && input.computeNs > 0) {
    config.peakPerfTflops = input.computeOps / input.computeNs / 1000.0;  // ops/ns -> TFLOPS
    config.computeBasis = "roofline on: peak-perf from the device compute's measured throughput";
  } else {
    config.computeBasis = "roofline on: peak-perf default (no device compute with time)";
  }
  return config;
}

AstraSimConfigPaths astraSimConfigPaths(const std::string& prefix) {
  return {prefix + ".network.yml", prefix + ".system.json", prefix + ".memory.json"};
}

std::string astraSimNetworkYaml(const AstraSimConfig& config) {
  auto one = [](YAML::Emitter& out, const char* key, const auto& value) {
    out << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq << value << YAML::EndSeq;
  };
  YAML::Emitter out;
  out.SetDoublePrecision(6);
  out << YAML::BeginMap;
  one(out, "topology", "Ring");
  one(out, "npus_count", config.npus);
  one(out, "bandwidth", config.bandwidthGBps);  // GB/s
  one(out, "latency", config.latencyNs);        // ns
  out << YAML::EndMap;
  std::string text = out.c_str();
  text += "\n# " + config.networkBasis + "\n";
  return text;
}

std::string astraSimSystemJson(const AstraSimConfig& config) {
  // ASTRA-sim's examples/system/native_collectives/Ring_4chunks.json, roofline as fitted.
  const nlohmann::json system = {{"scheduling-policy", "LIFO"},
                                 {"endpoint-delay", 10},
                                 {"active-chunks-per-dimension", 1},
                                 {"preferred-dataset-splits", kDatasetSplits},
                                 {"all-reduce-implementation", {"ring"}},
                                 {"all-gather-implementation", {"ring"}},
                                 {"reduce-scatter-implementation", {"ring"}},
                                 {"all-to-all-implementation", {"ring"}},
                                 {"collective-optimization", "localBWAware"},
                                 {"local-mem-bw", config.localMemBwGBps},
                                 {"boost-mode", 0},
                                 {"roofline-enabled", config.roofline ? 1 : 0},
                                 {"peak-perf", config.peakPerfTflops}};
  return system.dump(2) + "\n";
}

std::string astraSimMemoryJson() {
  return nlohmann::json{{"memory-type", "NO_MEMORY_EXPANSION"}}.dump(2) + "\n";
}

Status checkAstraSimConfigTargets(const std::string& prefix,
                                  const std::vector<std::string>& protectedPaths) {
  for (const auto& path : astraSimConfigPaths(prefix).all()) {
    if (isOneOfInputs(path, protectedPaths))
      return makeError(path, "refusing to overwrite an input");
    std::error_code ec;
    const auto status = std::filesystem::symlink_status(path, ec);
    if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
      return makeError(path, "exists and is not a regular file: not replaced");
  }
  return Ok{};
}

Result<AstraSimConfigPaths> writeAstraSimConfig(const AstraSimConfig& config,
                                                const std::string& prefix,
                                                const std::vector<std::string>& protectedPaths) {
  const AstraSimConfigPaths paths = astraSimConfigPaths(prefix);
  AtomicFileOptions options;
  options.protectedPaths = protectedPaths;
  // Every target checked before the first is written, so a refusal leaves none half-replaced.
  if (auto ok = checkAstraSimConfigTargets(prefix, protectedPaths); !ok) return ok.error();
  const std::pair<const std::string*, std::string> files[] = {
      {&paths.network, astraSimNetworkYaml(config)},
      {&paths.system, astraSimSystemJson(config)},
      {&paths.memory, astraSimMemoryJson()}};
  for (const auto& [path, text] : files)
    if (auto ok = writeFileAtomically(*path, text, options); !ok) return ok.error();
  return paths;
}

}  // namespace sutra::chakra
