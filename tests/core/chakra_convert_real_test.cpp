// SPDX-License-Identifier: MIT
// Converting the real ET + Kineto pairs in ../shared/traces: the graphs are complete (every linked
// device op is a node), runnable (no dangling dependency, no self dependency, no cycle), keep the
// sync edges, and the files pass the rules ASTRA-sim enforces, where the reference converter's
// file from a real trace (feeder_chakra.0.et) fails them.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>

#include "chakra/convert_files.h"
#include "test_support.h"

namespace sutra::chakra {
namespace {

namespace fs = std::filesystem;

struct GraphFacts {
  std::size_t nodes = 0, edges = 0, dangling = 0, selfDeps = 0, duplicateIds = 0, onCycle = 0;
};

// Kahn's algorithm over ctrl + data dependencies, as ASTRA-sim's feeder issues nodes.
GraphFacts graphFacts(const ChakraTrace& t) {
  GraphFacts f;
  f.nodes = t.nodes.size();
  std::map<std::uint64_t, std::size_t> pending;
  for (const auto& n : t.nodes)
    if (!pending.emplace(n.id(), 0).second) ++f.duplicateIds;
  std::map<std::uint64_t, std::vector<std::uint64_t>> dependants;
  for (const auto& n : t.nodes) {
    std::set<std::uint64_t> deps(n.ctrl_deps().begin(), n.ctrl_deps().end());
    deps.insert(n.data_deps().begin(), n.data_deps().end());
    f.edges += static_cast<std::size_t>(n.ctrl_deps_size() + n.data_deps_size());
    for (auto d : deps) {
      if (d == n.id()) {
        ++f.selfDeps;
        continue;
      }
      if (!pending.count(d)) {
        ++f.dangling;
        continue;
      }
      ++pending[n.id()];
      dependants[d].push_back(n.id());
    }
  }
  std::vector<std::uint64_t> ready;
  for (const auto& [id, k] : pending)
    if (k == 0) ready.push_back(id);
  std::size_t issued = 0;
  while (!ready.empty()) {
    const auto id = ready.back();
    ready.pop_back();
    ++issued;
    for (auto c : dependants[id])
      if (--pending[c] == 0) ready.push_back(c);
  }
  f.onCycle = pending.size() - issued;
  return f;
}

TEST(ChakraConvertReal, ReferenceConvertersFileFailsTheChecks) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto feeder = readChakraTrace(test::sharedTrace("chakra/feeder_chakra.0.et"));
  ASSERT_TRUE(feeder.ok());
  const auto f = graphFacts(*feeder);
  EXPECT_EQ(f.dangling, 1277u);  // et_counts.py: 1277 edges to 210 absent ids
  EXPECT_EQ(f.selfDeps, 383u);
  EXPECT_GT(f.onCycle, 0u);
  std::size_t commWithoutType = 0;
  for (const auto& n : feeder->nodes)
    if (n.type() == ChakraProtoMsg::COMM_COLL_NODE && !hasIntAttr(n, "comm_type"))
      ++commWithoutType;
  EXPECT_EQ(commWithoutType, 14u);  // 21 COMM_COLL nodes, 7 with a comm_type
}

struct Pair {
  const char* et;
  const char* kineto;
};

// The facts and stats are of the graph's structure (no gap nodes, as Chakra's converter would
// write it), which the counts below check against independent counts; the default conversion,
// with its host and device gap nodes, is checked to be as runnable and as complete.
void checkPair(const Pair& pair, GraphFacts* factsOut, ConvertStats* statsOut,
               PairConversion* convOut) {
  auto withGaps = convertTracePair(test::sharedTrace(pair.et), test::sharedTrace(pair.kineto));
  ASSERT_TRUE(withGaps.ok()) << withGaps.error().message;
  const auto g = graphFacts(withGaps->chakra.trace);
  EXPECT_EQ(g.dangling + g.selfDeps + g.duplicateIds + g.onCycle, 0u);
  const auto& gs = withGaps->chakra.stats;
  EXPECT_EQ(g.nodes, gs.cpuNodes + gs.deviceNodes + gs.hostGapNodes + gs.deviceGapNodes);
  EXPECT_GT(gs.hostGapNodes, 0u);

  ConvertOptions structure;
  structure.measuredGaps = false;
  auto conv =
      convertTracePair(test::sharedTrace(pair.et), test::sharedTrace(pair.kineto), {}, structure);
  ASSERT_TRUE(conv.ok()) << conv.error().message;
  EXPECT_EQ(gs.cpuNodes, conv->chakra.stats.cpuNodes);
  EXPECT_EQ(gs.deviceNodes, conv->chakra.stats.deviceNodes);
  const auto f = graphFacts(conv->chakra.trace);
  EXPECT_EQ(f.dangling, 0u);
  EXPECT_EQ(f.selfDeps, 0u);
  EXPECT_EQ(f.duplicateIds, 0u);
  EXPECT_EQ(f.onCycle, 0u);
  // Every device op of the linked trace is a node, and every CPU op but the ET's roots.
  std::size_t device = 0, cpu = 0;
  for (const auto& op : conv->linked.ops) {
    if (op.isDevice()) {
      ++device;
      EXPECT_NE(conv->chakra.trace.findNode(static_cast<std::uint64_t>(op.id)), nullptr) << op.name;
    } else if (const EtNode* et = conv->linked.etNode(op); !et || et->isOperator()) {
      ++cpu;
    }
  }
  EXPECT_EQ(conv->chakra.stats.deviceNodes, device);
  EXPECT_EQ(conv->chakra.stats.cpuNodes, cpu);
  EXPECT_EQ(conv->chakra.trace.nodes.size(), cpu + device);
  // Every sync dependency of the linked trace is an edge (directly or moved to the op after the
  // waiter), or counted as dropped; the same for inter-thread dependencies (no cycle here; one
  // on an op still running when its waiter began is dropped).
  std::size_t syncs = 0, interThread = 0;
  for (const auto& op : conv->linked.ops) {
    syncs += op.syncDeps.size();
    interThread += op.interThreadDeps.size();
  }
  EXPECT_EQ(conv->chakra.stats.cyclesBroken, 0u);
  EXPECT_EQ(conv->chakra.stats.edgeCount(EdgeKind::Sync) + conv->chakra.stats.syncDepsDropped,
            syncs);
  EXPECT_EQ(conv->chakra.stats.edgeCount(EdgeKind::InterThread) +
                conv->chakra.stats.interThreadDepsDropped,
            interThread);
  *factsOut = f;
  *statsOut = conv->chakra.stats;
  *convOut = std::move(conv.value());
}

TEST(ChakraConvertReal, ParamLinearPair) {
  SUTRA_REQUIRE_SHARED_TRACES();
  GraphFacts f;
  ConvertStats s;
  PairConversion c;
  checkPair({"param/linear_et.json.gz", "param/linear_kineto.json.gz"}, &f, &s, &c);
  if (HasFatalFailure()) return;
  // Independent numbers (python3 over the .json.gz files): the ET has 931 nodes, 3 of them roots
  // (process, two threads), so 928 ops: 311 on thread 1 and 617 on thread 2 -> 926 serial edges;
  // 773 ops whose parent is not a root. The Kineto trace launches 261 device ops per iteration
  // (between consecutive Optimizer.zero_grad annotations, all on stream 7) -> 260 stream edges.
  EXPECT_EQ(s.cpuNodes, 928u);
  EXPECT_EQ(s.deviceNodes, 261u);
  EXPECT_EQ(s.nodesByType.at(ChakraProtoMsg::COMP_NODE), 1189u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Serial), 926u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Ctrl), 773u + 261u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Launch), 261u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Stream), 260u);
  EXPECT_EQ(f.nodes, 1189u);
  // GEMMs carry FLOPs for ASTRA-sim's roofline mode: the 41 mm and 21 addmm ops' kernels.
  std::size_t withFlops = 0;
  for (const auto& n : c.chakra.trace.nodes)
    if (attrInt(n, "num_ops", 0) > 0 && attrInt(n, "is_cpu_op", 1) == 0) ++withFlops;
  EXPECT_GE(withFlops, 62u);
}

TEST(ChakraConvertReal, HtaSimpleAddPair) {
  SUTRA_REQUIRE_SHARED_TRACES();
  GraphFacts f;
  ConvertStats s;
  PairConversion c;
  checkPair({"hta/execution_trace/simple_add_et.json.gz",
             "hta/execution_trace/simple_add_kineto.json.gz"},
            &f, &s, &c);
  if (HasFatalFailure()) return;
  // Independent numbers: 38 ET nodes less 2 roots = 36 ops on one thread (35 serial edges, 35 with
  // a non-root parent); 4 kernels in the Kineto trace, all on stream 7 (3 stream edges). The
  // trace calls cudaDeviceSynchronize after its launches: the linker finds 4 waits; the last one
  // is on work the thread's last op launched itself, with nothing after it (dropped, counted).
  EXPECT_EQ(s.cpuNodes, 36u);
  EXPECT_EQ(s.deviceNodes, 4u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Serial), 35u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Ctrl), 35u + 4u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Launch), 4u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Stream), 3u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Sync), 3u);
  EXPECT_EQ(s.syncDepsDropped, 1u);
  EXPECT_EQ(f.nodes, 40u);
}

}  // namespace
}  // namespace sutra::chakra
