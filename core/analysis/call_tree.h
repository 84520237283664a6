// SPDX-License-Identifier: MIT
#pragma once
// Call trees of the host ops of each thread, as Nsight Systems' and TensorBoard's: top-down (each
// path of nested calls is a node) and bottom-up (each function at the root, its callers below).
//
// Nodes: the host events of a thread that start in the window: framework ops (cpu_op), user
// annotations, Python frames (python_function, where the trace was recorded with_stack) and runtime
// and driver calls; a node's parent is the nearest enclosing such event that is also in the window
// (an op whose parent began before the window is a root). Calls of one name under the same parent
// path share a node.
// - Total CPU = the durations of its calls; self CPU = total minus its direct children's totals.
// - Self device = the durations of the device ops its calls launched: a device op belongs to the
//   runtime call that launched it (same correlation), or, where that call is no node, to the
//   innermost framework op enclosing the call (LaunchIndex::launcherOf). Device total adds the
//   children's. The roots' device totals sum to the device time launched from the thread.
// - Bottom-up: every top-down node adds its calls, self and total times to the path
//   [its name, its parent's name, ... the root's name]; a root's self time is then the function's
//   whole self time on the thread. (A recursive function adds its total once per level, as torch
//   counts recursion.)
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/trace.h"

namespace sutra {

class LaunchIndex;

struct CallNode {
  StringId name = 0;
  CategoryClass klass = CategoryClass::Other;  // of its first call
  std::uint32_t parent = UINT32_MAX;           // index in ThreadCallTree::nodes; none for roots
  std::vector<std::uint32_t> children;         // sorted by total CPU, largest first
  std::uint64_t calls = 0;
  TimeNs selfCpu = 0, cpuTotal = 0, selfDevice = 0, deviceTotal = 0;
  std::vector<EventId> events;  // its calls, by start (top-down), or its functions' calls
};

struct ThreadCallTree {
  LaneId lane = 0;
  std::vector<CallNode> nodes;
  std::vector<std::uint32_t> roots;  // sorted by total CPU, largest first
  TimeNs cpuTotal = 0;               // the roots' totals
  TimeNs deviceTotal = 0;
};

struct CallTreeOptions {
  TimeWindow window;  // calls starting in it
  bool bottomUp = false;
};

struct CallTree {
  TimeWindow window;
  bool bottomUp = false;
  std::vector<ThreadCallTree> threads;  // host threads with calls in the window, by lane
};

CallTree buildCallTree(const Trace& trace, const LaunchIndex& launches,
                       const CallTreeOptions& options);

// {"window":{"start_ns","end_ns"},"bottom_up","threads":[{"thread","cpu_total_ns",
//  "device_total_ns","nodes":[{"name","calls","self_cpu_ns","total_cpu_ns","self_device_ns",
//  "total_device_ns","children":[...]}]}]}; maxDepth 0 = all levels.
nlohmann::json callTreeJson(const Trace& trace, const CallTree& tree, std::size_t maxDepth = 0);
std::string callTreeText(const Trace& trace, const CallTree& tree, std::size_t maxDepth = 0);

}  // namespace sutra
