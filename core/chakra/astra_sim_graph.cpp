// SPDX-License-Identifier: MIT
#include "chakra/astra_sim_graph.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "chakra/converter.h"

namespace sutra::chakra {
namespace {

using ChakraProtoMsg::Node;

enum class Timeline : std::uint8_t { Host, Compute, Comm };

struct Item {
  std::size_t node = 0;  // index into the converted graph's nodes
  Timeline line = Timeline::Host;
  TimeNs start = 0;
  TimeNs end = 0;
  std::int64_t lane = 0;  // thread (host) or stream (device)
  bool cpuComm = false;   // a CPU backend's collective (gloo's, on its worker thread)
};

bool isCommType(ChakraProtoMsg::NodeType t) {
  return t == ChakraProtoMsg::COMM_COLL_NODE || t == ChakraProtoMsg::COMM_SEND_NODE ||
         t == ChakraProtoMsg::COMM_RECV_NODE;
}

bool isGapNode(const Node& n) { return n.name() == kHostGapName || n.name() == kDeviceGapName; }

// The time intervals' total beyond their union.
TimeNs overlapBeyondUnion(std::vector<std::pair<TimeNs, TimeNs>> spans, std::size_t* overlapped) {
  std::sort(spans.begin(), spans.end());
  TimeNs total = 0, unionNs = 0, frontier = 0;
  bool first = true;
  for (const auto& [s, e] : spans) {
    total += e - s;
    if (first || s >= frontier) {
      unionNs += e - s;
      frontier = e;
      first = false;
      continue;
    }
    if (overlapped) ++*overlapped;
    if (e > frontier) {
      unionNs += e - frontier;
      frontier = e;
    }
  }
  return total - unionNs;
}

// What a dependency of a node on `line` on a node of `from` stands for, as convert counts edges.
EdgeKind edgeKindOf(Timeline line, Timeline from) {
  if (line == from) return line == Timeline::Host ? EdgeKind::Serial : EdgeKind::Stream;
  if (from == Timeline::Host) return EdgeKind::Launch;
  if (line == Timeline::Host) return EdgeKind::Sync;
  return EdgeKind::Stream;  // compute and communication waiting on each other
}

std::string formatMs(TimeNs ns) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f ms", static_cast<double>(ns) / 1e6);
  return buf;
}

void addAttr(Node& node, const char* name, bool v) {
  auto* a = node.add_attr();
  a->set_name(name);
  a->set_bool_val(v);
}
void addAttr(Node& node, const char* name, std::int64_t v) {
  auto* a = node.add_attr();
  a->set_name(name);
  a->set_int64_val(v);
}

}  // namespace

Result<AstraSimGraph> astraSimGraph(const LinkedTrace& linked, const ChakraTrace& converted) {
  const auto& nodes = converted.nodes;
  std::unordered_map<std::uint64_t, std::size_t> byId;
  byId.reserve(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i) byId.emplace(nodes[i].id(), i);

  // The ops: each node of the converted graph that is an op of the linked trace.
  std::vector<Item> items;
  std::vector<std::int32_t> itemOf(nodes.size(), -1);
  TimeNs base = 0;
  bool anyTime = false;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    const LinkedOp* op = linked.find(static_cast<std::int64_t>(n.id()));
    if (!op || isGapNode(n)) continue;
    Item it;
    it.node = i;
    it.line = isCommType(n.type()) ? Timeline::Comm
              : op->isCpu()        ? Timeline::Host
                                   : Timeline::Compute;
    it.start = op->ts;
    it.end = op->ts + std::max<TimeNs>(0, op->inclusiveDur);
    // A CPU backend's collective taken as done before its annotation closed (measured_gaps.h):
    // its node's duration says where.
    it.cpuComm = it.line == Timeline::Comm && op->isCpu();
    if (it.cpuComm)
      it.end = std::min(it.end, op->ts + static_cast<TimeNs>(n.duration_micros()) * 1000);
    it.lane = op->isCpu() ? op->tid : op->stream;
    if (op->ts > 0) {
      base = anyTime ? std::min(base, op->ts) : op->ts;
      anyTime = true;
    }
    itemOf[i] = static_cast<std::int32_t>(items.size());
    items.push_back(it);
  }
  if (items.empty())
    return makeError(converted.path.empty() ? std::string("Chakra graph") : converted.path,
                     "no node is an op of the linked trace: nothing to lay out for ASTRA-sim");
  for (auto& it : items)
    if (it.start <= 0) it.start = it.end = base;  // an op with no time: at the start

  auto micros = [&](TimeNs t) -> std::int64_t {
    return t <= base ? 0 : static_cast<std::int64_t>((t - base + 500) / 1000);
  };

  // Each item's dependencies on other items, through the gap nodes (a gap's waits were the
  // waits of the op after it).
  auto depsOf = [&](std::size_t item) {
    std::vector<std::size_t> out;
    std::vector<std::size_t> stack{items[item].node};
    std::vector<std::size_t> seenGaps;
    while (!stack.empty()) {
      const Node& n = nodes[stack.back()];
      stack.pop_back();
      for (const auto* list : {&n.ctrl_deps(), &n.data_deps()})
        for (const auto id : *list) {
          const auto at = byId.find(id);
          if (at == byId.end()) continue;
          if (itemOf[at->second] >= 0)
            out.push_back(static_cast<std::size_t>(itemOf[at->second]));
          else if (isGapNode(nodes[at->second]) &&
                   std::find(seenGaps.begin(), seenGaps.end(), at->second) == seenGaps.end()) {
            seenGaps.push_back(at->second);
            stack.push_back(at->second);
          }
        }
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  };

  // The three timelines, each in the order of its nodes' ends (collectives end together on all
  // their ranks, so the ranks agree on the order of theirs).
  std::vector<std::size_t> lines[3];
  for (std::size_t k = 0; k < items.size(); ++k)
    lines[static_cast<std::size_t>(items[k].line)].push_back(k);
  for (int l = 0; l < 3; ++l)
    std::stable_sort(lines[l].begin(), lines[l].end(), [&](std::size_t a, std::size_t b) {
      const Item &x = items[a], &y = items[b];
      return std::tie(x.end, x.start) < std::tie(y.end, y.start);
    });
  const auto& host = lines[0];
  const auto& compute = lines[1];
  std::vector<TimeNs> hostEnds, computeEnds;
  for (auto k : host) hostEnds.push_back(items[k].end);
  for (auto k : compute) computeEnds.push_back(items[k].end);

  AstraSimGraph out;
  out.trace.meta = converted.meta;
  out.trace.path = converted.path;
  AstraSimGraphReport& report = out.report;
  std::uint64_t nextId = 0;
  for (const auto& n : nodes) nextId = std::max<std::uint64_t>(nextId, n.id() + 1);

  for (int l = 0; l < 3; ++l) {
    const Timeline line = static_cast<Timeline>(l);
    std::size_t prev = items.size();
    for (const std::size_t k : lines[l]) {
      const Item& x = items[k];
      std::vector<std::size_t> holds;
      if (prev != items.size()) holds.push_back(prev);
      bool anchorLost = false;
      // A host node may wait on device work that ended before it did (a sync); a device node on
      // what ended before it began. Later ends would hold it past what was measured.
      const TimeNs limit = line == Timeline::Host ? x.end : x.start;
      for (const auto d : depsOf(k)) {
        if (items[d].line == line) continue;  // the timeline's own order covers it
        // Begun before the limit too: a node of no time at the limit could wait on this one.
        if (items[d].end <= limit && items[d].start < limit) {
          holds.push_back(d);
        } else {
          ++report.depsDropped;
          anchorLost = anchorLost || items[d].line == Timeline::Host;
        }
      }
      // The latest host node that ended before this one began, where its launcher ended after;
      // and always for communication, which has no gap node to wait in: the latest host and
      // compute nodes that ended before it began hold it as near its start as the graph can.
      auto latestBefore = [&](const std::vector<std::size_t>& timeline,
                              const std::vector<TimeNs>& ends) {
        const auto at = std::upper_bound(ends.begin(), ends.end(), x.start);
        if (at != ends.begin())
          holds.push_back(timeline[static_cast<std::size_t>(at - ends.begin()) - 1]);
      };
      if (anchorLost || line == Timeline::Comm) latestBefore(host, hostEnds);
      if (line == Timeline::Comm) latestBefore(compute, computeEnds);
      std::sort(holds.begin(), holds.end());
      holds.erase(std::unique(holds.begin(), holds.end()), holds.end());
      TimeNs ready = base;
      for (auto h : holds) ready = std::max(ready, items[h].end);

      Node node = nodes[x.node];
      node.clear_ctrl_deps();
      node.clear_data_deps();
      // No num_ops or tensor_size: a node's time is its timeline's share, not its work, so the
      // roofline must never price it (and ASTRA-sim then skips a node of no time).
      auto* attrs = node.mutable_attr();
      for (int a = attrs->size() - 1; a >= 0; --a)
        if (attrs->Get(a).name() == "num_ops" || attrs->Get(a).name() == "tensor_size")
          attrs->DeleteSubrange(a, 1);
      std::vector<std::uint64_t> deps;
      for (auto h : holds) {
        deps.push_back(nodes[items[h].node].id());
        ++report.edges[static_cast<std::size_t>(edgeKindOf(line, items[h].line))];
      }
      if (line == Timeline::Comm) {
        // Communication that overlapped (gloo's two workers share one link) takes its share of
        // their union, from the previous one's end: ASTRA-sim runs one at a time, and the
        // bandwidth fitted to these durations is the link they shared. A CPU backend's collective
        // counts from what it waited on (its worker picks it up late on a busy host: the time
        // is the collective's, there being no gap node for it on this timeline).
        const TimeNs begin = x.cpuComm ? std::min(x.end, ready)
                             : prev != items.size()
                                 ? std::min(x.end, std::max(x.start, items[prev].end))
                                 : x.start;
        node.set_start_time_micros(static_cast<std::uint64_t>(micros(begin)));
        node.set_duration_micros(static_cast<std::uint64_t>(micros(x.end) - micros(begin)));
      } else {
        const TimeNs begin = std::min(x.end, std::max(x.start, ready));
        const std::int64_t gapUs = micros(x.start) - micros(ready);
        if (gapUs > 0) {
          Node gap;
          gap.set_id(nextId++);
          const bool onHost = line == Timeline::Host;
          gap.set_name(std::string(onHost ? kHostGapName : kDeviceGapName));
          gap.set_type(ChakraProtoMsg::COMP_NODE);
          gap.set_start_time_micros(static_cast<std::uint64_t>(micros(ready)));
          gap.set_duration_micros(static_cast<std::uint64_t>(gapUs));
          addAttr(gap, "is_cpu_op", onHost);
          addAttr(gap, onHost ? "tid" : "stream", x.lane);
          for (auto d : deps) gap.add_data_deps(d);
          deps.assign(1, gap.id());
          ++report.edges[static_cast<std::size_t>(edgeKindOf(line, line))];
          out.trace.nodes.push_back(std::move(gap));
          ++(onHost ? report.hostGapNodes : report.deviceGapNodes);
        }
        node.set_start_time_micros(static_cast<std::uint64_t>(micros(begin)));
        node.set_duration_micros(static_cast<std::uint64_t>(micros(x.end) - micros(begin)));
      }
      for (auto d : deps) node.add_data_deps(d);
      out.trace.nodes.push_back(std::move(node));
      prev = k;
    }
  }
  std::sort(out.trace.nodes.begin(), out.trace.nodes.end(),
            [](const Node& a, const Node& b) { return a.id() < b.id(); });

  // What the timelines merge or lose.
  TimeNs last = base;
  std::vector<std::pair<TimeNs, TimeNs>> computeSpans, comm, hostAll;
  std::map<std::int64_t, std::vector<std::pair<TimeNs, TimeNs>>> threads;
  for (const auto& it : items) {
    last = std::max(last, it.end);
    const std::pair<TimeNs, TimeNs> span{it.start, it.end};
    if (it.line == Timeline::Compute) computeSpans.push_back(span);
    if (it.line == Timeline::Comm) comm.push_back(span);
    if (it.line == Timeline::Host) {
      hostAll.push_back(span);
      threads[it.lane].push_back(span);
    }
  }
  report.iterationNs = last - base;
  report.computeOverlapNs = overlapBeyondUnion(computeSpans, &report.overlappedKernels);
  report.commOverlapNs = overlapBeyondUnion(comm, nullptr);
  TimeNs threadBusy = 0, hostTotal = 0;
  for (const auto& s : hostAll) hostTotal += s.second - s.first;
  const TimeNs hostUnion = hostTotal - overlapBeyondUnion(hostAll, nullptr);
  for (auto& [tid, spans] : threads) {
    TimeNs total = 0;
    for (const auto& s : spans) total += s.second - s.first;
    threadBusy += total - overlapBeyondUnion(spans, nullptr);
  }
  report.hostMergedNs = std::max<TimeNs>(0, threadBusy - hostUnion);
  return out;
}

Result<std::vector<std::int64_t>> alignAstraSimRankStarts(const std::vector<std::string>& paths,
                                                          const ChakraWriteOptions& write) {
  std::vector<std::int64_t> firstEnd;  // per rank, us from its first op
  for (const auto& path : paths) {
    auto trace = readChakraTrace(path);
    if (!trace) return trace.error();
    std::optional<std::uint64_t> start, end;
    std::uint64_t first = UINT64_MAX;
    for (const auto& n : trace->nodes) {
      first = std::min<std::uint64_t>(first, n.start_time_micros());
      if (n.type() != ChakraProtoMsg::COMM_COLL_NODE) continue;
      if (!start || n.start_time_micros() < *start) {
        start = n.start_time_micros();
        end = n.start_time_micros() + n.duration_micros();
      }
    }
    if (!end) return std::vector<std::int64_t>(paths.size(), 0);
    firstEnd.push_back(static_cast<std::int64_t>(*end - first));
  }
  const std::int64_t latest = *std::max_element(firstEnd.begin(), firstEnd.end());
  std::vector<std::int64_t> leads;
  for (std::size_t r = 0; r < paths.size(); ++r) {
    const std::int64_t lead = latest - firstEnd[r];
    leads.push_back(lead);
    if (lead <= 0) continue;
    auto trace = readChakraTrace(paths[r]);
    if (!trace) return trace.error();
    std::uint64_t nextId = 0;
    for (const auto& n : trace->nodes) nextId = std::max<std::uint64_t>(nextId, n.id() + 1);
    Node gap;
    gap.set_id(nextId);
    gap.set_name(std::string(kHostGapName));
    gap.set_type(ChakraProtoMsg::COMP_NODE);
    gap.set_duration_micros(static_cast<std::uint64_t>(lead));
    addAttr(gap, "is_cpu_op", true);
    for (auto& n : trace->nodes) {
      n.set_start_time_micros(n.start_time_micros() + static_cast<std::uint64_t>(lead));
      if (n.data_deps_size() == 0) n.add_data_deps(gap.id());
    }
    trace->nodes.push_back(std::move(gap));
    if (auto st = writeChakraTrace(*trace, paths[r], write); !st) return st.error();
  }
  return leads;
}

std::string describeAstraSimGraphReport(const AstraSimGraphReport& r) {
  auto share = [&](TimeNs ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%",
                  r.iterationNs > 0
                      ? 100.0 * static_cast<double>(ns) / static_cast<double>(r.iterationNs)
                      : 0.0);
    return std::string(buf);
  };
  std::string out;
  if (r.computeOverlapNs > 0)
    out += "compute that overlapped on several streams: " + std::to_string(r.overlappedKernels) +
           " kernels, " + formatMs(r.computeOverlapNs) + " beyond their union (" +
           share(r.computeOverlapNs) +
           " of the iteration); ASTRA-sim runs one kernel at a time, so they are merged into the "
           "time they took together (as separate kernels they would add that much)\n";
  if (r.commOverlapNs > 0)
    out += "communication that overlapped itself: " + formatMs(r.commOverlapNs) + " (" +
           share(r.commOverlapNs) +
           " of the iteration); ASTRA-sim runs one at a time, so each takes its share of their "
           "union (the fitted bandwidth is the link they shared)\n";
  if (r.hostMergedNs > 0)
    out += "host threads that ran at once: " + formatMs(r.hostMergedNs) +
           " merged into one host timeline (kept exact)\n";
  return out;
}

}  // namespace sutra::chakra
