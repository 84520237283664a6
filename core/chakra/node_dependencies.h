// SPDX-License-Identifier: MIT
#pragma once
// A Chakra graph's dependencies by position in its node list, for walking the graph: node ids to
// positions (one sorted array), and each node's dependencies and dependants as flat arrays with
// offsets. No container per node: at a million nodes, a hash map entry and a vector per node cost
// more than simulating the graph.
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "et_def.pb.h"

namespace sutra::chakra {

class NodeIndex {
 public:
  explicit NodeIndex(const std::vector<ChakraProtoMsg::Node>& nodes);
  // The position of the node with this id; of the first one where several share it.
  std::optional<std::uint32_t> find(std::uint64_t id) const;

 private:
  static constexpr std::uint32_t kAbsent = UINT32_MAX;
  // Ids that are nearly dense (as the writers number them) index a table directly; any others
  // are found by binary search in the sorted pairs.
  std::uint64_t firstId_ = 0;
  std::vector<std::uint32_t> byOffset_;                        // id - firstId_ -> position
  std::vector<std::pair<std::uint64_t, std::uint32_t>> byId_;  // sorted, where byOffset_ is empty
};

struct NodeDependencies {
  // Node i depends on deps[depOffsets[i] .. depOffsets[i + 1]): ctrl and data dependencies on
  // nodes present in the file, not on itself, each once, by position ascending.
  std::vector<std::uint32_t> depOffsets, deps;
  // Node i's dependants, the reverse of the above, by position ascending.
  std::vector<std::uint32_t> dependantOffsets, dependants;

  static NodeDependencies build(const std::vector<ChakraProtoMsg::Node>& nodes,
                                const NodeIndex& index);

  std::span<const std::uint32_t> of(std::size_t i) const {
    return {deps.data() + depOffsets[i], deps.data() + depOffsets[i + 1]};
  }
  std::span<const std::uint32_t> dependantsOf(std::size_t i) const {
    return {dependants.data() + dependantOffsets[i], dependants.data() + dependantOffsets[i + 1]};
  }
};

}  // namespace sutra::chakra
