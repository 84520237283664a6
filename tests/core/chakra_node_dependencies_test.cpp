// SPDX-License-Identifier: MIT
// A Chakra graph's dependencies by position: ids looked up (a duplicate finds its first node),
// dependencies on absent ids and on the node itself left out, each dependency once, and the
// dependants the exact reverse.
#include <gtest/gtest.h>

#include <vector>

#include "chakra/node_dependencies.h"

namespace sutra::chakra {
namespace {

ChakraProtoMsg::Node node(std::uint64_t id, std::vector<std::uint64_t> ctrl,
                          std::vector<std::uint64_t> data) {
  ChakraProtoMsg::Node n;
  n.set_id(id);
  for (auto d : ctrl) n.add_ctrl_deps(d);
  for (auto d : data) n.add_data_deps(d);
  return n;
}

std::vector<std::uint32_t> list(std::span<const std::uint32_t> s) { return {s.begin(), s.end()}; }

TEST(NodeDependencies, ByPositionOnceEachAndReversed) {
  // Ids out of order in the file, one id twice (40), a dependency on an absent id (99), one on
  // the node itself, one given as both ctrl and data.
  const std::vector<ChakraProtoMsg::Node> nodes{
      node(30, {}, {}),          // 0
      node(10, {30}, {30, 99}),  // 1: on 0 (ctrl and data), 99 absent
      node(40, {10}, {40}),      // 2: on 1; on itself
      node(20, {40}, {10, 30}),  // 3: on 2 (the first 40), 1, 0
      node(40, {}, {20}),        // 4: a second 40, on 3
  };
  const NodeIndex index(nodes);
  EXPECT_EQ(index.find(30), 0u);
  EXPECT_EQ(index.find(40), 2u);  // the first of the two
  EXPECT_FALSE(index.find(99));

  const NodeDependencies d = NodeDependencies::build(nodes, index);
  EXPECT_EQ(list(d.of(0)), (std::vector<std::uint32_t>{}));
  EXPECT_EQ(list(d.of(1)), (std::vector<std::uint32_t>{0}));
  EXPECT_EQ(list(d.of(2)), (std::vector<std::uint32_t>{1}));
  EXPECT_EQ(list(d.of(3)), (std::vector<std::uint32_t>{0, 1, 2}));
  EXPECT_EQ(list(d.of(4)), (std::vector<std::uint32_t>{3}));
  EXPECT_EQ(list(d.dependantsOf(0)), (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(list(d.dependantsOf(1)), (std::vector<std::uint32_t>{2, 3}));
  EXPECT_EQ(list(d.dependantsOf(2)), (std::vector<std::uint32_t>{3}));
  EXPECT_EQ(list(d.dependantsOf(3)), (std::vector<std::uint32_t>{4}));
  EXPECT_EQ(list(d.dependantsOf(4)), (std::vector<std::uint32_t>{}));
}

TEST(NodeIndex, DenseAndSparseIdsFindTheSame) {
  // Dense ids take the direct table, sparse ones the sorted search; a duplicate finds its first.
  const std::vector<ChakraProtoMsg::Node> dense{node(7, {}, {}), node(5, {}, {}), node(6, {}, {}),
                                                node(5, {}, {})};
  const std::vector<ChakraProtoMsg::Node> sparse{node(7000000, {}, {}), node(5, {}, {}),
                                                 node(6, {}, {}), node(5, {}, {})};
  const NodeIndex a(dense), b(sparse);
  EXPECT_EQ(a.find(5), 1u);
  EXPECT_EQ(b.find(5), 1u);
  EXPECT_EQ(a.find(7), 0u);
  EXPECT_EQ(b.find(7000000), 0u);
  for (std::uint64_t absent : {0ull, 4ull, 8ull, 7000001ull, ~0ull}) {
    EXPECT_FALSE(a.find(absent)) << absent;
    EXPECT_FALSE(b.find(absent)) << absent;
  }
}

TEST(NodeDependencies, AnEmptyGraph) {
  const std::vector<ChakraProtoMsg::Node> none;
  const NodeDependencies d = NodeDependencies::build(none, NodeIndex(none));
  EXPECT_TRUE(d.deps.empty());
  EXPECT_TRUE(d.dependants.empty());
}

}  // namespace
}  // namespace sutra::chakra
