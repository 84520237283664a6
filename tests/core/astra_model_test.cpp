// SPDX-License-Identifier: MIT
// ASTRA-sim's execution model in Sutra (simulate/astra_model.h) and the graph laid out for it
// (chakra/astra_sim_graph.h), on fixtures of each reason the two simulators disagreed: two host
// threads, two streams whose kernels overlapped, a collective on a stream of its own. Every
// expected time is worked out by hand in the comments.
#include "simulate/astra_model.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "chakra/astra_sim_graph.h"
#include "chakra/convert_files.h"
#include "chakra/et_file.h"
#include "io/readers.h"
#include "link/linked_trace.h"
#include "simulate/astra_sim_engine.h"
#include "test_support.h"

namespace sutra {
namespace {

using ChakraProtoMsg::Node;
constexpr TimeNs kUs = 1000;

void boolAttr(Node& n, const char* name, bool v) {
  auto* a = n.add_attr();
  a->set_name(name);
  a->set_bool_val(v);
}
void intAttr(Node& n, const char* name, std::int64_t v) {
  auto* a = n.add_attr();
  a->set_name(name);
  a->set_int64_val(v);
}

Node cpuNode(std::uint64_t id, std::uint64_t us, std::int64_t tid = 1) {
  Node n;
  n.set_id(id);
  n.set_name("cpu" + std::to_string(id));
  n.set_type(ChakraProtoMsg::COMP_NODE);
  n.set_duration_micros(us);
  boolAttr(n, "is_cpu_op", true);
  intAttr(n, "tid", tid);
  return n;
}
Node kernelNode(std::uint64_t id, std::uint64_t us, std::int64_t stream = 7) {
  Node n;
  n.set_id(id);
  n.set_name("kernel" + std::to_string(id));
  n.set_type(ChakraProtoMsg::COMP_NODE);
  n.set_duration_micros(us);
  boolAttr(n, "is_cpu_op", false);
  intAttr(n, "stream", stream);
  return n;
}
Node allReduceNode(std::uint64_t id, std::int64_t bytes, std::int64_t stream = 9) {
  Node n;
  n.set_id(id);
  n.set_name("ncclDevKernel_AllReduce");
  n.set_type(ChakraProtoMsg::COMM_COLL_NODE);
  intAttr(n, "comm_type", ChakraProtoMsg::ALL_REDUCE);
  intAttr(n, "comm_size", bytes);
  intAttr(n, "stream", stream);
  return n;
}

NetworkModel ring(int npus) {
  NetworkConfig c;
  c.dims.push_back({NetworkTopology::Ring, npus, 50, 500});
  c.path = "test ring";
  return NetworkModel(c, SystemConfig{});
}

// Every rank runs the same graph.
std::vector<TimeNs> finishes(const chakra::ChakraTrace& graph, int ranks = 2) {
  const std::vector<chakra::ChakraTrace> graphs(static_cast<std::size_t>(ranks), graph);
  auto run = runAstraModel(graphs, ring(ranks));
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
  std::vector<TimeNs> out;
  if (run.ok())
    for (const auto& r : run->ranks) out.push_back(r.finishNs);
  return out;
}

TEST(AstraModel, OneCpuNodeAtATimeSoTwoThreadsAddUp) {
  // Two threads' 10 us ops with nothing between them: Sutra's simulator runs them at once
  // (10 us); ASTRA-sim has one CPU: 10 + 10 = 20 us.
  chakra::ChakraTrace g;
  g.nodes = {cpuNode(1, 10, 1), cpuNode(2, 10, 2)};
  EXPECT_EQ(finishes(g), (std::vector<TimeNs>{20 * kUs, 20 * kUs}));
}

TEST(AstraModel, ReadyNodesIssueInIdOrderOneComputeNodeAtATime) {
  // Kernels 2 (10 us) and 1 (5 us) are ready at 0 on two streams: 1 runs first (the lower id),
  // 0-5, then 2, 5-15. Kernel 3 waits on 1 (data dep) and is ready at 5 but the compute resource
  // is held by 2: it runs 15-16. The CPU node 4 (3 us) runs beside them from 0.
  chakra::ChakraTrace g;
  g.nodes = {kernelNode(1, 5, 7), kernelNode(2, 10, 8), kernelNode(3, 1, 7), cpuNode(4, 3)};
  g.nodes[2].add_data_deps(1);
  EXPECT_EQ(finishes(g), (std::vector<TimeNs>{16 * kUs, 16 * kUs}));
}

TEST(AstraModel, CtrlDepsAreNotReadAndEmptyNodesAreSkippedOnceTheirResourceIsFree) {
  // Node 2 has node 1 (4 us) as a ctrl dep only: ASTRA-sim does not wait for it, but the one CPU
  // does: 1 runs 0-4 (the lower id), 2 runs 4-6. Node 3 has no duration and no num_ops: it is
  // skipped, but ASTRA-sim asks for its resource first, so only when the CPU is free, at 6; then
  // node 5 (a 2 us kernel that waits on it) runs 6-8.
  chakra::ChakraTrace g;
  g.nodes = {cpuNode(1, 4), cpuNode(2, 2), cpuNode(3, 0), kernelNode(5, 2)};
  g.nodes[1].add_ctrl_deps(1);
  g.nodes[3].add_data_deps(3);
  EXPECT_EQ(finishes(g), (std::vector<TimeNs>{8 * kUs, 8 * kUs}));
}

TEST(AstraModel, ACollectiveEndsForAllRanksAfterTheLastArrives) {
  // Rank 0 reaches the all-reduce at 2 us, rank 1 after a 7 us CPU node: both end at 7 us plus
  // the network model's time for 1 MiB over a ring of 2.
  const NetworkModel net = ring(2);
  const TimeNs cost = net.collectiveNs(CollectiveKind::AllReduce, 1 << 20, 2).value();
  chakra::ChakraTrace early, late;
  early.nodes = {cpuNode(1, 2), allReduceNode(2, 1 << 20)};
  early.nodes[1].add_data_deps(1);
  late.nodes = {cpuNode(1, 7), allReduceNode(2, 1 << 20)};
  late.nodes[1].add_data_deps(1);
  auto run = runAstraModel({early, late}, net);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->ranks[0].finishNs, 7 * kUs + cost);
  EXPECT_EQ(run->ranks[1].finishNs, 7 * kUs + cost);
}

TEST(AstraModel, ACollectiveNoRankIssuesIsAnErrorNamingTheNode) {
  chakra::ChakraTrace lone, none;
  lone.path = "lone.0.et";
  lone.nodes = {allReduceNode(2, 1024)};
  none.nodes = {cpuNode(1, 1)};
  auto run = runAstraModel({lone, none}, ring(2));
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.error().message.find("node 2 ncclDevKernel_AllReduce"), std::string::npos)
      << run.error().message;
}

// --- the graph laid out for ASTRA-sim ------------------------------------------------------------

// A linked trace of the ops below (times in us from 1 s, to be far from 0) and the converted graph
// of the same ops as Sutra's converter writes it: own durations, launches as deps.
struct Fixture {
  LinkedTrace linked;
  chakra::ChakraTrace converted;

  Node& op(std::int64_t id, LinkedOpKind kind, TimeNs startUs, TimeNs endUs, std::int64_t lane,
           Node node) {
    LinkedOp o;
    o.id = id;
    o.kind = kind;
    o.ts = 1'000'000 * kUs + startUs * kUs;
    o.inclusiveDur = (endUs - startUs) * kUs;
    (kind == LinkedOpKind::CpuOp ? o.tid : o.stream) = lane;
    linked.ops.push_back(o);
    linked.reindex();
    node.set_start_time_micros(static_cast<std::uint64_t>(startUs));
    node.set_duration_micros(static_cast<std::uint64_t>(endUs - startUs));
    converted.nodes.push_back(std::move(node));
    return converted.nodes.back();
  }
  Node& cpu(std::int64_t id, TimeNs s, TimeNs e, std::int64_t tid = 1) {
    return op(id, LinkedOpKind::CpuOp, s, e, tid, cpuNode(static_cast<std::uint64_t>(id), 0, tid));
  }
  Node& kernel(std::int64_t id, TimeNs s, TimeNs e, std::int64_t stream, std::uint64_t launcher) {
    Node& n = op(id, LinkedOpKind::DeviceOp, s, e, stream,
                 kernelNode(static_cast<std::uint64_t>(id), 0, stream));
    n.add_ctrl_deps(launcher);
    n.add_data_deps(launcher);
    return n;
  }
  Node& allReduce(std::int64_t id, TimeNs s, TimeNs e, std::int64_t bytes, std::uint64_t launcher) {
    Node& n = op(id, LinkedOpKind::DeviceOp, s, e, 9,
                 allReduceNode(static_cast<std::uint64_t>(id), bytes));
    n.add_data_deps(launcher);
    return n;
  }

  chakra::AstraSimGraph layOut() const {
    auto g = chakra::astraSimGraph(linked, converted);
    EXPECT_TRUE(g.ok()) << (g.ok() ? "" : g.error().message);
    return g.ok() ? std::move(g).value() : chakra::AstraSimGraph{};
  }
};

TEST(AstraSimGraph, TwoHostThreadsBecomeOneTimelineOfTheirUnion) {
  // Thread 1: A 0-10 us; thread 2: B 5-15 us, and C 20-22 us after 5 us of nothing. Measured:
  // 22 us. As converted (own times 10, 10, 2), ASTRA-sim's one CPU adds them: 22 with C's gap,
  // but without the 5 us overlap: the threads in one timeline are A 10, B 15-10 = 5, a 5 us host
  // gap, C 2: 22 us, and the report says 5 us of the threads ran at once.
  Fixture f;
  f.cpu(1, 0, 10, 1);
  f.cpu(2, 5, 15, 2);
  f.cpu(3, 20, 22, 2);
  const auto g = f.layOut();
  ASSERT_EQ(g.trace.nodes.size(), 4u);  // A, B, C and one host gap
  EXPECT_EQ(g.trace.findNode(2)->duration_micros(), 5u);
  EXPECT_EQ(g.report.hostMergedNs, 5 * kUs);
  EXPECT_EQ(g.report.hostGapNodes, 1u);
  EXPECT_EQ(finishes(g.trace), (std::vector<TimeNs>{22 * kUs, 22 * kUs}));
}

TEST(AstraSimGraph, KernelsThatOverlappedOnTwoStreamsBecomeWhatTheyTookTogether) {
  // L1 0-1 us launches K1 on stream 7, 2-12; L2 1-2 launches K2 on stream 8, 3-9. Measured 12 us.
  // One compute timeline in the order of ends: a 1 us device gap (K2 began 1 us after L2), K2 6,
  // then K1 the 3 us it ran alone: everything ends at 12. The two kernels overlapped for 6 us,
  // which ASTRA-sim cannot run: reported. As converted (two kernels of 10 and 6 us, each after its
  // launch), K1 runs 1-11 and K2 waits for it: 17 us.
  Fixture f;
  f.cpu(1, 0, 1);
  f.cpu(2, 1, 2);
  f.kernel(3, 2, 12, 7, 1);
  f.kernel(4, 3, 9, 8, 2);
  const auto g = f.layOut();
  EXPECT_EQ(g.trace.findNode(3)->duration_micros(), 3u);
  EXPECT_EQ(g.trace.findNode(4)->duration_micros(), 6u);
  EXPECT_EQ(g.report.deviceGapNodes, 1u);
  EXPECT_EQ(g.report.computeOverlapNs, 6 * kUs);
  EXPECT_EQ(g.report.overlappedKernels, 1u);
  EXPECT_NE(chakra::describeAstraSimGraphReport(g.report).find("0.006 ms"), std::string::npos);
  EXPECT_EQ(finishes(g.trace), (std::vector<TimeNs>{12 * kUs, 12 * kUs}));
  EXPECT_EQ(finishes(f.converted), (std::vector<TimeNs>{17 * kUs, 17 * kUs}));
}

TEST(AstraSimGraph, ACollectiveOnItsOwnStreamRunsBesideTheCompute) {
  // L1 0-1 launches K1 (stream 7) 1-5; L2 1-2 launches the all-reduce (stream 9) at 2; L3 2-3
  // launches K2 (stream 7) 5-8, which does not wait for the all-reduce. On the communication
  // timeline the all-reduce starts at 2 us (after L2) and takes the network's time; the compute
  // goes on beside it: each rank ends at max(8 us, 2 us + the all-reduce).
  const TimeNs cost = ring(2).collectiveNs(CollectiveKind::AllReduce, 4 << 20, 2).value();
  Fixture f;
  f.cpu(1, 0, 1);
  f.cpu(2, 1, 2);
  f.cpu(3, 2, 3);
  f.kernel(4, 1, 5, 7, 1);
  f.allReduce(5, 2, 2 + cost / kUs, 4 << 20, 2);
  f.kernel(6, 5, 8, 7, 3).add_data_deps(4);
  const auto g = f.layOut();
  EXPECT_EQ(g.trace.findNode(5)->data_deps_size(), 1);
  EXPECT_EQ(g.trace.findNode(5)->data_deps(0), 2u);
  const TimeNs expected = std::max<TimeNs>(8 * kUs, 2 * kUs + cost);
  EXPECT_EQ(finishes(g.trace), (std::vector<TimeNs>{expected, expected}));
}

TEST(AstraSimGraph, ADeviceNodeWhoseLauncherEndedLateWaitsOnTheLastHostNodeBefore) {
  // L 0-10 us (an aten op whose kernel K began at 4, inside it) and M 1-3 on another thread: K
  // cannot wait on L's end (10) and stay at 4; it waits on M (ended at 3) and a 1 us gap instead.
  Fixture f;
  f.cpu(1, 0, 10, 1);
  f.cpu(2, 1, 3, 2);
  f.kernel(3, 4, 6, 7, 1);
  const auto g = f.layOut();
  EXPECT_EQ(g.report.depsDropped, 1u);
  EXPECT_EQ(finishes(g.trace), (std::vector<TimeNs>{10 * kUs, 10 * kUs}));
  const Node* k = g.trace.findNode(3);
  ASSERT_EQ(k->data_deps_size(), 1);
  const Node* gap = g.trace.findNode(k->data_deps(0));
  ASSERT_NE(gap, nullptr);
  EXPECT_EQ(gap->name(), "device gap");
  EXPECT_EQ(gap->duration_micros(), 1u);
  ASSERT_EQ(gap->data_deps_size(), 1);
  EXPECT_EQ(gap->data_deps(0), 2u);
}

// --- real traces (../shared)
// ----------------------------------------------------------------------

// The measured iteration of a graph: its first start to its last end (whole us, as in the file).
TimeNs measuredSpan(const chakra::ChakraTrace& g) {
  std::uint64_t first = UINT64_MAX, last = 0;
  for (const auto& n : g.nodes) {
    first = std::min<std::uint64_t>(first, n.start_time_micros());
    last = std::max<std::uint64_t>(last, n.start_time_micros() + n.duration_micros());
  }
  return static_cast<TimeNs>(last - first) * kUs;
}

TEST(AstraModelReal, TheAstraSimGraphOfEachRealTraceFinishesWhereItWasMeasured) {
  // Two copies of each rank (ASTRA-sim needs two). Host threads at once (mtia: 17, cpu_only: two
  // gloo threads), streams overlapping, syncs: the graph made for Sutra's simulator, under
  // ASTRA-sim's rules, is off by up to +1798 % (mtia); the one laid out for them by under 0.1 %.
  SUTRA_REQUIRE_SHARED_TRACES();
  struct Case {
    const char* kineto;
    double beforeAtLeast;  // the multi-stream graph's excess under ASTRA-sim's rules (-1: any)
  };
  for (const Case& c : {Case{"hta/mtia/mtia_inference_rank_0.json.gz", 10.0},
                        Case{"hta/cpu_only/rank-34.pt.trace.json.gz", 0.5},
                        Case{"hta/critical_path/cuda_event_sync_multi_stream.json.gz", -1.0},
                        Case{"hta/critical_path/alexnet.json.gz", -1.0}}) {
    SCOPED_TRACE(c.kineto);
    auto pair = chakra::convertTracePair("", test::sharedTrace(c.kineto));
    ASSERT_TRUE(pair.ok()) << pair.error().message;
    const chakra::ChakraTrace& before = pair->chakra.trace;
    auto after = chakra::astraSimGraph(pair->linked, before);
    ASSERT_TRUE(after.ok()) << after.error().message;
    const TimeNs measured = measuredSpan(after->trace);
    ASSERT_GT(measured, 0);
    const auto finishAfter = finishes(after->trace);
    const auto finishBefore = finishes(before);
    ASSERT_EQ(finishAfter.size(), 2u);
    ASSERT_EQ(finishBefore.size(), 2u);
    for (int r = 0; r < 2; ++r) {
      const double off =
          static_cast<double>(finishAfter[r] - measured) / static_cast<double>(measured);
      EXPECT_LT(std::abs(off), 0.001) << "rank " << r << ": " << finishAfter[r] << " ns";
      const double beforeOff =
          static_cast<double>(finishBefore[r] - measured) / static_cast<double>(measured);
      EXPECT_GE(beforeOff, c.beforeAtLeast) << "rank " << r;
    }
  }
}

// --- a CPU backend's collectives (gloo)
// ---------------------------------------------------------------

// tests/data/gloo_ddp: a two-rank gloo DDP job (tools/rerun/ddp_job.py --active 2 --warmup 2, on a
// loopback shaped to 200 Mbit/s by tools/rerun/netns.py): a Linear(256) MLP whose gradients go in
// four buckets of 65792 floats, so eight all-reduces a rank, each a "gloo:all_reduce" annotation
// on one of gloo's two worker threads, waited for by DDP's reducer inside backward with no wait
// call in the trace.
class GlooAstraSimExport : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("sutra_gloo_astra_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
    std::vector<chakra::RankExportInput> ranks;
    for (int r = 0; r < 2; ++r) {
      auto kineto =
          readKinetoTrace(test::fixture("gloo_ddp/rank" + std::to_string(r) + ".kineto.json.gz"));
      ASSERT_TRUE(kineto) << kineto.error().message;
      chakra::RankExportInput input;
      input.rank = r;
      input.kineto = std::make_shared<const Trace>(std::move(*kineto));
      ranks.push_back(std::move(input));
    }
    chakra::ConvertOptions convert;
    convert.astraSimTimelines = true;  // convert --for astra-sim
    summary_ = chakra::exportChakraTraces(ranks, prefix(), {}, {}, convert);
    ASSERT_EQ(summary_.written(), 2u) << summary_.text();
    ASSERT_TRUE(summary_.astraSimError.empty()) << summary_.astraSimError;
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string prefix() const { return (dir_ / "gloo").string(); }

  std::filesystem::path dir_;
  chakra::ChakraExportSummary summary_;
};

TEST_F(GlooAstraSimExport, GlooAllReducesAreCollectivesOfTheirTensorsSize) {
  for (int r = 0; r < 2; ++r) {
    SCOPED_TRACE("rank " + std::to_string(r));
    auto g = chakra::readChakraTrace(prefix() + "." + std::to_string(r) + ".et");
    ASSERT_TRUE(g) << g.error().message;
    int collectives = 0;
    for (const auto& n : g->nodes) {
      if (n.name() != "gloo:all_reduce") continue;
      ++collectives;
      EXPECT_EQ(n.type(), ChakraProtoMsg::COMM_COLL_NODE) << n.id();
      EXPECT_EQ(chakra::attrInt(n, "comm_type", -1), ChakraProtoMsg::ALL_REDUCE);
      EXPECT_EQ(chakra::attrInt(n, "comm_size", 0), 65792 * 4);         // 65792 floats
      for (const auto& a : n.attr()) EXPECT_NE(a.name(), "is_cpu_op");  // ASTRA-sim refuses it
    }
    EXPECT_EQ(collectives, 8);
  }
  // The network is fitted to them (the last arriver's share of each), as NCCL's are.
  EXPECT_NE(summary_.astraSimBasis.find("8 collective(s)"), std::string::npos)
      << summary_.astraSimBasis;
}

TEST_F(GlooAstraSimExport, AstraModelReplaysTheRunAndMovesWithTheBandwidthAsTheRingSays) {
  auto inputs = astraSimInputsForExport(prefix());
  ASSERT_TRUE(inputs) << inputs.error().message;
  auto network = readNetworkConfig(inputs->network);
  ASSERT_TRUE(network) << network.error().message;
  auto system = readSystemConfig(inputs->system);
  ASSERT_TRUE(system) << system.error().message;
  std::vector<chakra::ChakraTrace> graphs;
  for (int r = 0; r < 2; ++r) {
    auto g = chakra::readChakraTrace(prefix() + "." + std::to_string(r) + ".et");
    ASSERT_TRUE(g) << g.error().message;
    graphs.push_back(std::move(*g));
  }
  // The run on the network fitted, and with its bandwidth times F.
  auto at = [&](double f, TimeNs* allReduce) -> std::vector<TimeNs> {
    NetworkConfig scaled = *network;
    scaled.dims.at(0).bandwidthGBps *= f;
    const NetworkModel model(scaled, *system);
    auto cost = model.collectiveNs(CollectiveKind::AllReduce, 65792 * 4, 2);
    EXPECT_TRUE(cost.ok());
    *allReduce = cost.ok() ? *cost : 0;
    auto run = runAstraModel(graphs, model);
    EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
    std::vector<TimeNs> out;
    if (run.ok())
      for (const auto& rank : run->ranks) out.push_back(rank.finishNs);
    return out;
  };
  TimeNs c1 = 0, cSlow = 0, cFast = 0;
  const auto fitted = at(1, &c1);
  const auto slow = at(0.25, &cSlow);
  const auto fast = at(4, &cFast);
  ASSERT_EQ(fitted.size(), 2u);
  ASSERT_EQ(slow.size(), 2u);
  ASSERT_EQ(fast.size(), 2u);
  // The collectives carry the measured transfers: the replay ends where the run did.
  for (int r = 0; r < 2; ++r) {
    const TimeNs measured = measuredSpan(graphs[static_cast<std::size_t>(r)]);
    EXPECT_LT(std::abs(static_cast<double>(fitted[r] - measured) / static_cast<double>(measured)),
              0.05)
        << "rank " << r << ": " << fitted[r] << " ns against " << measured;
  }
  // A quarter of the bandwidth: DDP waits for every bucket's all-reduce, and they queue on the
  // link, so each of the eight adds the ring's extra cost at that bandwidth to the run (in full:
  // by the ring model, 8 x (82.1 - 20.5) ms). Four times the bandwidth: the eight are cheaper
  // by 8 x (20.5 - 5.1) ms, but then part of them was hidden behind backward's compute, which
  // does not shrink (about three quarters of it shows).
  for (int r = 0; r < 2; ++r) {
    const double grew =
        static_cast<double>(slow[r] - fitted[r]) / (8.0 * static_cast<double>(cSlow - c1));
    EXPECT_GT(grew, 0.95) << "rank " << r;
    EXPECT_LT(grew, 1.05) << "rank " << r;
    const double shrank =
        static_cast<double>(fitted[r] - fast[r]) / (8.0 * static_cast<double>(c1 - cFast));
    EXPECT_GT(shrank, 0.5) << "rank " << r;
    EXPECT_LE(shrank, 1.0) << "rank " << r;
  }
}

}  // namespace
}  // namespace sutra
