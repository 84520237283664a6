// SPDX-License-Identifier: MIT
#include "chakra/node_dependencies.h"

#include <algorithm>

namespace sutra::chakra {

NodeIndex::NodeIndex(const std::vector<ChakraProtoMsg::Node>& nodes) : byId_(nodes.size()) {
  for (std::uint32_t i = 0; i < nodes.size(); ++i) byId_[i] = {nodes[i].id(), i};
  if (!std::is_sorted(byId_.begin(), byId_.end())) std::sort(byId_.begin(), byId_.end());
}

std::optional<std::uint32_t> NodeIndex::find(std::uint64_t id) const {
  const auto it = std::lower_bound(byId_.begin(), byId_.end(), std::make_pair(id, std::uint32_t{0}));
  if (it == byId_.end() || it->first != id) return std::nullopt;
  return it->second;
}

NodeDependencies NodeDependencies::build(const std::vector<ChakraProtoMsg::Node>& nodes,
                                         const NodeIndex& index) {
  const std::size_t n = nodes.size();
  NodeDependencies d;
  d.depOffsets.assign(n + 1, 0);
  d.deps.reserve(2 * n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::size_t first = d.deps.size();
    auto add = [&](std::uint64_t id) {
      if (const auto at = index.find(id); at && *at != i) d.deps.push_back(*at);
    };
    for (const auto id : nodes[i].ctrl_deps()) add(id);
    for (const auto id : nodes[i].data_deps()) add(id);
    const auto begin = d.deps.begin() + static_cast<std::ptrdiff_t>(first);
    std::sort(begin, d.deps.end());
    d.deps.erase(std::unique(begin, d.deps.end()), d.deps.end());
    d.depOffsets[i + 1] = static_cast<std::uint32_t>(d.deps.size());
  }
  d.dependantOffsets.assign(n + 1, 0);
  for (const auto dep : d.deps) ++d.dependantOffsets[dep + 1];
  for (std::size_t i = 0; i < n; ++i) d.dependantOffsets[i + 1] += d.dependantOffsets[i];
  d.dependants.resize(d.deps.size());
  std::vector<std::uint32_t> fill(d.dependantOffsets.begin(), d.dependantOffsets.end() - 1);
  for (std::uint32_t i = 0; i < n; ++i)
    for (const auto dep : d.of(i)) d.dependants[fill[dep]++] = i;
  return d;
}

}  // namespace sutra::chakra
