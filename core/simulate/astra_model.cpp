// SPDX-License-Identifier: MIT
#include "simulate/astra_model.h"

#include <algorithm>
#include <map>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>

#include "chakra/et_file.h"
#include "simulate/chakra_comm_cost.h"

namespace sutra {
namespace {

using ChakraProtoMsg::Node;

enum class Resource : std::uint8_t { Cpu, Compute, Comm, None };

bool isCpuOp(const Node& n) {
  const auto* a = chakra::findAttr(n, "is_cpu_op");
  if (!a) return false;
  if (a->has_bool_val()) return a->bool_val();
  const auto v = chakra::attrIntValue(*a);
  return v && *v != 0;
}

// HardwareResource::is_available / occupy: which of the three a node takes.
Resource resourceOf(const Node& n) {
  if (isCpuOp(n)) return Resource::Cpu;
  if (n.type() == ChakraProtoMsg::COMP_NODE) return Resource::Compute;
  if (n.type() == ChakraProtoMsg::COMM_RECV_NODE) return Resource::None;
  return Resource::Comm;
}

struct RankState {
  const chakra::ChakraTrace* graph = nullptr;
  std::vector<std::vector<std::uint32_t>> children;
  std::vector<std::uint32_t> pending;  // data_deps not yet ended
  std::vector<Resource> resource;
  std::vector<char> done;
  using Ready = std::pair<std::uint64_t, std::uint32_t>;  // (id, index): ETFeeder's order
  std::priority_queue<Ready, std::vector<Ready>, std::greater<Ready>> ready;
  bool busy[3] = {false, false, false};
  TimeNs finish = 0;
  std::size_t issued = 0, ended = 0;
  std::size_t collectives = 0;  // issued so far: the k-th of every rank is one collective
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, std::size_t> messages;
};

struct Event {
  TimeNs time;
  std::uint64_t seq;
  int rank;
  std::uint32_t node;
  bool operator>(const Event& o) const { return std::tie(time, seq) > std::tie(o.time, o.seq); }
};

// A collective or a message: who issued it, when the last of them did, and its cost.
struct Rendezvous {
  std::vector<std::pair<int, std::uint32_t>> arrived;
  TimeNs last = 0;
  TimeNs cost = 0;
};

class Engine {
 public:
  Engine(const std::vector<chakra::ChakraTrace>& graphs, const NetworkModel& network)
      : graphs_(graphs), network_(network) {}

  Result<AstraModelRun> run() {
    ranks_.resize(graphs_.size());
    for (std::size_t r = 0; r < graphs_.size(); ++r) prepare(static_cast<int>(r));
    for (std::size_t r = 0; r < ranks_.size(); ++r) issueReady(static_cast<int>(r), 0);
    while (!events_.empty()) {
      const Event e = events_.top();
      events_.pop();
      end(e.rank, e.node, e.time);
    }
    AstraModelRun out;
    out.problems = std::move(problems_);
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
      const RankState& s = ranks_[r];
      const auto& nodes = s.graph->nodes;
      if (s.ended < nodes.size()) {
        std::size_t first = 0;
        while (s.done[first]) ++first;
        return makeError(s.graph->path.empty() ? "rank " + std::to_string(r) : s.graph->path,
                         "rank " + std::to_string(r) + ": " +
                             std::to_string(nodes.size() - s.ended) +
                             " nodes never ran (waiting on a dependency or a collective the other "
                             "ranks never issued), the first node " +
                             std::to_string(nodes[first].id()) + " " + nodes[first].name());
      }
      out.ranks.push_back({static_cast<int>(r), s.finish, nodes.size(), s.issued});
    }
    return out;
  }

 private:
  void prepare(int r) {
    RankState& s = ranks_[static_cast<std::size_t>(r)];
    s.graph = &graphs_[static_cast<std::size_t>(r)];
    const auto& nodes = s.graph->nodes;
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    index.reserve(nodes.size());
    for (std::uint32_t i = 0; i < nodes.size(); ++i) index.emplace(nodes[i].id(), i);
    s.children.assign(nodes.size(), {});
    s.pending.assign(nodes.size(), 0);
    s.done.assign(nodes.size(), 0);
    s.resource.resize(nodes.size());
    std::size_t missing = 0;
    for (std::uint32_t i = 0; i < nodes.size(); ++i) {
      s.resource[i] = resourceOf(nodes[i]);
      std::vector<std::uint32_t> deps;
      for (const auto id : nodes[i].data_deps()) {
        const auto at = index.find(id);
        if (at == index.end()) {
          ++missing;
          continue;
        }
        deps.push_back(at->second);
      }
      std::sort(deps.begin(), deps.end());
      deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
      for (auto d : deps) s.children[d].push_back(i);
      s.pending[i] = static_cast<std::uint32_t>(deps.size());
      if (deps.empty()) s.ready.emplace(nodes[i].id(), i);
    }
    if (missing)
      problems_.add(Severity::Warning,
                    "data dependency on a node the graph does not have (ignored; ASTRA-sim would "
                    "wait for it forever)",
                    missing, "rank " + std::to_string(r));
  }

  bool available(const RankState& s, std::uint32_t i) const {
    const Resource res = s.resource[i];
    return res == Resource::None || !s.busy[static_cast<int>(res)];
  }

  void schedule(int r, std::uint32_t i, TimeNs at) { events_.push({at, seq_++, r, i}); }

  // Workload::issue_dep_free_nodes: the ready nodes in id order; those whose resource is busy
  // wait for the rank's next end.
  void issueReady(int r, TimeNs now) {
    RankState& s = ranks_[static_cast<std::size_t>(r)];
    std::vector<std::uint32_t> later;
    while (!s.ready.empty()) {
      const auto i = s.ready.top().second;
      s.ready.pop();
      if (!available(s, i)) {
        later.push_back(i);
        continue;
      }
      issue(r, i, now);
    }
    for (auto i : later) s.ready.emplace(s.graph->nodes[i].id(), i);
  }

  void occupy(RankState& s, std::uint32_t i) {
    if (s.resource[i] != Resource::None) s.busy[static_cast<int>(s.resource[i])] = true;
    ++s.issued;
  }

  void issue(int r, std::uint32_t i, TimeNs now) {
    RankState& s = ranks_[static_cast<std::size_t>(r)];
    const Node& n = s.graph->nodes[i];
    const auto type = n.type();
    const bool cpu = isCpuOp(n);
    if (cpu || type == ChakraProtoMsg::COMP_NODE) {
      const auto numOps = chakra::attrInt(n, "num_ops", 0);
      if (n.duration_micros() == 0 && numOps == 0) {  // skip_invalid: ends now, takes nothing
        finishNode(r, i, now);
        return;
      }
      occupy(s, i);
      schedule(r, i, now + micros(n.duration_micros()));
      return;
    }
    if (type == ChakraProtoMsg::COMM_COLL_NODE) {
      occupy(s, i);
      if (chakra::attrInt(n, "comm_type", -1) == ChakraProtoMsg::BROADCAST) {
        schedule(r, i, now + micros(n.duration_micros()));  // ASTRA-sim replays its duration
        return;
      }
      // Without a communicator-group file every collective spans all NPUs, matched by order.
      const std::string key = "coll#" + std::to_string(s.collectives++);
      join(key, r, i, now, static_cast<std::int64_t>(ranks_.size()));
      return;
    }
    if (type == ChakraProtoMsg::COMM_SEND_NODE || type == ChakraProtoMsg::COMM_RECV_NODE) {
      occupy(s, i);
      const auto src = chakra::attrInt(n, "comm_src", -1);
      const auto dst = chakra::attrInt(n, "comm_dst", -1);
      const auto tag = chakra::attrInt(n, "comm_tag", 0);
      const bool send = type == ChakraProtoMsg::COMM_SEND_NODE;
      const auto k = s.messages[{send ? dst : src, tag, send ? 1 : 0}]++;
      const std::string key = "p2p#" + std::to_string(src) + ">" + std::to_string(dst) + "#" +
                              std::to_string(tag) + "#" + std::to_string(k);
      join(key, r, i, now, 2);
      return;
    }
    // METADATA, memory and invalid nodes: ASTRA-sim's analytical runs do not time them.
    problems_.add(Severity::Warning, "node of a type ASTRA-sim does not time here (ends at once)",
                  std::string(chakra::nodeTypeName(type)) + " node " + std::to_string(n.id()));
    finishNode(r, i, now);
  }

  static TimeNs micros(std::uint64_t us) {
    return us == 0 ? 1 : static_cast<TimeNs>(us) * 1000;  // issue_replay: 0 runs for 1 ns
  }

  void join(const std::string& key, int r, std::uint32_t i, TimeNs now, std::int64_t expected) {
    Rendezvous& rv = rendezvous_[key];
    const Node& n = ranks_[static_cast<std::size_t>(r)].graph->nodes[i];
    if (rv.arrived.empty() || n.type() == ChakraProtoMsg::COMM_SEND_NODE ||
        n.type() == ChakraProtoMsg::COMM_COLL_NODE) {
      auto cost = chakraCommCost(n, r, {}, static_cast<std::int64_t>(ranks_.size()), network_);
      if (cost) {
        rv.cost = *cost;
      } else {
        problems_.add(Severity::Warning, "communication not costed by the network model (0 ns)",
                      "rank " + std::to_string(r) + " node " + std::to_string(n.id()) + " " +
                          n.name() + ": " + cost.error().message);
      }
    }
    rv.arrived.emplace_back(r, i);
    rv.last = std::max(rv.last, now);
    if (static_cast<std::int64_t>(rv.arrived.size()) < expected) return;
    for (const auto& [rank, node] : rv.arrived) schedule(rank, node, rv.last + rv.cost);
    rendezvous_.erase(key);
  }

  void end(int r, std::uint32_t i, TimeNs now) {
    RankState& s = ranks_[static_cast<std::size_t>(r)];
    if (s.resource[i] != Resource::None) s.busy[static_cast<int>(s.resource[i])] = false;
    finishNode(r, i, now);
    issueReady(r, now);
  }

  // ETFeeder::freeChildrenNodes: children with nothing left to wait for become ready.
  void finishNode(int r, std::uint32_t i, TimeNs now) {
    RankState& s = ranks_[static_cast<std::size_t>(r)];
    s.done[i] = 1;
    ++s.ended;
    s.finish = std::max(s.finish, now);
    for (const auto c : s.children[i])
      if (--s.pending[c] == 0) s.ready.emplace(s.graph->nodes[c].id(), c);
  }

  const std::vector<chakra::ChakraTrace>& graphs_;
  const NetworkModel& network_;
  std::vector<RankState> ranks_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events_;
  std::uint64_t seq_ = 0;
  std::map<std::string, Rendezvous> rendezvous_;
  ProblemLog problems_;
};

}  // namespace

Result<AstraModelRun> runAstraModel(const std::vector<chakra::ChakraTrace>& graphs,
                                    const NetworkModel& network) {
  if (graphs.empty()) return Error{"no Chakra graph to run"};
  return Engine(graphs, network).run();
}

Result<AstraModelRun> runAstraModel(const AstraSimInputs& inputs) {
  auto network = readNetworkConfig(inputs.network);
  if (!network) return network.error();
  auto system = readSystemConfig(inputs.system);
  if (!system) return system.error();
  const NetworkModel model(std::move(*network), std::move(*system));
  std::vector<chakra::ChakraTrace> graphs;
  for (int r = 0; r < inputs.npus; ++r) {
    auto graph = chakra::readChakraTrace(inputs.workload + "." + std::to_string(r) + ".et");
    if (!graph) return graph.error();
    graphs.push_back(std::move(*graph));
  }
  return runAstraModel(graphs, model);
}

}  // namespace sutra
