// SPDX-License-Identifier: MIT
// The linked-trace -> Chakra converter on small hand-built linked traces whose expected graphs are
// worked out by hand in the comments.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "chakra/converter.h"
#include "simulate/chakra_simulation.h"
#include "simulate/simulator.h"

namespace sutra::chakra {
namespace {

using ChakraProtoMsg::Node;

struct Builder {
  std::shared_ptr<EtTrace> et = std::make_shared<EtTrace>();
  LinkedTrace linked;

  // A text, list or communication record the ET's nodes can point at (the trace's storage).
  std::string_view keep(std::string_view text) { return et->ownStorage().copy(text); }
  const EtArgsSignature* withShapes(EtArgs::Shapes shapes) {
    EtArgsSignature s;
    s.shapes = shapes;
    return et->ownStorage().make(s);
  }
  const EtArgsSignature* withTypes(std::span<const std::string_view> types) {
    EtArgsSignature s;
    s.types = types;
    return et->ownStorage().make(s);
  }
  EtArgs::Shapes shapes(std::initializer_list<std::initializer_list<std::int64_t>> dims) {
    std::vector<EtShape> out;
    for (auto d : dims) out.push_back(et->ownStorage().copy(d));
    return et->ownStorage().copy(std::span<const EtShape>(out));
  }
  std::span<const EtTensor> tensors(std::initializer_list<EtTensor> items) {
    return et->ownStorage().copy(items);
  }
  const EtComm* comm(EtComm c) { return et->ownStorage().make(c); }

  Builder() {
    et->nodes.reserve(64);  // the tests hold references to nodes while adding more
    et->path = "mem.json";
    et->schema = "1.0.1";
    et->pid = 42;
    // The ET's process and thread roots: kept in the linked trace, never nodes of the output.
    cpu(0, "[pytorch|profiler|execution_trace|process]", 0, 0, 0, 0);
    cpu(1, "[pytorch|profiler|execution_trace|thread]", 0, 1, 0, 0);
  }
  EtNode& cpu(std::int64_t id, const std::string& name, std::int64_t parent, std::int64_t tid,
              TimeNs ts, TimeNs dur, TimeNs exclusive = -1) {
    EtNode n;
    n.id = id + 1000;  // ET ids differ from ET+ ids
    n.name = keep(name);
    n.tid = tid;
    n.rfId = id;
    n.seqId = 7;
    n.opSchema = keep(name + "(Tensor self) -> Tensor");
    et->nodes.push_back(n);
    LinkedOp op;
    op.id = id;
    op.name = n.name;
    op.parent = parent;
    op.etIndex = static_cast<std::int32_t>(et->nodes.size() - 1);
    op.ts = ts;
    op.inclusiveDur = dur;
    op.exclusiveDur = exclusive < 0 ? dur : exclusive;
    op.tid = tid;
    linked.ops.push_back(op);
    return et->nodes.back();
  }
  LinkedOp& device(std::int64_t id, const std::string& name, std::int64_t launcher,
                   std::int64_t stream, TimeNs ts, TimeNs dur) {
    LinkedOp op;
    op.id = id;
    op.kind = LinkedOpKind::DeviceOp;
    op.name = keep(name);
    op.parent = launcher;
    op.ts = ts;
    op.inclusiveDur = op.exclusiveDur = dur;
    op.device = 0;
    op.stream = stream;
    op.category = "kernel";
    linked.ops.push_back(op);
    return linked.ops.back();
  }
  void rank(int r) { linked.rank = r; }
  LinkedOp& op(std::int64_t id) { return linked.ops[static_cast<std::size_t>(linked.indexOf(id))]; }
  const LinkedTrace& done() {
    std::sort(linked.ops.begin(), linked.ops.end(), [](auto& a, auto& b) { return a.id < b.id; });
    linked.et = et;
    linked.reindex();
    return linked;
  }
};

const Node& byId(const ChakraTrace& t, std::uint64_t id) {
  const Node* n = t.findNode(id);
  EXPECT_NE(n, nullptr) << id;
  static const Node none;
  return n ? *n : none;
}

std::vector<std::uint64_t> data(const Node& n) {
  return {n.data_deps().begin(), n.data_deps().end()};
}
std::vector<std::uint64_t> ctrl(const Node& n) {
  return {n.ctrl_deps().begin(), n.ctrl_deps().end()};
}

// The graph's structure alone: exclusive durations and no gap nodes (ChakraMeasuredGaps below
// tests those).
ConvertOptions structureOnly() {
  ConvertOptions options;
  options.measuredGaps = false;
  return options;
}

// Every dependency resolves in the file, none on itself, and Kahn's algorithm issues every node.
void expectRunnableGraph(const ChakraTrace& t) {
  std::map<std::uint64_t, std::size_t> pending;
  std::map<std::uint64_t, std::vector<std::uint64_t>> dependants;
  for (const auto& n : t.nodes) pending[n.id()] = 0;
  EXPECT_EQ(pending.size(), t.nodes.size()) << "duplicate ids";
  for (const auto& n : t.nodes) {
    std::set<std::uint64_t> deps(n.ctrl_deps().begin(), n.ctrl_deps().end());
    deps.insert(n.data_deps().begin(), n.data_deps().end());
    for (auto d : deps) {
      EXPECT_TRUE(pending.count(d)) << "node " << n.id() << " depends on absent " << d;
      EXPECT_NE(d, n.id()) << "self dependency";
      ++pending[n.id()];
      dependants[d].push_back(n.id());
    }
  }
  std::vector<std::uint64_t> ready;
  for (auto& [id, k] : pending)
    if (k == 0) ready.push_back(id);
  std::size_t issued = 0;
  while (!ready.empty()) {
    auto id = ready.back();
    ready.pop_back();
    ++issued;
    for (auto c : dependants[id])
      if (--pending[c] == 0) ready.push_back(c);
  }
  EXPECT_EQ(issued, t.nodes.size()) << "nodes on a cycle";
}

TEST(ChakraConverter, CpuAndDeviceOpsWithEveryDependencyKind) {
  Builder b;
  // Thread 1: A [100, 200) calls B [120, 160), which launches kernel K1 on stream 7; then C
  // [210, 300) launches K2 on stream 7 and a memcpy M on stream 8, and waits on K1.
  b.cpu(2, "aten::A", 1, 1, 100'000, 100'000, 60'000);
  b.cpu(3, "aten::B", 2, 1, 120'000, 40'000);
  b.device(4, "gemm_kernel", 3, 7, 150'000, 30'000);
  b.cpu(5, "aten::C", 1, 1, 210'000, 90'000);
  b.device(6, "add_kernel", 5, 7, 220'000, 10'000);
  b.device(7, "Memcpy DtoH", 5, 8, 230'000, 5'400);
  b.done();
  b.op(5).syncDeps = {4};
  auto conv = convertToChakra(b.linked, structureOnly());
  ASSERT_TRUE(conv.ok()) << conv.error().message;
  const ChakraTrace& t = conv->trace;
  ASSERT_EQ(t.nodes.size(), 6u);  // the two roots are not nodes
  expectRunnableGraph(t);

  const Node& a = byId(t, 2);
  EXPECT_EQ(a.type(), ChakraProtoMsg::COMP_NODE);
  EXPECT_EQ(a.start_time_micros(), 0u);
  EXPECT_EQ(a.duration_micros(), 60u);  // exclusive
  EXPECT_TRUE(ctrl(a).empty());         // its caller is the thread root
  EXPECT_TRUE(data(a).empty());
  EXPECT_EQ(attrInt(a, "is_cpu_op", -1), 1);
  EXPECT_EQ(attrInt(a, "tid", -1), 1);
  EXPECT_EQ(attrInt(a, "rf_id", -1), 2);
  EXPECT_EQ(attrInt(a, "seq_id", -1), 7);
  EXPECT_EQ(attrString(a, "op_schema"), "aten::A(Tensor self) -> Tensor");

  EXPECT_EQ(ctrl(byId(t, 3)), std::vector<std::uint64_t>{2});
  EXPECT_EQ(data(byId(t, 3)), std::vector<std::uint64_t>{2});  // serial
  const Node& k1 = byId(t, 4);
  EXPECT_EQ(ctrl(k1), std::vector<std::uint64_t>{3});
  EXPECT_EQ(data(k1), std::vector<std::uint64_t>{3});  // launch
  EXPECT_EQ(attrInt(k1, "is_cpu_op", -1), 0);
  EXPECT_EQ(attrInt(k1, "stream", -1), 7);
  EXPECT_EQ(k1.start_time_micros(), 50u);
  // C: serial after B, and the sync on K1 that Chakra's converter drops.
  EXPECT_EQ(data(byId(t, 5)), (std::vector<std::uint64_t>{3, 4}));
  EXPECT_EQ(data(byId(t, 6)), (std::vector<std::uint64_t>{5, 4}));  // launch, stream order
  EXPECT_EQ(data(byId(t, 7)), std::vector<std::uint64_t>{5});
  EXPECT_EQ(byId(t, 7).duration_micros(), 5u);  // 5.4 us rounds to 5

  const auto& s = conv->stats;
  EXPECT_EQ(s.cpuNodes, 3u);
  EXPECT_EQ(s.deviceNodes, 3u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Ctrl), 4u);    // B, K1, K2, M
  EXPECT_EQ(s.edgeCount(EdgeKind::Serial), 2u);  // A->B, B->C
  EXPECT_EQ(s.edgeCount(EdgeKind::Launch), 3u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Stream), 1u);
  EXPECT_EQ(s.edgeCount(EdgeKind::Sync), 1u);
  EXPECT_EQ(s.totalEdges(), 11u);
  EXPECT_EQ(s.nodesByType.at(ChakraProtoMsg::COMP_NODE), 6u);
  EXPECT_EQ(t.meta.version(), "0.0.4");
}

TEST(ChakraConverter, AWaitOnOwnWorkMovesToTheNextOpAndNodesWithoutEdgesStay) {
  Builder b;
  // X [0,100) launches the copy M and waits on it (cudaMemcpy inside aten::item); X's child Y
  // follows in the serial chain; Z, the op after X's subtree, is the one that waits on M.
  b.cpu(2, "aten::item", 1, 1, 1'000, 100'000);
  b.cpu(3, "aten::_local_scalar_dense", 2, 1, 2'000, 90'000);
  b.device(4, "Memcpy DtoH", 3, 7, 10'000, 1'000);
  b.cpu(5, "aten::Z", 1, 1, 200'000, 1'000);
  b.cpu(9, "aten::lonely", 1, 2, 300'000, 1'000);  // another thread, no edge at all
  b.done();
  b.op(2).syncDeps = {4};
  auto conv = convertToChakra(b.linked, structureOnly());
  ASSERT_TRUE(conv.ok());
  const ChakraTrace& t = conv->trace;
  expectRunnableGraph(t);
  EXPECT_EQ(data(byId(t, 2)), std::vector<std::uint64_t>{});
  EXPECT_EQ(data(byId(t, 5)), (std::vector<std::uint64_t>{3, 4}));
  EXPECT_EQ(conv->stats.syncDepsRedirected, 1u);
  const Node& lonely = byId(t, 9);
  EXPECT_TRUE(ctrl(lonely).empty());
  EXPECT_TRUE(data(lonely).empty());
  EXPECT_EQ(t.nodes.size(), 5u);
}

TEST(ChakraConverter, CollectivesGetIntegerTypeAndSizeAndUnsupportedOnesBecomeComp) {
  Builder b;
  b.rank(3);
  auto& rpc = b.cpu(2, "record_param_comms", 1, 1, 1'000, 10'000);
  rpc.comm = b.comm({.collectiveName = "all_reduce",
                     .dtype = "Float",
                     .inMsgNelems = 1024,
                     .outMsgNelems = 1024});
  b.device(3, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", 2,
           20, 5'000, 50'000)
      .pgName = "0";
  auto& ag = b.cpu(4, "record_param_comms", 1, 1, 20'000, 10'000);
  // 4 ranks: the gathered buffer (out) is 4 x what each rank puts in.
  ag.comm = b.comm({.collectiveName = "all_gather",
                    .dtype = "BFloat16",
                    .inMsgNelems = 256,
                    .outMsgNelems = 1024});
  b.device(5, "ncclDevKernel_AllGather_RING_LL", 4, 20, 60'000, 10'000);
  b.cpu(6, "c10d::reduce_", 1, 1, 40'000, 1'000);
  b.device(7, "ncclDevKernel_Reduce_Sum_f32_RING_LL", 6, 20, 80'000, 10'000);
  auto& send = b.cpu(8, "c10d::send", 1, 1, 50'000, 1'000);
  send.opSchema =
      "c10d::send(Tensor[] tensors, __torch__.torch.classes.c10d.ProcessGroup process_group, int "
      "dst, int tag) "
      "-> __torch__.torch.classes.c10d.Work";
  send.inputs.valuesJson = "[[[5,6,0,16,4,\"cuda:0\"]],\"pg\",1,9]";
  send.inputs.tensors = b.tensors({EtTensor{5, 6, 0, 16, 4, "cuda:0"}});
  b.device(9, "ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)", 8, 21, 90'000,
           1'000);
  b.cpu(10, "c10d::recv_", 1, 1, 60'000, 1'000);  // no schema: the peer is unknown
  b.device(11, "ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)", 10, 21, 95'000,
           1'000);
  b.cpu(12, "c10d::mystery", 1, 1, 70'000, 1'000);
  b.device(13, "ncclDevKernel_Mystery", 12, 20, 99'000, 1'000);
  b.done();
  auto conv = convertToChakra(b.linked);
  ASSERT_TRUE(conv.ok());
  const ChakraTrace& t = conv->trace;
  expectRunnableGraph(t);

  const Node& ar = byId(t, 3);
  EXPECT_EQ(ar.type(), ChakraProtoMsg::COMM_COLL_NODE);
  EXPECT_EQ(attrInt(ar, "comm_type", -1), ChakraProtoMsg::ALL_REDUCE);
  EXPECT_EQ(attrInt(ar, "comm_size", -1), 4096);
  EXPECT_EQ(findAttr(ar, "comm_type")->value_case(), ChakraProtoMsg::AttributeProto::kInt64Val);
  EXPECT_EQ(findAttr(ar, "is_cpu_op"), nullptr);  // ASTRA-sim refuses is_cpu_op on comm nodes
  EXPECT_EQ(attrString(ar, "pg_name"), "0");
  EXPECT_EQ(attrInt(byId(t, 5), "comm_type", -1), ChakraProtoMsg::ALL_GATHER);
  // ASTRA-sim's comm_size of an all-gather is each rank's part (its ring sends (N-1) x it:
  // 1 MB gives its README's 64,744 ns on 4 NPUs): 256 BFloat16, not the 1024 gathered.
  EXPECT_EQ(attrInt(byId(t, 5), "comm_size", -1), 512);
  // The CPU-side comm op is plain CPU work.
  EXPECT_EQ(byId(t, 2).type(), ChakraProtoMsg::COMP_NODE);
  EXPECT_EQ(attrInt(byId(t, 2), "is_cpu_op", -1), 1);

  const Node& reduce = byId(t, 7);
  EXPECT_EQ(reduce.type(), ChakraProtoMsg::COMP_NODE);
  EXPECT_EQ(reduce.duration_micros(), 10u);
  EXPECT_EQ(t.problems.count(
                "collective ASTRA-sim does not simulate (exported as COMP_NODE with its measured "
                "duration)"),
            1u);

  const Node& s = byId(t, 9);
  EXPECT_EQ(s.type(), ChakraProtoMsg::COMM_SEND_NODE);
  EXPECT_EQ(attrInt(s, "comm_src", -1), 3);
  EXPECT_EQ(attrInt(s, "comm_dst", -1), 1);
  EXPECT_EQ(attrInt(s, "comm_tag", -1), 9);
  EXPECT_EQ(attrInt(s, "comm_size", -1), 64);
  EXPECT_EQ(byId(t, 11).type(), ChakraProtoMsg::COMP_NODE);
  EXPECT_EQ(
      t.problems.count("point-to-point kernel with unknown peer rank (exported as COMP_NODE)"), 1u);
  EXPECT_EQ(byId(t, 13).type(), ChakraProtoMsg::COMP_NODE);
  EXPECT_EQ(
      t.problems.count("communication kernel whose collective is unknown (exported as COMP_NODE)"),
      1u);
  EXPECT_EQ(conv->stats.nodesByType.at(ChakraProtoMsg::COMM_COLL_NODE), 2u);
  EXPECT_EQ(conv->stats.nodesByType.at(ChakraProtoMsg::COMM_SEND_NODE), 1u);

  ConvertOptions keep;
  keep.unsupportedCollectivesAsComm = true;
  auto kept = convertToChakra(b.linked, keep);
  ASSERT_TRUE(kept.ok());
  EXPECT_EQ(attrInt(byId(kept->trace, 7), "comm_type", -1), ChakraProtoMsg::REDUCE);
}

TEST(ChakraConverter, ProcessGroupInitGoesToMetadataUnlessAsked) {
  Builder b;
  auto& init = b.cpu(2, "## process_group:init ##", 1, 1, 1'000, 1'000);
  init.inputs.valuesJson = "[\"[{\\\"pg_name\\\": \\\"0\\\", \\\"ranks\\\": [0, 1]}]\"]";
  b.cpu(3, "aten::ones", 1, 1, 5'000, 1'000);
  b.cpu(4, "aten::fill_", 3, 1, 5'100, 500);
  b.done();
  auto conv = convertToChakra(b.linked, structureOnly());
  ASSERT_TRUE(conv.ok());
  EXPECT_EQ(conv->trace.nodes.size(), 2u);
  EXPECT_EQ(conv->trace.findNode(2), nullptr);
  EXPECT_TRUE(data(byId(conv->trace, 3)).empty());  // nothing before it on the thread any more
  bool pgConfig = false;
  for (const auto& a : conv->trace.meta.attr())
    if (a.name() == "pg_config")
      pgConfig = a.string_val() == "[" + std::string(init.inputs.valuesJson) + "]";
  EXPECT_TRUE(pgConfig);

  ConvertOptions opts = structureOnly();
  opts.metadataNodes = true;
  auto withMeta = convertToChakra(b.linked, opts);
  ASSERT_TRUE(withMeta.ok());
  EXPECT_EQ(byId(withMeta->trace, 2).type(), ChakraProtoMsg::METADATA_NODE);
  EXPECT_EQ(byId(withMeta->trace, 2).inputs().values(), init.inputs.valuesJson);
  EXPECT_EQ(data(byId(withMeta->trace, 3)), std::vector<std::uint64_t>{2});
}

TEST(ChakraConverter, CyclesAreBrokenAndCounted) {
  Builder b;
  // Thread 1: a(2) then b(4); thread 2: c(3) then d(5). a waits on d and c on b: a <- d <- c <- b
  // <- a.
  // No times (as in an ET+ file without them): with times, a dependency on an op that had not
  // ended when the waiter began is dropped, and these would be.
  b.cpu(2, "a", 1, 1, 0, 1'000);
  b.cpu(3, "c", 1, 2, 0, 1'000);
  b.cpu(4, "b", 1, 1, 0, 1'000);
  b.cpu(5, "d", 1, 2, 0, 1'000);
  b.done();
  b.op(2).interThreadDeps = {5};
  b.op(3).interThreadDeps = {4};
  auto conv = convertToChakra(b.linked, structureOnly());
  ASSERT_TRUE(conv.ok());
  expectRunnableGraph(conv->trace);
  EXPECT_EQ(conv->stats.cyclesBroken, 1u);
  EXPECT_EQ(conv->trace.problems.count("dependency cycle broken by removing an edge"), 1u);
  EXPECT_EQ(conv->stats.edgeCount(EdgeKind::InterThread), 1u);
  EXPECT_EQ(conv->stats.edgeCount(EdgeKind::Serial), 2u);
}

TEST(ChakraConverter, AnInterThreadDependencyOnAnOpStillRunningIsDropped) {
  Builder b;
  // b (thread 2) began at 5 us while a (thread 1) ran until 11 us: "after the end of a" would
  // delay b; c began at 20 us, after a ended: kept.
  b.cpu(2, "aten::a", 1, 1, 1'000, 10'000);
  b.cpu(3, "aten::b", 1, 2, 5'000, 1'000);
  b.cpu(4, "aten::c", 1, 2, 20'000, 1'000);
  b.done();
  b.op(3).interThreadDeps = {2};
  b.op(4).interThreadDeps = {2};
  auto conv = convertToChakra(b.linked, structureOnly());
  ASSERT_TRUE(conv.ok());
  EXPECT_EQ(conv->stats.interThreadDepsDropped, 1u);
  EXPECT_TRUE(data(byId(conv->trace, 3)).empty());
  EXPECT_EQ(data(byId(conv->trace, 4)), (std::vector<std::uint64_t>{3, 2}));
}

TEST(ChakraConverter, FlopsAndBytesGoToTheInnermostComputeOpOrItsKernels) {
  Builder b;
  // linear(x[8,16], W[32,16], bias[32]) -> addmm(bias, x, W^T) -> one GEMM kernel.
  auto& linear = b.cpu(2, "aten::linear", 1, 1, 1'000, 10'000);
  linear.inputs.signature = b.withShapes(b.shapes({{8, 16}, {32, 16}, {32}}));
  auto& addmm = b.cpu(3, "aten::addmm", 2, 1, 2'000, 8'000);
  addmm.inputs.signature = b.withShapes(b.shapes({{32}, {8, 16}, {16, 32}}));
  addmm.inputs.tensors =
      b.tensors({EtTensor{1, 1, 0, 32, 4, "cuda:0"}, EtTensor{2, 2, 0, 128, 4, "cuda:0"},
                 EtTensor{3, 3, 0, 512, 4, "cuda:0"}});
  addmm.outputs.signature = b.withShapes(b.shapes({{8, 32}}));
  addmm.outputs.tensors = b.tensors({EtTensor{4, 4, 0, 256, 4, "cuda:0"}});
  b.device(4, "sgemm_kernel", 3, 7, 3'000, 5'000);
  // A CPU-only conv: out [1, 4, 6, 6], weight [4, 3, 3, 3] -> 2*144*27 = 7776 FLOPs.
  auto& conv2d = b.cpu(5, "aten::conv2d", 1, 1, 20'000, 1'000);
  conv2d.inputs.signature = b.withShapes(b.shapes({{1, 3, 8, 8}, {4, 3, 3, 3}, {}}));
  conv2d.outputs.signature = b.withShapes(b.shapes({{1, 4, 6, 6}}));
  auto& add = b.cpu(6, "aten::add_", 1, 1, 30'000, 1'000);
  add.inputs.signature = b.withShapes(b.shapes({{10, 10}, {10, 10}, {}}));
  add.outputs.signature = b.withShapes(b.shapes({{10, 10}}));
  b.done();
  auto conv = convertToChakra(b.linked);
  ASSERT_TRUE(conv.ok());
  const ChakraTrace& t = conv->trace;
  EXPECT_EQ(findAttr(byId(t, 2), "num_ops"), nullptr);  // linear: addmm below it does the work
  EXPECT_EQ(findAttr(byId(t, 3), "num_ops"), nullptr);  // addmm: its kernel does
  const Node& k = byId(t, 4);
  EXPECT_EQ(attrInt(k, "num_ops", -1), 2 * 8 * 16 * 32 + 8 * 32);
  EXPECT_EQ(findAttr(k, "num_ops")->value_case(), ChakraProtoMsg::AttributeProto::kInt64Val);
  EXPECT_EQ(attrInt(k, "tensor_size", -1), (32 + 128 + 512 + 256) * 4);
  EXPECT_EQ(findAttr(k, "tensor_size")->value_case(), ChakraProtoMsg::AttributeProto::kUint64Val);
  EXPECT_EQ(attrInt(byId(t, 5), "num_ops", -1), 7776);
  EXPECT_EQ(attrInt(byId(t, 6), "num_ops", -1), 100);
}

TEST(ChakraConverter, TypesAreWrittenAsNlohmannJsonDumpsThem) {
  // inputs.types / outputs.types are JSON arrays of the ET's type strings; the converter writes
  // them itself, so they are checked against nlohmann::json's dump() on the same strings: quotes,
  // backslashes, control characters (short and \u00xx forms), UTF-8 and an empty list.
  Builder b;
  EtNode& n = b.cpu(2, "aten::odd", 1, 1, 100'000, 10'000);
  const std::vector<std::string> in{"Tensor(float)",
                                    "say \"hi\"",
                                    "C:\\dir",
                                    "tab\tnew\nline",
                                    std::string("bell\x07\x1f\b\f\r", 9),
                                    "\xc3\xa9t\xc3\xa9",
                                    ""};
  std::vector<std::string_view> views;
  for (const auto& t : in) views.push_back(b.keep(t));
  n.inputs.signature =
      b.withTypes(b.et->ownStorage().copy(std::span<const std::string_view>(views)));
  b.done();
  auto conv = convertToChakra(b.linked, structureOnly());
  ASSERT_TRUE(conv.ok()) << conv.error().message;
  const Node& node = byId(conv->trace, 2);
  EXPECT_EQ(node.inputs().types(), nlohmann::json(in).dump());
  EXPECT_EQ(node.inputs().types(),
            "[\"Tensor(float)\",\"say \\\"hi\\\"\",\"C:\\\\dir\",\"tab\\tnew\\nline\","
            "\"bell\\u0007\\u001f\\b\\f\\r\",\"\xc3\xa9t\xc3\xa9\",\"\"]");
  EXPECT_EQ(node.outputs().types(), "[]");
  EXPECT_EQ(nlohmann::json(std::vector<std::string>{}).dump(), "[]");
}

TEST(ChakraConverter, AnEmptyLinkedTraceIsAnError) {
  Builder b;
  b.done();
  auto conv = convertToChakra(b.linked);
  ASSERT_FALSE(conv.ok());
  EXPECT_EQ(conv.error().message, "mem.json: nothing to convert: the linked trace has no ops");
}

// ---- Durations a graph simulator replays (chakra/measured_gaps.h) --------------------------

// What `sutra-cli simulate --graph-only` makes of a conversion: every node as soon as its
// dependencies, its thread and its stream allow, for its duration; the graph's span in ns.
TimeNs graphOnlySpan(const ChakraTrace& t) {
  ChakraSimOptions options;
  options.dependenciesOnly = true;
  const auto sim = prepareChakraSimulation(t, 0, options);
  auto run = simulate(sim->graph);
  EXPECT_TRUE(run.ok());
  return run.ok() ? run->finish - run->begin : 0;
}

// What a simulator that runs one CPU op at a time per rank (ASTRA-sim) adds up.
std::uint64_t cpuMicros(const ChakraTrace& t) {
  std::uint64_t sum = 0;
  for (const auto& n : t.nodes)
    if (attrInt(n, "is_cpu_op", 0) == 1) sum += n.duration_micros();
  return sum;
}

const Node* named(const ChakraTrace& t, const std::string& name, std::size_t k = 0) {
  for (const auto& n : t.nodes)
    if (n.name() == name && k-- == 0) return &n;
  return nullptr;
}

TEST(ChakraMeasuredGaps, ASyncWaitIsADependencyNotTheOpsOwnTime) {
  Builder b;
  // dlrm's case: B issues an all-to-all kernel K [21, 6621) us; A (aten::copy_) [50, 6628) us
  // waits 6,561 us of its 6,578 in cudaStreamSynchronize for K. A's own time is 17 us, and it
  // ends right after K: at 6,628 us, not 6.5 ms later.
  b.cpu(2, "nccl:all_to_all", 1, 1, 1'000, 10'000);
  b.device(3, "ncclDevKernel_SendRecv", 2, 7, 21'000, 6'600'000);
  b.cpu(4, "aten::copy_", 1, 1, 50'000, 6'578'000);
  b.linked.ops.back().blockedDur = 6'561'000;
  b.done();
  b.op(4).syncDeps = {3};
  auto conv = convertToChakra(b.linked);
  ASSERT_TRUE(conv.ok()) << conv.error().message;
  const ChakraTrace& t = conv->trace;
  expectRunnableGraph(t);
  EXPECT_EQ(byId(t, 4).duration_micros(), 17u);
  EXPECT_EQ(data(byId(t, 4)).back(), 3u);  // the wait, as a dependency
  EXPECT_EQ(conv->stats.blockedNs, 6'561'000);
  // Measured: 1 us to 6,628 us. The kernel waits 10 us for its launch (a device gap), A runs
  // after K: 6,620 + 17 us, 10 us late: the 10 us A ran before it began to wait overlapped K
  // (a node runs after its dependencies, so its own time cannot).
  EXPECT_NEAR(static_cast<double>(graphOnlySpan(t)), 6'637'000.0, 1'000.0);
  ConvertOptions exclusive;
  exclusive.measuredGaps = false;  // the old durations: the wait counted twice
  auto old = convertToChakra(b.linked, exclusive);
  ASSERT_TRUE(old.ok());
  EXPECT_GT(graphOnlySpan(old->trace), 13'000'000);
}

TEST(ChakraMeasuredGaps, AnAnnotationOverAnotherThreadsWorkCountsOnce) {
  Builder b;
  // Thread 1 holds "## backward ##" [1, 1001) us while thread 2 runs the backward ops X1
  // [11, 501) and X2 [511, 991); then Y [1001, 1101) on thread 1. Measured: 1,100 us.
  b.cpu(2, "## backward ##", 1, 1, 1'000, 1'000'000);
  b.cpu(3, "autograd::X1", 1, 2, 11'000, 490'000);
  b.cpu(4, "autograd::X2", 1, 2, 511'000, 480'000);
  b.cpu(5, "aten::Y", 1, 1, 1'001'000, 100'000);
  b.done();
  auto conv = convertToChakra(b.linked);
  ASSERT_TRUE(conv.ok()) << conv.error().message;
  const ChakraTrace& t = conv->trace;
  expectRunnableGraph(t);
  EXPECT_EQ(byId(t, 2).duration_micros(), 0u);  // the annotation's time is its thread's wait
  // The wait of thread 1 on X2: a host gap of 10 us (the wake-up) that depends on X2.
  const Node* wake = nullptr;
  for (const auto& n : t.nodes)
    if (n.name() == "host gap" && attrInt(n, "tid", -1) == 1) wake = &n;
  ASSERT_NE(wake, nullptr);
  EXPECT_EQ(wake->duration_micros(), 10u);
  EXPECT_EQ(data(*wake), (std::vector<std::uint64_t>{2, 4}));  // serial after the annotation
  EXPECT_EQ(data(byId(t, 5)), std::vector<std::uint64_t>{wake->id()});
  EXPECT_NEAR(static_cast<double>(graphOnlySpan(t)), 1'100'000.0, 1'000.0);
  // One CPU at a time: 490 + 480 + 100 us of ops and 3 x 10 us of gaps, no 1,000 us twice.
  EXPECT_EQ(cpuMicros(t), 1'100u);
  ConvertOptions exclusive;
  exclusive.measuredGaps = false;
  auto old = convertToChakra(b.linked, exclusive);
  ASSERT_TRUE(old.ok());
  EXPECT_EQ(cpuMicros(old->trace), 2'070u);
}

TEST(ChakraMeasuredGaps, HostGapsAndLaunchLatencyAreNodesOfTheirOwn) {
  Builder b;
  // One thread: A [1, 101) us launches K, which starts 20 us after A ended (the GPU waited for
  // the launch) [121, 151); B [151, 201) after a 50 us gap; C [401, 501) after 200 us.
  b.cpu(2, "aten::A", 1, 1, 1'000, 100'000);
  b.device(3, "gemm_kernel", 2, 7, 121'000, 30'000);
  b.cpu(4, "aten::B", 1, 1, 151'000, 50'000);
  b.cpu(5, "aten::C", 1, 1, 401'000, 100'000);
  b.cpu(6, "aten::tiny_gaps", 1, 2, 1'000, 1'000);  // thread 2: 0.3 us gaps carried to the next
  b.cpu(7, "aten::tiny_gaps", 1, 2, 2'300, 1'000);
  b.cpu(8, "aten::tiny_gaps", 1, 2, 3'600, 1'000);
  b.done();
  auto conv = convertToChakra(b.linked);
  ASSERT_TRUE(conv.ok()) << conv.error().message;
  const ChakraTrace& t = conv->trace;
  expectRunnableGraph(t);
  ASSERT_NE(named(t, "host gap", 0), nullptr);
  EXPECT_EQ(named(t, "host gap", 0)->duration_micros(), 50u);
  ASSERT_NE(named(t, "host gap", 1), nullptr);
  EXPECT_EQ(named(t, "host gap", 1)->duration_micros(), 200u);
  // Thread 2: 0.3 us, then 0.3 + 0.3 us = one gap of 0.6 us, written as 1 us, before op 8.
  ASSERT_NE(named(t, "host gap", 2), nullptr);
  EXPECT_EQ(data(byId(t, 8)), std::vector<std::uint64_t>{named(t, "host gap", 2)->id()});
  const Node* launch = named(t, "device gap");
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->duration_micros(), 20u);
  EXPECT_EQ(attrInt(*launch, "stream", -1), 7);
  EXPECT_EQ(data(byId(t, 3)), (std::vector<std::uint64_t>{2, launch->id()}));
  EXPECT_EQ(conv->stats.hostGapNodes, 3u);
  EXPECT_EQ(conv->stats.deviceGapNodes, 1u);
  EXPECT_NEAR(static_cast<double>(graphOnlySpan(t)), 500'000.0, 1'000.0);
}

TEST(ChakraMeasuredGaps, ASyncBetweenOpsMakesTheGapWaitNotLast) {
  Builder b;
  // The bundled all-reduce sample's shape: ProfilerStep#2 [1, 300) us runs A [2, 10), which
  // launches K [12, 250); then cudaDeviceSynchronize, between ops, until K ends. ProfilerStep#3
  // starts at 321 with B [322, 330). The host gap from A's end to ProfilerStep#3 (311 us) is
  // mostly that wait: it waits on K and keeps 71 us of its own (K's end to ProfilerStep#3).
  b.cpu(2, "ProfilerStep#2", 1, 1, 1'000, 299'000);
  b.cpu(3, "aten::A", 2, 1, 2'000, 8'000);
  b.device(4, "gemm_kernel", 3, 7, 12'000, 238'000);
  b.cpu(5, "ProfilerStep#3", 1, 1, 321'000, 10'000);
  b.cpu(6, "aten::B", 5, 1, 322'000, 8'000);
  b.done();
  b.op(2).syncDeps = {4};
  auto conv = convertToChakra(b.linked);
  ASSERT_TRUE(conv.ok()) << conv.error().message;
  const ChakraTrace& t = conv->trace;
  expectRunnableGraph(t);
  const Node* wait = nullptr;
  for (const auto& n : t.nodes)
    if (n.name() == "host gap" && n.duration_micros() > 50) wait = &n;
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(wait->duration_micros(), 71u);
  const auto deps = data(*wait);
  EXPECT_NE(std::find(deps.begin(), deps.end(), 4u), deps.end());
  // Measured 1 us to 331 us; the device gap of 2 us before K, then K, then 71 + 1 + 8 us.
  EXPECT_NEAR(static_cast<double>(graphOnlySpan(t)), 330'000.0, 1'000.0);
}

TEST(ChakraConverter, ALinkThatMatchedFewEtOpsIsRefusedUnlessForced) {
  Builder b;
  b.cpu(2, "aten::A", 1, 1, 1'000, 100'000);
  b.done();
  auto kineto = std::make_shared<Trace>();
  kineto->path = "run.kineto.json";
  b.linked.kineto = kineto;
  b.linked.report.matching = "alignment";
  b.linked.report.etOps = 14'389;
  b.linked.report.matchedEtOps = 1;
  auto conv = convertToChakra(b.linked);
  ASSERT_FALSE(conv.ok());
  EXPECT_EQ(conv.error().message,
            "mem.json: not converted: only 1 of 14389 execution-trace ops (0.0 %) matched an op "
            "of the Kineto trace run.kineto.json (linked by alignment); the other 14388 would be "
            "nodes with no measured time. Check that both files are from the same run (--force "
            "converts anyway)");
  ConvertOptions force;
  force.minMatchedEtRatio = 0;
  EXPECT_TRUE(convertToChakra(b.linked, force).ok());
  b.linked.report.matchedEtOps = 12'951;  // 90.0 %
  EXPECT_TRUE(convertToChakra(b.linked).ok());
}

}  // namespace
}  // namespace sutra::chakra
