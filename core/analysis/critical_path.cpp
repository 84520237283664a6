// SPDX-License-Identifier: MIT
#include "analysis/critical_path.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "link/launch_index.h"
#include "model/time.h"

namespace sutra {
namespace {

constexpr std::uint32_t kNone = UINT32_MAX;

bool isHostOp(CategoryClass c) {
  return c == CategoryClass::CpuOp || c == CategoryClass::UserAnnotation ||
         c == CategoryClass::Runtime || c == CategoryClass::Driver;
}

bool isCommunication(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return lower.find("nccl") != std::string::npos || lower.find("rccl") != std::string::npos;
}

struct Edge {
  std::uint32_t from, to;  // node ids: 2 * k for event k's start, 2 * k + 1 for its end
  TimeNs weight;
  CriticalKind kind;
  EventId attributed;
};

class GraphBuilder {
 public:
  GraphBuilder(const Trace& trace, const LaunchIndex& launches,
               const std::vector<SyncDependency>& syncs, const TimeWindow& window)
      : trace_(trace), launches_(launches), syncs_(syncs), window_(window) {}

  CriticalPath run() {
    selectEvents();
    edges_.reserve(events_.size() * 2 + syncs_.size());
    addSyncEdges();  // first: they decide which blocking calls weigh nothing
    addCpuEdges();
    addDeviceEdges();
    return longestPath();
  }

 private:
  std::uint32_t startNode(std::uint32_t k) const { return 2 * k; }
  std::uint32_t endNode(std::uint32_t k) const { return 2 * k + 1; }
  TimeNs nodeTime(std::uint32_t n) const {
    const Event& e = trace_.events[events_[n / 2]];
    return n % 2 ? e.end() : e.start;
  }
  std::uint32_t index(EventId e) const { return slot_[e]; }

  // HTA's nodes are ops and runtime calls (cpu_op, cuda_runtime, cuda_driver): annotations are
  // none, their own time is no CPU work. ProfilerStep#N written as an op (PyTorch <= 1.12) is the
  // step's annotation all the same.
  bool isGraphHostOp(const Event& e) {
    if (!isHostOp(e.klass) || e.klass == CategoryClass::UserAnnotation) return false;
    if (e.klass != CategoryClass::CpuOp) return true;
    if (stepAnnotation_.empty()) stepAnnotation_.assign(trace_.names.size(), -1);
    if (stepAnnotation_[e.name] < 0)
      stepAnnotation_[e.name] = trace_.name(e).starts_with("ProfilerStep#") ? 1 : 0;
    return stepAnnotation_[e.name] == 0;
  }

  void selectEvents() {
    slot_.assign(trace_.events.size(), kNone);
    for (EventId i = 0; i < trace_.events.size(); ++i) {
      const Event& e = trace_.events[i];
      if (isGraphHostOp(e) && window_.contains(e.start)) add(i);
    }
    // Device ops launched in the window; one launched before the trace (no call in it) belongs
    // to no step, only to the whole trace (as in the operator table).
    const bool wholeTrace = window_.start <= trace_.startNs && window_.end > trace_.endNs;
    for (EventId i = 0; i < trace_.events.size(); ++i) {
      const Event& e = trace_.events[i];
      if (!isDeviceOp(e.klass)) continue;
      const EventId call = launches_.runtimeCallOf(i);
      if (call != kNoEvent ? slot_[call] != kNone : wholeTrace && window_.contains(e.start)) add(i);
    }
    // How long each stream was busy before each of the graph's device ops, with every op on it,
    // those outside the window (launched earlier) too: a launch delay is only the stream's idle
    // time.
    for (const Lane& lane : trace_.lanes) {
      TimeNs busy = -1;
      for (EventId i = lane.firstEvent; i < lane.endEvent; ++i) {
        const Event& e = trace_.events[i];
        if (!isDeviceOp(e.klass)) continue;
        if (slot_[i] != kNone) busyUntil_[slot_[i]] = busy;
        busy = std::max(busy, e.end());
      }
    }
  }

  void add(EventId e) {
    slot_[e] = static_cast<std::uint32_t>(events_.size());
    events_.push_back(e);
    zeroed_.push_back(false);
    busyUntil_.push_back(-1);
  }

  void edge(std::uint32_t from, std::uint32_t to, TimeNs weight, CriticalKind kind,
            EventId attributed) {
    // Clock skew can put a device op before its launch: never a negative length.
    edges_.push_back({from, to, std::max<TimeNs>(weight, 0), kind, attributed});
  }

  void addSyncEdges() {
    for (const auto& s : syncs_) {
      if (s.waiter == kNoEvent || s.waitedOn == kNoEvent) continue;
      const std::uint32_t w = index(s.waiter), on = index(s.waitedOn);
      if (w == kNone || on == kNone) continue;
      const Event& waiter = trace_.events[s.waiter];
      const Event& awaited = trace_.events[s.waitedOn];
      if (isDeviceOp(waiter.klass)) {
        streamWaits_.emplace(s.waiter, s.waitedOn);  // used when the stream's edges are built
        continue;
      }
      // The call's tail after the awaited op ended is sync wait; the rest of its span is covered by
      // the device work, so the call's own span weighs nothing.
      const TimeNs tail = waiter.end() - std::max(awaited.end(), waiter.start);
      edge(endNode(on), endNode(w), tail, CriticalKind::SyncWait, s.waiter);
      zeroed_[w] = true;
    }
  }

  // HTA's call-stack walk, per thread: enter and exit each op in nesting order.
  void addCpuEdges() {
    std::vector<EventId> parent(events_.size(), kNoEvent);  // by slot: the enclosing graph op
    std::map<LaneId, std::vector<std::uint32_t>> byLane;
    for (std::uint32_t k = 0; k < events_.size(); ++k) {
      const Event& e = trace_.events[events_[k]];
      if (isDeviceOp(e.klass)) continue;
      byLane[e.lane].push_back(k);
      EventId p = e.parent;
      while (p != kNoEvent && (slot_[p] == kNone || e.end() > trace_.events[p].end()))
        p = trace_.events[p].parent;
      parent[k] = p;
    }
    for (auto& [lane, ops] : byLane) {
      // Slots were given in event order, which on a lane is start order: no sort needed.
      std::vector<std::uint32_t> stack;
      std::uint32_t last = kNone, lastTop = kNone;
      auto exit = [&]() {
        const std::uint32_t k = stack.back();
        stack.pop_back();
        if (last != kNone) {
          const EventId e = events_[k];
          const bool zero = zeroed_[k];
          const EventId to = last % 2 == 0 ? events_[last / 2] : e;  // HTA's cases 2 and 3
          edge(last, endNode(k), zero ? 0 : nodeTime(endNode(k)) - nodeTime(last),
               zero ? CriticalKind::Dependency : CriticalKind::Cpu, to);
        }
        if (stack.empty()) {
          last = kNone;
          lastTop = endNode(k);
        } else {
          last = endNode(k);
        }
      };
      for (std::uint32_t k : ops) {
        const EventId p = parent[k];
        while (!stack.empty() && events_[stack.back()] != p) exit();
        if (stack.empty() && lastTop != kNone)
          edge(lastTop, startNode(k), 0, CriticalKind::Dependency, kNoEvent);
        if (last != kNone) {
          // From a start node the time lies in that op (case 1); from an end node, in the op that
          // encloses both (case 4).
          const EventId in = last % 2 == 0 ? events_[last / 2]
                                           : (stack.empty() ? kNoEvent : events_[stack.back()]);
          edge(last, startNode(k), nodeTime(startNode(k)) - nodeTime(last),
               in == kNoEvent ? CriticalKind::Dependency : CriticalKind::Cpu, in);
        }
        last = startNode(k);
        stack.push_back(k);
      }
      while (!stack.empty()) exit();
    }
  }

  void addDeviceEdges() {
    std::map<LaneId, std::vector<std::uint32_t>> byLane;
    for (std::uint32_t k = 0; k < events_.size(); ++k)
      if (isDeviceOp(trace_.events[events_[k]].klass))
        byLane[trace_.events[events_[k]].lane].push_back(k);
    for (auto& [lane, ops] : byLane) {
      std::uint32_t prev = kNone;  // ops are in start order, as their slots were given
      for (std::uint32_t k : ops) {
        const EventId d = events_[k];
        const Event& e = trace_.events[d];
        if (communication_.empty()) communication_.assign(trace_.names.size(), -1);
        if (communication_[e.name] < 0)
          communication_[e.name] = isCommunication(trace_.name(e)) ? 1 : 0;
        edge(startNode(k), endNode(k), e.dur,
             communication_[e.name] ? CriticalKind::DeviceCommunication
                                    : CriticalKind::DeviceCompute,
             d);
        TimeNs syncEnd = -1;
        if (auto it = streamWaits_.find(d); it != streamWaits_.end()) {
          const std::uint32_t src = index(it->second);
          edge(endNode(src), startNode(k), 0, CriticalKind::Dependency, kNoEvent);
          syncEnd = trace_.events[it->second].end();
        }
        const EventId call = launches_.runtimeCallOf(d);
        const TimeNs prevEnd = prev == kNone ? -1 : trace_.events[events_[prev]].end();
        // Never more than the stream's idle time before the op (ops of other windows included).
        const TimeNs busy = busyUntil_[k];
        if (call != kNoEvent && index(call) != kNone) {
          const TimeNs callStart = trace_.events[call].start;
          if ((prev == kNone || prevEnd < callStart) && syncEnd < callStart) {
            edge(startNode(index(call)), startNode(k), e.start - std::max(callStart, busy),
                 CriticalKind::LaunchDelay, call);
            prev = k;
            continue;
          }
        }
        if (prev != kNone && syncEnd < prevEnd)
          edge(endNode(prev), startNode(k), e.start - std::max(prevEnd, busy),
               CriticalKind::KernelGap, events_[prev]);
        prev = k;
      }
    }
  }

  CriticalPath longestPath() {
    CriticalPath path;
    path.window = window_;
    const std::size_t n = 2 * events_.size();
    path.nodes = n;
    path.edges = edges_.size();
    if (n == 0) return path;
    // Kahn's topological order over the edges (times alone do not order ties of zero length).
    std::vector<std::uint32_t> indegree(n, 0), firstOut(n + 1, 0), outs(edges_.size());
    for (const auto& e : edges_) {
      ++indegree[e.to];
      ++firstOut[e.from + 1];
    }
    for (std::size_t i = 0; i < n; ++i) firstOut[i + 1] += firstOut[i];
    {
      std::vector<std::uint32_t> fill(firstOut.begin(), firstOut.end() - 1);
      for (std::uint32_t i = 0; i < edges_.size(); ++i) outs[fill[edges_[i].from]++] = i;
    }
    std::vector<TimeNs> dist(n, 0);
    std::vector<std::uint32_t> via(n, kNone), queue;
    queue.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i)
      if (indegree[i] == 0) queue.push_back(i);
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const std::uint32_t u = queue[head];
      for (std::uint32_t j = firstOut[u]; j < firstOut[u + 1]; ++j) {
        const Edge& e = edges_[outs[j]];
        if (via[e.to] == kNone || dist[u] + e.weight > dist[e.to]) {
          dist[e.to] = dist[u] + e.weight;
          via[e.to] = outs[j];
        }
        if (--indegree[e.to] == 0) queue.push_back(e.to);
      }
    }
    // Nodes on a cycle (never reached by the order) are left out.
    std::uint32_t best = kNone;
    for (std::uint32_t u : queue)
      if (best == kNone || dist[u] > dist[best] ||
          (dist[u] == dist[best] && nodeTime(u) > nodeTime(best)))
        best = u;
    std::vector<std::uint32_t> chain;
    for (std::uint32_t u = best; via[u] != kNone; u = edges_[via[u]].from) chain.push_back(via[u]);
    std::reverse(chain.begin(), chain.end());
    path.start = nodeTime(chain.empty() ? best : edges_[chain.front()].from);
    path.end = nodeTime(best);
    for (std::uint32_t i : chain) {
      const Edge& e = edges_[i];
      CriticalSegment s;
      s.kind = e.kind;
      s.event = e.attributed;
      s.from = events_[e.from / 2];
      s.to = events_[e.to / 2];
      s.start = nodeTime(e.from);
      s.end = nodeTime(e.to);
      s.weight = e.weight;
      path.length += e.weight;
      switch (e.kind) {
        case CriticalKind::Cpu:
          path.breakdown.cpu += e.weight;
          break;
        case CriticalKind::DeviceCompute:
          path.breakdown.deviceCompute += e.weight;
          break;
        case CriticalKind::DeviceCommunication:
          path.breakdown.deviceCommunication += e.weight;
          break;
        case CriticalKind::LaunchDelay:
          path.breakdown.launchDelay += e.weight;
          break;
        case CriticalKind::KernelGap:
          path.breakdown.kernelGap += e.weight;
          break;
        case CriticalKind::SyncWait:
          path.breakdown.syncWait += e.weight;
          break;
        case CriticalKind::Dependency:
          break;
      }
      path.segments.push_back(s);
    }
    return path;
  }

  const Trace& trace_;
  const LaunchIndex& launches_;
  const std::vector<SyncDependency>& syncs_;
  const TimeWindow window_;
  std::vector<EventId> events_;      // the graph's events, by slot
  std::vector<std::uint32_t> slot_;  // event -> slot, kNone outside the graph
  std::vector<Edge> edges_;
  std::vector<std::int8_t> communication_;  // by name: 1 a collective kernel, 0 not, -1 unknown
  std::vector<bool> zeroed_;                // by slot: blocking calls reached by a sync edge
  std::vector<TimeNs> busyUntil_;  // by slot (device ops): the stream's busy end before the op
  std::vector<std::int8_t> stepAnnotation_;  // by name: 1 ProfilerStep#N, 0 not, -1 unknown
  std::map<EventId, EventId> streamWaits_;   // waiting device op -> awaited device op
};

}  // namespace

std::string_view criticalKindName(CriticalKind kind) {
  switch (kind) {
    case CriticalKind::Cpu:
      return "cpu";
    case CriticalKind::DeviceCompute:
      return "device_compute";
    case CriticalKind::DeviceCommunication:
      return "device_communication";
    case CriticalKind::LaunchDelay:
      return "launch_delay";
    case CriticalKind::KernelGap:
      return "kernel_gap";
    case CriticalKind::SyncWait:
      return "sync_wait";
    case CriticalKind::Dependency:
      return "dependency";
  }
  return "dependency";
}

CriticalPath criticalPath(const Trace& trace, const LaunchIndex& launches,
                          const std::vector<SyncDependency>& syncs, const TimeWindow& window) {
  return GraphBuilder(trace, launches, syncs, window).run();
}

namespace {

nlohmann::json breakdownJson(const CriticalBreakdown& b) {
  return {{"cpu_ns", b.cpu},
          {"device_compute_ns", b.deviceCompute},
          {"device_communication_ns", b.deviceCommunication},
          {"launch_delay_ns", b.launchDelay},
          {"kernel_gap_ns", b.kernelGap},
          {"sync_wait_ns", b.syncWait}};
}

// Path time per attributed event and kind, largest first.
std::vector<std::pair<std::pair<EventId, CriticalKind>, TimeNs>> byEvent(const CriticalPath& path) {
  std::map<std::pair<EventId, CriticalKind>, TimeNs> sums;
  for (const auto& s : path.segments)
    if (s.weight > 0) sums[{s.event, s.kind}] += s.weight;
  std::vector<std::pair<std::pair<EventId, CriticalKind>, TimeNs>> out(sums.begin(), sums.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

}  // namespace

nlohmann::json criticalPathJson(const Trace& trace, const CriticalPath& path,
                                std::size_t maxSegments) {
  nlohmann::json segments = nlohmann::json::array();
  const std::size_t n =
      maxSegments == 0 ? path.segments.size() : std::min(maxSegments, path.segments.size());
  for (std::size_t i = 0; i < n; ++i) {
    const auto& s = path.segments[i];
    nlohmann::json seg = {{"kind", criticalKindName(s.kind)},
                          {"from", s.from},
                          {"to", s.to},
                          {"start_ns", s.start},
                          {"end_ns", s.end},
                          {"weight_ns", s.weight}};
    if (s.event != kNoEvent) {
      seg["event"] = s.event;
      seg["name"] = trace.name(trace.events[s.event]);
    }
    segments.push_back(std::move(seg));
  }
  nlohmann::json window = {{"start_ns", path.window.start}, {"end_ns", path.window.end}};
  if (!path.label.empty()) window["label"] = path.label;
  return {{"window", std::move(window)},
          {"start_ns", path.start},
          {"end_ns", path.end},
          {"length_ns", path.length},
          {"breakdown", breakdownJson(path.breakdown)},
          {"graph", {{"nodes", path.nodes}, {"edges", path.edges}}},
          {"segments", std::move(segments)},
          {"segment_count", path.segments.size()}};
}

std::string criticalPathText(const Trace& trace, const CriticalPath& path,
                             std::size_t maxSegments) {
  std::string out;
  auto share = [&](TimeNs part) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%5.1f%%",
                  path.length ? 100.0 * double(part) / double(path.length) : 0.0);
    return std::string(buffer);
  };
  if (!path.label.empty()) out += "Window: " + path.label + "\n";
  out += "Critical path: " + formatDuration(path.length) + " of a " +
         formatDuration(path.end - path.start) + " span (" + std::to_string(path.segments.size()) +
         " edges; graph of " + std::to_string(path.nodes) + " nodes, " +
         std::to_string(path.edges) + " edges)\n";
  const auto& b = path.breakdown;
  const std::pair<const char*, TimeNs> parts[] = {{"CPU", b.cpu},
                                                  {"device compute", b.deviceCompute},
                                                  {"device communication", b.deviceCommunication},
                                                  {"launch delay", b.launchDelay},
                                                  {"kernel-to-kernel gap", b.kernelGap},
                                                  {"sync wait", b.syncWait}};
  for (const auto& [label, value] : parts) {
    char line[128];
    std::snprintf(line, sizeof line, "  %-22s %12s  %s\n", label, formatDuration(value).c_str(),
                  share(value).c_str());
    out += line;
  }
  out += "\nTop events on the path:\n";
  const auto top = byEvent(path);
  for (std::size_t i = 0; i < top.size() && i < maxSegments; ++i) {
    const auto& [key, weight] = top[i];
    const std::string name =
        key.first == kNoEvent ? "-" : std::string(trace.name(trace.events[key.first]));
    char line[96];
    std::snprintf(line, sizeof line, "  %12s  %s  %-20s ", formatDuration(weight).c_str(),
                  share(weight).c_str(), std::string(criticalKindName(key.second)).c_str());
    out += line + (name.size() > 90 ? name.substr(0, 87) + "..." : name) + "\n";
  }
  return out;
}

}  // namespace sutra
