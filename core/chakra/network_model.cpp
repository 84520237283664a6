// SPDX-License-Identifier: MIT
#include "chakra/network_model.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <queue>
#include <sstream>
#include <tuple>

namespace sutra {
namespace {

// ---------------------------------------------------------------------------------------------
// Reading the files

Result<std::string> readWholeFile(const std::string& path, const char* what) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return makeError(path, std::string("is a directory, not ") + what);
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(path, std::string("cannot open ") + what);
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return makeError(path, std::string("cannot read ") + what);
  return text.str();
}

std::string ordinal(std::size_t index) { return "dimension " + std::to_string(index + 1); }

// A key of network.yml as a list of scalars (a lone scalar is a list of one).
Result<std::vector<std::string>> scalarList(const YAML::Node& root, const char* key,
                                            const std::string& name) {
  const YAML::Node node = root[key];
  if (!node || node.IsNull()) return makeError(name, std::string("missing key '") + key + "'");
  std::vector<std::string> out;
  if (node.IsScalar()) {
    out.push_back(node.Scalar());
  } else if (node.IsSequence()) {
    for (const auto& item : node) {
      if (!item.IsScalar())
        return makeError(name, std::string("'") + key + "' must be a list of values");
      out.push_back(item.Scalar());
    }
  } else {
    return makeError(name, std::string("'") + key + "' must be a list of values");
  }
  if (out.empty()) return makeError(name, std::string("'") + key + "' is an empty list");
  return out;
}

std::optional<double> parseDouble(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

Result<CollectiveAlgorithm> algorithmNamed(const std::string& text, const std::string& name,
                                           const char* key, int& window) {
  if (text == "ring") return CollectiveAlgorithm::Ring;
  if (text == "halvingDoubling") return CollectiveAlgorithm::HalvingDoubling;
  if (text.rfind("direct", 0) == 0) {
    if (text.size() > 6) {
      const auto w = parseDouble(text.substr(6));
      if (!w || *w < 1 || *w != std::floor(*w) || *w > 1e6)
        return makeError(name, std::string(key) + ": '" + text +
                                   "' is not direct or directN with N a positive whole number");
      window = static_cast<int>(*w);
    }
    return CollectiveAlgorithm::Direct;
  }
  return makeError(name, std::string(key) + ": '" + text +
                             "' is not supported (Sutra's network model knows ring, direct, "
                             "directN and halvingDoubling)");
}

// ---------------------------------------------------------------------------------------------
// Costs

constexpr double kBytesPerGiB = 1073741824.0;

// ASTRA-sim's message time: hops * latency + bytes / bandwidth, truncated to whole ns.
TimeNs messageTime(const NetworkDimension& d, std::int64_t hops, std::uint64_t bytes) {
  const double bytesPerNs = d.bandwidthGBps * kBytesPerGiB / 1e9;
  const double ns =
      static_cast<double>(hops) * d.latencyNs + static_cast<double>(bytes) / bytesPerNs;
  return static_cast<TimeNs>(ns);
}

// Hops between two NPUs `distance` apart along a dimension of `n` NPUs.
std::int64_t hopsAlong(NetworkTopology t, std::int64_t n, std::int64_t distance) {
  switch (t) {
    case NetworkTopology::Ring: {
      const std::int64_t cw = ((distance % n) + n) % n;
      return std::min(cw, n - cw);
    }
    case NetworkTopology::FullyConnected:
      return 1;
    case NetworkTopology::Switch:
      return 2;
  }
  return 1;
}

// The dimensions a group occupies: (network dimension, NPUs of the group along it).
struct GroupDim {
  std::size_t dim = 0;
  std::int64_t npus = 0;
};

// One phase of a chunk: one algorithm over one dimension.
enum class PhaseOp : std::uint8_t { AllReduce, ReduceScatter, AllGather, AllToAll, Broadcast };

struct PhaseCost {
  TimeNs ns = 0;
  std::uint64_t outBytes = 0;  // what the next phase starts from
};

bool isPowerOfTwo(std::int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

class CostModel {
 public:
  CostModel(const NetworkConfig& net, const SystemConfig& sys) : net_(net), sys_(sys) {}

  // 3 * size / local-mem-bw: one write and two reads of the reduced packet, each truncated.
  TimeNs reductionDelay(std::uint64_t bytes) const {
    const double bw = sys_.localMemBwGBps * 1e9;  // bytes per s
    return 3 * static_cast<TimeNs>(static_cast<double>(bytes) / bw * 1e9);
  }

  CollectiveAlgorithm algorithmFor(PhaseOp op, std::size_t dim) const {
    const std::vector<CollectiveAlgorithm>* list = &sys_.allReduce;
    if (op == PhaseOp::AllGather) list = &sys_.allGather;
    if (op == PhaseOp::ReduceScatter) list = &sys_.reduceScatter;
    if (op == PhaseOp::AllToAll) list = &sys_.allToAll;
    return dim < list->size() ? (*list)[dim] : list->back();
  }

  Result<PhaseCost> phase(PhaseOp op, const GroupDim& g, std::uint64_t bytes) const {
    const NetworkDimension& d = net_.dims[g.dim];
    const std::int64_t n = g.npus;
    const TimeNs e = sys_.endpointDelayNs;
    auto T = [&](std::uint64_t m, std::int64_t distance) {
      return messageTime(d, hopsAlong(d.topology, n, distance), m);
    };
    switch (algorithmFor(op, g.dim)) {
      case CollectiveAlgorithm::Ring:
        return ring(op, n, bytes, e, T);
      case CollectiveAlgorithm::Direct:
        return direct(op, n, bytes, e, T);
      case CollectiveAlgorithm::HalvingDoubling:
        if (op == PhaseOp::AllToAll)
          return Error{"halvingDoubling cannot run an all-to-all (ASTRA-sim refuses it too)"};
        if (!isPowerOfTwo(n))
          return Error{"halvingDoubling needs a power-of-two number of ranks along " +
                       ordinal(g.dim) + ", not " + std::to_string(n)};
        return halvingDoubling(op, n, bytes, e, T);
    }
    return Error{"unknown collective algorithm"};
  }

  // Ring (Ring.cc): every step sends one message to the next NPU and the chunk's packets are
  // handed to the network one at a time, each paying the endpoint delay, the reduced ones the
  // memory delay too. Sends S and hand-overs S + 1 (the last one closes the phase).
  template <typename MsgFn>
  PhaseCost ring(PhaseOp op, std::int64_t n, std::uint64_t D, TimeNs e, MsgFn T) const {
    const auto un = static_cast<std::uint64_t>(n);
    const TimeNs steps = n - 1;
    switch (op) {
      case PhaseOp::AllReduce: {  // 2(n-1) messages of D/n, the first n-1 reduced
        const std::uint64_t m = D / un;
        return {(2 * n - 1) * e + steps * reductionDelay(m) + 2 * steps * T(m, 1), D};
      }
      case PhaseOp::ReduceScatter: {  // n-1 messages of D/n, all reduced
        const std::uint64_t m = D / un;
        return {n * e + steps * (reductionDelay(m) + T(m, 1)), m};
      }
      case PhaseOp::AllGather:  // n-1 messages of what each rank holds
        return {n * e + steps * T(D, 1), D * un};
      case PhaseOp::AllToAll: {  // n(n-1)/2 messages of D/n, all to the next NPU
        const std::uint64_t m = D / un;
        const TimeNs sends = n * (n - 1) / 2;
        return {(sends + 1) * e + sends * T(m, 1), D};
      }
      case PhaseOp::Broadcast: {  // a scatter and an all-gather: the all-reduce's messages
        const std::uint64_t m = D / un;
        return {(2 * n - 1) * e + 2 * steps * T(m, 1), D};
      }
    }
    return {};
  }

  // Direct (AllToAll.cc): a message to every other NPU of the dimension at once (at most
  // `directWindow` in flight), each taking its own hops; a round lasts as long as its slowest
  // message. All-reduce: a reduce-scatter round, then an all-gather round once all arrived.
  template <typename MsgFn>
  PhaseCost direct(PhaseOp op, std::int64_t n, std::uint64_t D, TimeNs e, MsgFn T) const {
    const auto un = static_cast<std::uint64_t>(n);
    const std::int64_t window =
        sys_.directWindow < 0 ? n - 1 : std::min<std::int64_t>(sys_.directWindow, n - 1);
    const TimeNs rounds = (n - 1 + window - 1) / window;
    auto slowest = [&](std::uint64_t m) {
      TimeNs worst = 0;
      for (std::int64_t k = 1; k < n; ++k) worst = std::max(worst, T(m, k));
      return worst;
    };
    switch (op) {
      case PhaseOp::AllReduce: {
        const std::uint64_t m = D / un;
        return {3 * e + reductionDelay(m) + 2 * rounds * slowest(m), D};
      }
      case PhaseOp::ReduceScatter: {
        const std::uint64_t m = D / un;
        return {2 * e + reductionDelay(m) + rounds * slowest(m), m};
      }
      case PhaseOp::AllGather:
        return {2 * e + rounds * slowest(D), D * un};
      case PhaseOp::AllToAll: {
        const std::uint64_t m = D / un;
        return {e + rounds * (slowest(m) + e), D};
      }
      case PhaseOp::Broadcast: {
        const std::uint64_t m = D / un;
        return {3 * e + 2 * rounds * slowest(m), D};
      }
    }
    return {};
  }

  // Halving-doubling (HalvingDoubling.cc): log2(n) steps; the reduce-scatter sends half of what
  // is left to the NPU 1, 2, 4... away, the all-gather doubles what it sends to the NPU n/2,
  // n/4... away. All-reduce: both, the first half reduced.
  template <typename MsgFn>
  PhaseCost halvingDoubling(PhaseOp op, std::int64_t n, std::uint64_t D, TimeNs e, MsgFn T) const {
    const auto un = static_cast<std::uint64_t>(n);
    auto reduceScatter = [&](std::uint64_t start, bool reduce) {
      TimeNs t = 0;
      std::uint64_t m = start;
      for (std::int64_t distance = 1; distance < n; distance *= 2) {
        m /= 2;
        t += T(m, distance) + e + (reduce ? reductionDelay(m) : 0);
      }
      return t;
    };
    auto allGather = [&](std::uint64_t piece) {
      TimeNs t = 0;
      std::uint64_t m = piece;
      for (std::int64_t distance = n / 2; distance >= 1; distance /= 2) {
        t += T(m, distance) + e;
        m *= 2;
      }
      return t;
    };
    switch (op) {
      case PhaseOp::AllReduce:
        return {e + reduceScatter(D, true) + allGather(D / un), D};
      case PhaseOp::ReduceScatter:
        return {e + reduceScatter(D, true), D / un};
      case PhaseOp::AllGather:
        return {e + allGather(D), D * un};
      case PhaseOp::Broadcast:
        return {e + reduceScatter(D, false) + allGather(D / un), D};
      case PhaseOp::AllToAll:
        break;
    }
    return {};
  }

 private:
  const NetworkConfig& net_;
  const SystemConfig& sys_;
};

// A collective over the given dimensions: its chunks, their phases (Sys::generate_collective), and
// the chunks through the dimensions' queues.
Result<TimeNs> costOver(const NetworkConfig& net, const SystemConfig& sys, CollectiveKind kind,
                        std::uint64_t bytes, const std::vector<GroupDim>& dims,
                        const std::string& what) {
  if (dims.empty()) return Error{what + ": no dimension of more than one NPU is involved"};
  if (bytes == 0) return TimeNs{0};
  const std::int64_t total = net.npusCount();
  // The phases of one chunk (Sys::generate_collective).
  std::vector<std::pair<PhaseOp, GroupDim>> phases;
  switch (kind) {
    case CollectiveKind::AllGather:  // the last dimension first
      for (auto it = dims.rbegin(); it != dims.rend(); ++it)
        phases.emplace_back(PhaseOp::AllGather, *it);
      break;
    case CollectiveKind::ReduceScatter:
      for (const auto& g : dims) phases.emplace_back(PhaseOp::ReduceScatter, g);
      break;
    case CollectiveKind::AllToAll:
      for (const auto& g : dims) phases.emplace_back(PhaseOp::AllToAll, g);
      break;
    case CollectiveKind::Broadcast:
      for (const auto& g : dims) phases.emplace_back(PhaseOp::Broadcast, g);
      break;
    case CollectiveKind::AllReduce:
      if (!sys.localBwAware) {
        for (const auto& g : dims) phases.emplace_back(PhaseOp::AllReduce, g);
      } else {  // reduce-scatter up, all-reduce in the last dimension, all-gather back down
        for (std::size_t i = 0; i + 1 < dims.size(); ++i)
          phases.emplace_back(PhaseOp::ReduceScatter, dims[i]);
        phases.emplace_back(PhaseOp::AllReduce, dims.back());
        for (std::size_t i = dims.size() - 1; i-- > 0;)
          phases.emplace_back(PhaseOp::AllGather, dims[i]);
      }
      break;
  }

  // Chunks (Sys::determine_chunk_size): size / splits, at least one byte per NPU of the network
  // except for an all-gather; a last partial chunk is as big as the others.
  const auto splits = static_cast<std::uint64_t>(sys.preferredDatasetSplits);
  std::uint64_t size = bytes;
  std::uint64_t chunk = size / splits;
  if (kind != CollectiveKind::AllGather && static_cast<std::uint64_t>(total) > chunk) {
    chunk = static_cast<std::uint64_t>(total);
    size = splits * chunk;
  }
  chunk = std::max<std::uint64_t>(chunk, 1);
  const std::uint64_t chunks = (size + chunk - 1) / chunk;

  // Each phase's time: every chunk has the same size, so one computation serves them all.
  const CostModel cost(net, sys);
  std::vector<TimeNs> phaseNs;
  std::uint64_t data = chunk;
  for (const auto& [op, g] : phases) {
    auto c = cost.phase(op, g, data);
    if (!c) return Error{what + ": " + c.error().message};
    phaseNs.push_back(c->ns);
    data = c->outBytes;
  }

  // The chunks through the dimensions' queues: each queue runs at most active-chunks chunks at
  // once; a chunk asks for the queue of its next phase when its previous phase ends, and the
  // earliest asker is served first (ties: the earlier chunk).
  const auto active = static_cast<std::size_t>(
      std::min<std::uint64_t>(static_cast<std::uint64_t>(sys.activeChunksPerDimension), chunks));
  std::vector<std::vector<TimeNs>> slotsFree(net.dims.size(), std::vector<TimeNs>(active, 0));
  using Ask = std::tuple<TimeNs, std::uint64_t, std::size_t>;  // when, chunk, phase
  std::priority_queue<Ask, std::vector<Ask>, std::greater<Ask>> asks;
  for (std::uint64_t c = 0; c < chunks; ++c) asks.emplace(0, c, 0);
  TimeNs finish = 0;
  while (!asks.empty()) {
    const auto [when, c, p] = asks.top();
    asks.pop();
    auto& slots = slotsFree[phases[p].second.dim];
    auto slot = std::min_element(slots.begin(), slots.end());
    const TimeNs start = std::max(when, *slot);
    const TimeNs end = start + phaseNs[p];
    *slot = end;
    if (p + 1 < phases.size()) {
      asks.emplace(end, c, p + 1);
    } else {
      finish = std::max(finish, end);
    }
  }
  return finish;
}

}  // namespace

std::int64_t NetworkConfig::npusCount() const {
  std::int64_t total = 1;
  for (const auto& d : dims) total *= d.npus;
  return total;
}

Result<NetworkConfig> parseNetworkConfig(std::string_view yamlText, const std::string& name) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(yamlText));
  } catch (const YAML::Exception& e) {
    return makeError(name, "not a YAML network file (" + std::string(e.what()) + ")");
  }
  if (!root.IsMap())
    return makeError(name,
                     "not a network file: expected the keys topology, npus_count, bandwidth and "
                     "latency (ASTRA-sim's network.yml)");
  auto topologies = scalarList(root, "topology", name);
  if (!topologies) return topologies.error();
  auto npus = scalarList(root, "npus_count", name);
  if (!npus) return npus.error();
  auto bandwidths = scalarList(root, "bandwidth", name);
  if (!bandwidths) return bandwidths.error();
  auto latencies = scalarList(root, "latency", name);
  if (!latencies) return latencies.error();
  const std::size_t dims = topologies->size();
  for (const auto& [key, list] :
       {std::pair<const char*, const std::vector<std::string>*>{"npus_count", &*npus},
        {"bandwidth", &*bandwidths},
        {"latency", &*latencies}})
    if (list->size() != dims)
      return makeError(name, std::string(key) + " has " + std::to_string(list->size()) +
                                 " entries but topology has " + std::to_string(dims));

  NetworkConfig config;
  config.path = name;
  for (std::size_t i = 0; i < dims; ++i) {
    NetworkDimension d;
    const std::string& t = (*topologies)[i];
    if (t == "Ring") {
      d.topology = NetworkTopology::Ring;
    } else if (t == "FullyConnected") {
      d.topology = NetworkTopology::FullyConnected;
    } else if (t == "Switch") {
      d.topology = NetworkTopology::Switch;
    } else {
      return makeError(name, "unknown topology '" + t + "' in " + ordinal(i) +
                                 " (expected Ring, FullyConnected or Switch)");
    }
    const auto n = parseDouble((*npus)[i]);
    if (!n || *n != std::floor(*n))
      return makeError(
          name, "npus_count '" + (*npus)[i] + "' in " + ordinal(i) + " is not a whole number");
    if (*n < 2 || *n > 1e7)
      return makeError(name, "npus_count " + (*npus)[i] + " in " + ordinal(i) +
                                 " must be between 2 and 10000000");
    d.npus = static_cast<int>(*n);
    const auto bw = parseDouble((*bandwidths)[i]);
    if (!bw)
      return makeError(
          name, "bandwidth '" + (*bandwidths)[i] + "' in " + ordinal(i) + " is not a number");
    if (*bw <= 0)
      return makeError(
          name, "bandwidth " + (*bandwidths)[i] + " in " + ordinal(i) + " must be positive (GB/s)");
    d.bandwidthGBps = *bw;
    const auto lat = parseDouble((*latencies)[i]);
    if (!lat)
      return makeError(name,
                       "latency '" + (*latencies)[i] + "' in " + ordinal(i) + " is not a number");
    if (*lat < 0)
      return makeError(
          name, "latency " + (*latencies)[i] + " in " + ordinal(i) + " must not be negative (ns)");
    d.latencyNs = *lat;
    config.dims.push_back(d);
  }
  if (config.npusCount() > 10'000'000)
    return makeError(name,
                     "more than 10000000 NPUs in all (" + std::to_string(config.npusCount()) + ")");
  return config;
}

Result<NetworkConfig> readNetworkConfig(const std::string& path) {
  auto text = readWholeFile(path, "a network file (ASTRA-sim's network.yml)");
  if (!text) return text.error();
  return parseNetworkConfig(*text, path);
}

Result<SystemConfig> parseSystemConfig(std::string_view jsonText, const std::string& name) {
  const auto j = nlohmann::json::parse(jsonText, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return makeError(name, "not a JSON system file");
  if (!j.is_object())
    return makeError(name, "not a system file: expected a JSON object (ASTRA-sim's system.json)");
  SystemConfig s;
  s.path = name;
  auto implementations = [&](const char* key, std::vector<CollectiveAlgorithm>& out) -> Status {
    const auto it = j.find(key);
    if (it == j.end()) return Ok{};
    if (!it->is_array() || it->empty())
      return makeError(name, std::string(key) + " must be a list of names, one per dimension");
    out.clear();
    for (const auto& v : *it) {
      if (!v.is_string()) return makeError(name, std::string(key) + " must list names");
      auto a = algorithmNamed(v.get<std::string>(), name, key, s.directWindow);
      if (!a) return a.error();
      out.push_back(*a);
    }
    return Ok{};
  };
  for (const auto& [key, list] : {std::pair<const char*, std::vector<CollectiveAlgorithm>*>{
                                      "all-reduce-implementation", &s.allReduce},
                                  {"all-gather-implementation", &s.allGather},
                                  {"reduce-scatter-implementation", &s.reduceScatter},
                                  {"all-to-all-implementation", &s.allToAll}})
    if (auto ok = implementations(key, *list); !ok) return ok.error();
  auto number = [&](const char* key, double low, double high) -> Result<std::optional<double>> {
    const auto it = j.find(key);
    if (it == j.end()) return std::optional<double>{};
    if (!it->is_number()) return makeError(name, std::string(key) + " must be a number");
    const double v = it->get<double>();
    if (!(v >= low && v <= high))
      return makeError(name, std::string(key) + " " + it->dump() + " is out of range (" +
                                 nlohmann::json(low).dump() + " to " + nlohmann::json(high).dump() +
                                 ")");
    return std::optional<double>{v};
  };
  auto splits = number("preferred-dataset-splits", 1, 1e6);
  if (!splits) return splits.error();
  if (*splits) s.preferredDatasetSplits = static_cast<int>(**splits);
  auto active = number("active-chunks-per-dimension", 1, 1e6);
  if (!active) return active.error();
  if (*active) s.activeChunksPerDimension = static_cast<int>(**active);
  auto endpoint = number("endpoint-delay", 0, 1e9);
  if (!endpoint) return endpoint.error();
  if (*endpoint) s.endpointDelayNs = static_cast<TimeNs>(**endpoint);
  auto memBw = number("local-mem-bw", 1e-6, 1e9);
  if (!memBw) return memBw.error();
  if (*memBw) s.localMemBwGBps = **memBw;
  if (const auto it = j.find("collective-optimization"); it != j.end()) {
    if (*it == "localBWAware") {
      s.localBwAware = true;
    } else if (*it == "baseline") {
      s.localBwAware = false;
    } else {
      return makeError(name, "collective-optimization " + it->dump() +
                                 " is neither \"baseline\" nor \"localBWAware\"");
    }
  }
  return s;
}

Result<SystemConfig> readSystemConfig(const std::string& path) {
  auto text = readWholeFile(path, "a system file (ASTRA-sim's system.json)");
  if (!text) return text.error();
  return parseSystemConfig(*text, path);
}

std::string_view collectiveKindName(CollectiveKind kind) {
  switch (kind) {
    case CollectiveKind::AllReduce:
      return "all-reduce";
    case CollectiveKind::AllGather:
      return "all-gather";
    case CollectiveKind::ReduceScatter:
      return "reduce-scatter";
    case CollectiveKind::AllToAll:
      return "all-to-all";
    case CollectiveKind::Broadcast:
      return "broadcast";
  }
  return "collective";
}

NetworkModel::NetworkModel(NetworkConfig network, SystemConfig system)
    : network_(std::move(network)), system_(std::move(system)) {}

Result<TimeNs> NetworkModel::collectiveNs(CollectiveKind kind, std::uint64_t bytes,
                                          std::int64_t ranks) const {
  const std::string what = std::string(collectiveKindName(kind)) + " of " + std::to_string(bytes) +
                           " bytes over " + std::to_string(ranks) + " ranks";
  if (network_.dims.empty()) return Error{what + ": the network has no dimension"};
  const std::int64_t total = network_.npusCount();
  if (ranks < 2) return Error{what + ": a collective needs 2 ranks or more"};
  if (ranks > total)
    return Error{what + ": the network (" + displayPath(network_.path) + ") has " +
                 std::to_string(total) + " NPUs"};

  // The dimensions the group spans, from the first.
  std::vector<GroupDim> dims;
  std::int64_t left = ranks;
  for (std::size_t d = 0; d < network_.dims.size() && left > 1; ++d) {
    const std::int64_t here = std::min<std::int64_t>(network_.dims[d].npus, left);
    if (here > 1) dims.push_back({d, here});
    left = (left + here - 1) / here;
  }

  return costOver(network_, system_, kind, bytes, dims, what);
}

Result<TimeNs> NetworkModel::collectiveOnDimensionsNs(CollectiveKind kind, std::uint64_t bytes,
                                                      const std::vector<bool>& involved) const {
  std::string what = std::string(collectiveKindName(kind)) + " of " + std::to_string(bytes) +
                     " bytes over dimensions";
  std::vector<GroupDim> dims;
  for (std::size_t d = 0; d < network_.dims.size() && d < involved.size(); ++d) {
    if (!involved[d]) continue;
    what += " " + std::to_string(d + 1);
    dims.push_back({d, network_.dims[d].npus});
  }
  return costOver(network_, system_, kind, bytes, dims, what);
}

Result<TimeNs> NetworkModel::messageNs(std::int64_t src, std::int64_t dst,
                                       std::uint64_t bytes) const {
  const std::int64_t total = network_.npusCount();
  const std::string what =
      "message from rank " + std::to_string(src) + " to rank " + std::to_string(dst);
  if (src < 0 || dst < 0 || src >= total || dst >= total)
    return Error{what + ": the network (" + displayPath(network_.path) + ") has " +
                 std::to_string(total) + " NPUs"};
  if (src == dst) return Error{what + ": a rank does not send to itself"};
  // The first dimension where the two addresses differ carries it (dimension 0 varies fastest).
  std::int64_t a = src, b = dst;
  for (const auto& d : network_.dims) {
    const std::int64_t la = a % d.npus, lb = b % d.npus;
    if (la != lb) return messageTime(d, hopsAlong(d.topology, d.npus, lb - la), bytes);
    a /= d.npus;
    b /= d.npus;
  }
  return Error{what + ": no dimension tells them apart"};
}

}  // namespace sutra
