// SPDX-License-Identifier: MIT
#include "model/et_trace.h"

#include <algorithm>

namespace sutra {
namespace {
bool isProfilerNode(std::string_view name, std::string_view kind) {
  // Older writers call the root execution_graph, newer execution_trace.
  return name.starts_with("[pytorch|profiler|execution_") && name.ends_with(kind);
}
}  // namespace

bool EtNode::isRoot() const { return isProfilerNode(name, "|process]"); }
bool EtNode::isThreadRoot() const { return isProfilerNode(name, "|thread]"); }

std::vector<std::vector<std::uint32_t>> EtTrace::childrenByIndex() const {
  std::vector<std::vector<std::uint32_t>> children(nodes.size());
  for (std::uint32_t i = 0; i < nodes.size(); ++i) {
    const auto& n = nodes[i];
    if (n.parent == n.id) continue;  // the process root is its own parent
    if (auto it = indexById.find(n.parent); it != indexById.end())
      children[it->second].push_back(i);
  }
  for (auto& c : children)
    std::sort(c.begin(), c.end(), [&](auto a, auto b) { return nodes[a].id < nodes[b].id; });
  return children;
}

}  // namespace sutra
