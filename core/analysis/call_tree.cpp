// SPDX-License-Identifier: MIT
#include "analysis/call_tree.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>

#include "link/launch_index.h"

namespace sutra {
namespace {

constexpr std::uint32_t kNoNode = UINT32_MAX;
// A bottom-up node keeps this many of its calls for selection; the top-down tree keeps them all.
constexpr std::size_t kBottomUpEvents = 256;

std::uint64_t childKey(std::uint32_t parent, StringId name) {
  return (std::uint64_t(parent) << 32) | std::uint64_t(name);
}

bool isCallEvent(const Event& e) { return isFramework(e.klass) || isRuntime(e.klass); }

void sortByTotal(std::vector<std::uint32_t>& ids, const std::vector<CallNode>& nodes) {
  std::stable_sort(ids.begin(), ids.end(), [&](std::uint32_t a, std::uint32_t b) {
    return nodes[a].cpuTotal > nodes[b].cpuTotal;
  });
}

void finishTree(ThreadCallTree& t) {
  for (std::size_t i = t.nodes.size(); i-- > 0;) {
    CallNode& n = t.nodes[i];
    n.deviceTotal += n.selfDevice;
    TimeNs childCpu = 0;
    for (std::uint32_t c : n.children) childCpu += t.nodes[c].cpuTotal;
    n.selfCpu = std::max<TimeNs>(0, n.cpuTotal - childCpu);
    if (n.parent != kNoNode) t.nodes[n.parent].deviceTotal += n.deviceTotal;
  }
  for (CallNode& n : t.nodes) sortByTotal(n.children, t.nodes);
  sortByTotal(t.roots, t.nodes);
  t.cpuTotal = t.deviceTotal = 0;
  for (std::uint32_t r : t.roots) {
    t.cpuTotal += t.nodes[r].cpuTotal;
    t.deviceTotal += t.nodes[r].deviceTotal;
  }
}

ThreadCallTree bottomUpOf(const ThreadCallTree& top) {
  ThreadCallTree out;
  out.lane = top.lane;
  std::unordered_map<std::uint64_t, std::uint32_t> byKey;
  for (const CallNode& n : top.nodes) {
    std::uint32_t parent = kNoNode;
    for (const CallNode* at = &n;;) {
      auto [it, added] = byKey.try_emplace(childKey(parent, at->name),
                                           static_cast<std::uint32_t>(out.nodes.size()));
      if (added) {
        CallNode fresh;
        fresh.name = at->name;
        fresh.klass = at->klass;
        fresh.parent = parent;
        out.nodes.push_back(std::move(fresh));
        if (parent == kNoNode)
          out.roots.push_back(it->second);
        else
          out.nodes[parent].children.push_back(it->second);
      }
      CallNode& b = out.nodes[it->second];
      b.calls += n.calls;
      b.selfCpu += n.selfCpu;
      b.cpuTotal += n.cpuTotal;
      b.selfDevice += n.selfDevice;
      b.deviceTotal += n.deviceTotal;
      for (std::size_t i = 0; i < n.events.size() && b.events.size() < kBottomUpEvents; ++i)
        b.events.push_back(n.events[i]);
      parent = it->second;
      if (at->parent == kNoNode) break;
      at = &top.nodes[at->parent];
    }
  }
  for (CallNode& n : out.nodes) {
    sortByTotal(n.children, out.nodes);
    std::sort(n.events.begin(), n.events.end());
  }
  sortByTotal(out.roots, out.nodes);
  for (std::uint32_t r : out.roots) {
    out.cpuTotal += out.nodes[r].selfCpu;
    out.deviceTotal += out.nodes[r].selfDevice;
  }
  return out;
}

}  // namespace

CallTree buildCallTree(const Trace& trace, const LaunchIndex& launches,
                       const CallTreeOptions& options) {
  CallTree out;
  out.window = options.window;
  out.bottomUp = options.bottomUp;
  std::vector<std::uint32_t> nodeOf(trace.events.size(), kNoNode);
  std::vector<std::uint32_t> treeOfLane(trace.lanes.size(), kNoNode);
  std::vector<ThreadCallTree> trees;
  for (LaneId l = 0; l < trace.lanes.size(); ++l) {
    const Lane& lane = trace.lanes[l];
    if (lane.kind != LaneKind::HostThread) continue;
    ThreadCallTree t;
    t.lane = l;
    std::unordered_map<std::uint64_t, std::uint32_t> byKey;
    for (EventId id = lane.firstEvent; id < lane.endEvent; ++id) {
      const Event& e = trace.events[id];
      if (!isCallEvent(e) || !options.window.contains(e.start)) continue;
      EventId p = e.parent;
      while (p != kNoEvent && nodeOf[p] == kNoNode) p = trace.events[p].parent;
      const std::uint32_t parent = p == kNoEvent ? kNoNode : nodeOf[p];
      auto [it, added] =
          byKey.try_emplace(childKey(parent, e.name), static_cast<std::uint32_t>(t.nodes.size()));
      if (added) {
        CallNode n;
        n.name = e.name;
        n.klass = e.klass;
        n.parent = parent;
        t.nodes.push_back(std::move(n));
        if (parent == kNoNode)
          t.roots.push_back(it->second);
        else
          t.nodes[parent].children.push_back(it->second);
      }
      CallNode& n = t.nodes[it->second];
      n.calls += 1;
      n.cpuTotal += e.dur;
      n.events.push_back(id);
      nodeOf[id] = it->second;
    }
    if (t.nodes.empty()) continue;
    treeOfLane[l] = static_cast<std::uint32_t>(trees.size());
    trees.push_back(std::move(t));
  }
  for (const DeviceLaunch& launch : launches.launches()) {
    EventId owner = launch.runtimeCall;
    if (owner == kNoEvent || nodeOf[owner] == kNoNode) owner = launch.launcher;
    if (owner == kNoEvent || nodeOf[owner] == kNoNode) continue;
    const std::uint32_t tree = treeOfLane[trace.events[owner].lane];
    trees[tree].nodes[nodeOf[owner]].selfDevice += trace.events[launch.deviceOp].dur;
  }
  for (ThreadCallTree& t : trees) {
    finishTree(t);
    out.threads.push_back(options.bottomUp ? bottomUpOf(t) : std::move(t));
  }
  return out;
}

namespace {

std::string threadLabel(const Trace& trace, LaneId lane) {
  const Lane& l = trace.lanes[lane];
  std::string text = l.pid + "/" + l.tid;
  if (!l.threadName.empty()) text += " (" + l.threadName + ")";
  return text;
}

nlohmann::json nodeJson(const Trace& trace, const ThreadCallTree& t, std::uint32_t id,
                        std::size_t depth, std::size_t maxDepth) {
  const CallNode& n = t.nodes[id];
  nlohmann::json j = {{"name", trace.names.view(n.name)}, {"calls", n.calls},
                      {"self_cpu_ns", n.selfCpu},         {"total_cpu_ns", n.cpuTotal},
                      {"self_device_ns", n.selfDevice},   {"total_device_ns", n.deviceTotal}};
  nlohmann::json children = nlohmann::json::array();
  if (maxDepth == 0 || depth + 1 < maxDepth)
    for (std::uint32_t c : n.children)
      children.push_back(nodeJson(trace, t, c, depth + 1, maxDepth));
  j["children"] = std::move(children);
  return j;
}

void nodeText(const Trace& trace, const ThreadCallTree& t, std::uint32_t id, std::size_t depth,
              std::size_t maxDepth, std::string& out) {
  const CallNode& n = t.nodes[id];
  char line[160];
  std::snprintf(line, sizeof line, "%8llu %11s %11s %11s %11s  ",
                static_cast<unsigned long long>(n.calls), formatDuration(n.selfCpu).c_str(),
                formatDuration(n.cpuTotal).c_str(), formatDuration(n.selfDevice).c_str(),
                formatDuration(n.deviceTotal).c_str());
  out += line;
  out += std::string(depth * 2, ' ');
  out += trace.names.view(n.name);
  out += "\n";
  if (maxDepth == 0 || depth + 1 < maxDepth)
    for (std::uint32_t c : n.children) nodeText(trace, t, c, depth + 1, maxDepth, out);
}

}  // namespace

nlohmann::json callTreeJson(const Trace& trace, const CallTree& tree, std::size_t maxDepth) {
  nlohmann::json threads = nlohmann::json::array();
  for (const ThreadCallTree& t : tree.threads) {
    nlohmann::json nodes = nlohmann::json::array();
    for (std::uint32_t r : t.roots) nodes.push_back(nodeJson(trace, t, r, 0, maxDepth));
    threads.push_back({{"thread", threadLabel(trace, t.lane)},
                       {"cpu_total_ns", t.cpuTotal},
                       {"device_total_ns", t.deviceTotal},
                       {"nodes", std::move(nodes)}});
  }
  return {{"window", {{"start_ns", tree.window.start}, {"end_ns", tree.window.end}}},
          {"bottom_up", tree.bottomUp},
          {"threads", std::move(threads)}};
}

std::string callTreeText(const Trace& trace, const CallTree& tree, std::size_t maxDepth) {
  std::string out;
  for (const ThreadCallTree& t : tree.threads) {
    out += "Thread " + threadLabel(trace, t.lane) + (tree.bottomUp ? " (bottom-up)" : "") +
           ": CPU " + formatDuration(t.cpuTotal) + ", device " + formatDuration(t.deviceTotal) +
           "\n";
    out += tree.bottomUp ? "   calls    self CPU   total CPU self device total dev  function "
                           "(callers below)\n"
                         : "   calls    self CPU   total CPU self device total dev  call\n";
    for (std::uint32_t r : t.roots) nodeText(trace, t, r, 0, maxDepth, out);
  }
  if (tree.threads.empty()) out += "No host calls in the window.\n";
  return out;
}

}  // namespace sutra
