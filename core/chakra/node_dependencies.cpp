// SPDX-License-Identifier: MIT
#include "chakra/node_dependencies.h"

#include <algorithm>

namespace sutra::chakra {

NodeIndex::NodeIndex(const std::vector<ChakraProtoMsg::Node>& nodes) {
  if (nodes.empty()) return;
  const auto [lo, hi] = std::minmax_element(
      nodes.begin(), nodes.end(), [](const auto& a, const auto& b) { return a.id() < b.id(); });
  const std::uint64_t span = hi->id() - lo->id();
  if (span < 4 * static_cast<std::uint64_t>(nodes.size())) {
    firstId_ = lo->id();
    byOffset_.assign(span + 1, kAbsent);
    for (std::uint32_t i = 0; i < nodes.size(); ++i) {
      std::uint32_t& slot = byOffset_[nodes[i].id() - firstId_];
      if (slot == kAbsent) slot = i;  // the first of several nodes with one id
    }
    return;
  }
  byId_.resize(nodes.size());
  for (std::uint32_t i = 0; i < nodes.size(); ++i) byId_[i] = {nodes[i].id(), i};
  if (!std::is_sorted(byId_.begin(), byId_.end())) std::sort(byId_.begin(), byId_.end());
}

std::optional<std::uint32_t> NodeIndex::find(std::uint64_t id) const {
  if (!byOffset_.empty()) {
    if (id < firstId_ || id - firstId_ >= byOffset_.size()) return std::nullopt;
    const std::uint32_t at = byOffset_[id - firstId_];
    return at == kAbsent ? std::nullopt : std::optional<std::uint32_t>(at);
  }
  const auto it =
      std::lower_bound(byId_.begin(), byId_.end(), std::make_pair(id, std::uint32_t{0}));
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
