// SPDX-License-Identifier: MIT
// linkTraces on hand-made ET + Kineto pairs: every expected number here follows from the fixture.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "link/linked_trace.h"
#include "trace_fixture.h"

namespace sutra {
namespace {

using test::TraceFixture;

struct Node {
  std::int64_t id;
  const char* name;
  std::int64_t parent;
  std::int64_t tid;
  std::int64_t rfId = 0;
};

std::shared_ptr<const EtTrace> makeEt(const std::vector<Node>& nodes) {
  auto et = std::make_shared<EtTrace>();
  et->path = "et.json";
  et->schema = "1.0.1";
  for (const auto& n : nodes) {
    EtNode node;
    node.id = n.id;
    node.name = et->ownStorage().intern(n.name);
    node.parent = n.parent;
    node.tid = n.tid;
    node.rfId = n.rfId;
    et->indexById.insert(node.id, static_cast<std::uint32_t>(et->nodes.size()));
    et->nodes.push_back(node);
  }
  return et;
}

constexpr const char* kProcess = "[pytorch|profiler|execution_trace|process]";
constexpr const char* kThread = "[pytorch|profiler|execution_trace|thread]";

// One forward iteration on the main thread (pid 1, tid 10) starting at t, 1000 ns long:
// aten::linear [t, t+400] > aten::addmm [t+100, t+300] > cudaLaunchKernel -> gemm on stream 7;
// aten::relu [t+500, t+600] > cudaLaunchKernel -> relu_kernel on stream 7.
// `extra` adds an aten::empty inside aten::linear (a first iteration doing more work).
void addIteration(TraceFixture& f, TimeNs t, std::int64_t corr, bool extra = false) {
  f.add("1", "10", "aten::linear", "cpu_op", t, 400)
      .add("1", "10", "aten::addmm", "cpu_op", t + 100, 200)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", t + 150, 20, corr)
      .add("0", "7", "gemm", "kernel", t + 200, 300, corr)
      .add("1", "10", "aten::relu", "cpu_op", t + 500, 100)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", t + 520, 20, corr + 1)
      .add("0", "7", "relu_kernel", "kernel", t + 550, 40, corr + 1);
  if (extra) f.add("1", "10", "aten::empty", "cpu_op", t + 10, 50);
}

std::shared_ptr<const EtTrace> forwardEt() {
  return makeEt({{1, kProcess, 1, 0},
                 {2, kThread, 1, 1},
                 {3, "aten::linear", 2, 1},
                 {4, "aten::addmm", 3, 1},
                 {5, "aten::relu", 2, 1}});
}

std::shared_ptr<const Trace> share(Trace t) { return std::make_shared<const Trace>(std::move(t)); }

TEST(Linker, AlignsToTheFirstIterationWithFewestEdits) {
  TraceFixture f;
  addIteration(f, 0, 100, true);
  addIteration(f, 10'000, 200);
  addIteration(f, 20'000, 300);
  auto linked = linkTraces(forwardEt(), share(f.finish()));
  ASSERT_TRUE(linked.ok()) << linked.error().message;
  const auto& r = linked->report;
  EXPECT_EQ(r.matching, "alignment");
  EXPECT_EQ(r.iterationCount, 3);
  EXPECT_EQ(r.iteration, 1);  // iteration 0 has an extra aten::empty
  EXPECT_EQ(r.candidateIterations, 2);
  EXPECT_EQ(r.iterationEdits, 0u);
  EXPECT_EQ(r.etOps, 3u);
  EXPECT_EQ(r.matchedEtOps, 3u);
  EXPECT_EQ(r.deviceOps, 2u);
  EXPECT_EQ(r.linkedDeviceOps, 2u);
  EXPECT_EQ(r.streams, std::vector<std::int64_t>{7});
  // Ids as chakra_trace_link numbers them: ET nodes by id, each followed by its device ops.
  const auto& ops = linked->ops;
  ASSERT_EQ(ops.size(), 7u);
  const std::vector<std::string> names = {kProcess, kThread,      "aten::linear", "aten::addmm",
                                          "gemm",   "aten::relu", "relu_kernel"};
  for (std::size_t i = 0; i < ops.size(); ++i) {
    EXPECT_EQ(ops[i].id, static_cast<std::int64_t>(i));
    EXPECT_EQ(ops[i].name, names[i]);
  }
  EXPECT_EQ(ops[0].parent, 0);  // the process root is its own parent
  EXPECT_EQ(ops[1].parent, 0);
  EXPECT_EQ(ops[2].parent, 1);
  EXPECT_EQ(ops[3].parent, 2);
  EXPECT_EQ(ops[4].parent, 3);  // gemm launched inside aten::addmm
  EXPECT_EQ(ops[6].parent, 5);
  EXPECT_TRUE(ops[4].isDevice());
  EXPECT_EQ(ops[4].stream, 7);
  EXPECT_EQ(ops[4].device, 0);
  EXPECT_EQ(ops[4].category, "kernel");
  EXPECT_EQ(ops[4].ts, 10'200);
  EXPECT_EQ(ops[4].inclusiveDur, 300);
  EXPECT_EQ(ops[2].ts, 10'000);
  EXPECT_EQ(ops[2].inclusiveDur, 400);
  EXPECT_EQ(ops[2].exclusiveDur, 200);  // minus aten::addmm
  EXPECT_EQ(ops[3].exclusiveDur, 200);  // runtime calls are not subtracted, as the reference
  EXPECT_EQ(ops[1].ts, 10'000);         // thread root spans its thread's ops
  EXPECT_EQ(ops[1].inclusiveDur, 600);
  EXPECT_EQ(ops[0].inclusiveDur, 600);  // process root spans the linked ops, device ops too
  EXPECT_TRUE(linked->report.unlinked.empty());
}

TEST(Linker, IterationOptionPicksAnotherCandidate) {
  TraceFixture f;
  addIteration(f, 0, 100, true);
  addIteration(f, 10'000, 200);
  addIteration(f, 20'000, 300);
  LinkOptions options;
  options.iteration = 2;
  auto kineto = share(f.finish());
  auto linked = linkTraces(forwardEt(), kineto, options);
  ASSERT_TRUE(linked.ok());
  EXPECT_EQ(linked->report.iteration, 2);
  EXPECT_EQ(linked->find(2)->ts, 20'000);
  options.iteration = 3;
  auto missing = linkTraces(forwardEt(), kineto, options);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "fixture: no iteration 3 (the trace has 3 candidate iterations)");
}

TEST(Linker, ProfilerStepWindowsAndStepOption) {
  auto build = [] {
    TraceFixture f;
    f.add("1", "10", "ProfilerStep#4", "user_annotation", 0, 5000);
    addIteration(f, 1000, 100);
    f.add("1", "10", "ProfilerStep#5", "user_annotation", 10'000, 5000);
    addIteration(f, 11'000, 200);
    return share(f.finish());
  };
  auto linked = linkTraces(forwardEt(), build());
  ASSERT_TRUE(linked.ok());
  EXPECT_EQ(linked->report.iterationCount, 2);
  EXPECT_EQ(linked->report.iteration, 0);
  EXPECT_EQ(linked->report.candidateIterations, 2);
  EXPECT_EQ(linked->report.matchedEtOps, 3u);
  EXPECT_EQ(linked->report.windowStart, 0);
  EXPECT_EQ(linked->report.windowEnd, 5000);
  LinkOptions options;
  options.step = 5;
  linked = linkTraces(forwardEt(), build(), options);
  ASSERT_TRUE(linked.ok());
  EXPECT_EQ(linked->find(2)->ts, 11'000);
  options.step = 6;
  auto missing = linkTraces(forwardEt(), build(), options);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "fixture: no ProfilerStep#6 annotation (the trace has 2 ProfilerStep windows)");
}

TEST(Linker, RecordFunctionIdsMatchDirectly) {
  TraceFixture f;
  f.add("1", "10", "aten::linear", "cpu_op", 0, 400, kNoId, kNoId, {}, 31)
      .add("1", "10", "aten::addmm", "cpu_op", 100, 200, kNoId, kNoId, {}, 32)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", 150, 20, 7)
      .add("0", "7", "gemm", "kernel", 200, 300, 7)
      // An op with the same name but another rf_id: alignment could take it, rf_id does not.
      .add("1", "10", "aten::relu", "cpu_op", 450, 20, kNoId, kNoId, {}, 40)
      .add("1", "10", "aten::relu", "cpu_op", 500, 100, kNoId, kNoId, {}, 33);
  auto et = makeEt({{1, kProcess, 1, 0},
                    {2, kThread, 1, 1},
                    {3, "aten::linear", 2, 1, 31},
                    {4, "aten::addmm", 3, 1, 32},
                    {5, "aten::relu", 2, 1, 33},
                    {6, "aten::gelu", 2, 1, 34}});
  auto linked = linkTraces(et, share(f.finish()));
  ASSERT_TRUE(linked.ok());
  const auto& r = linked->report;
  EXPECT_EQ(r.matching, "rf_id");
  EXPECT_EQ(r.etOps, 4u);
  EXPECT_EQ(r.matchedEtOps, 3u);
  EXPECT_EQ(r.unlinked.count("ET op whose rf_id is not in the Kineto trace"), 1u);
  EXPECT_EQ(linked->find(5)->ts, 500);  // relu (ids: 0 root, 1 thread, 2 linear, 3 addmm, 4 gemm)
  EXPECT_EQ(linked->find(4)->name, "gemm");
  EXPECT_EQ(r.linkedDeviceOps, 1u);
}

TEST(Linker, TwoThreadsInterThreadDependencyAfterAGap) {
  TraceFixture f;
  // Main thread: forward [0, 1000], then optimizer step at [5'000, 5'500] after the backward.
  f.add("1", "10", "aten::mul", "cpu_op", 0, 1000)
      .add("1", "10", "Optimizer.step#SGD.step", "user_annotation", 5'000, 500)
      // Autograd thread: idle until 2'500 (a 2'500 ns gap from nothing: its first group).
      .add("1", "20", "evaluate_function: MulBackward0", "cpu_op", 2'500, 1'000)
      .add("1", "20", "aten::mul", "cpu_op", 2'600, 200);
  auto et = makeEt({{1, kProcess, 1, 0},
                    {2, kThread, 1, 1},
                    {3, "aten::mul", 2, 1},
                    {4, "Optimizer.step#SGD.step", 2, 1},
                    {5, kThread, 1, 2},
                    {6, "evaluate_function: MulBackward0", 5, 2},
                    {7, "aten::mul", 6, 2}});
  LinkOptions options;
  options.interThreadGapNs = 1'000;
  auto linked = linkTraces(et, share(f.finish()), options);
  ASSERT_TRUE(linked.ok()) << linked.error().message;
  EXPECT_EQ(linked->report.matchedEtOps, 4u);
  ASSERT_EQ(linked->report.threads.size(), 2u);
  // Ids: 0 process, 1 thread 1, 2 mul, 3 step, 4 thread 2, 5 backward, 6 mul.
  EXPECT_EQ(linked->find(5)->interThreadDeps, std::vector<std::int64_t>{2});
  EXPECT_EQ(linked->find(6)->interThreadDeps, std::vector<std::int64_t>{2});
  // Step starts 1'500 ns after the main thread went idle: a new group, after the backward.
  EXPECT_EQ(linked->find(3)->interThreadDeps, std::vector<std::int64_t>{6});
  EXPECT_TRUE(linked->find(2)->interThreadDeps.empty());  // nothing ran before it elsewhere
  EXPECT_EQ(linked->report.interThreadDeps, 3u);
}

TEST(Linker, SyncDependenciesBecomeLinkedIds) {
  TraceFixture f;
  f.add("1", "10", "aten::mm", "cpu_op", 0, 100)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", 10, 10, 1)
      .add("0", "7", "mm_kernel", "kernel", 50, 500, 1)
      .add("1", "10", "aten::item", "cpu_op", 200, 500)
      .add("1", "10", "cudaMemcpyAsync", "cuda_runtime", 210, 10, 2)
      .add("0", "7", "Memcpy DtoH", "gpu_memcpy", 560, 10, 2)
      .add("1", "10", "cudaStreamSynchronize", "cuda_runtime", 230, 400, 3);
  auto et = makeEt(
      {{1, kProcess, 1, 0}, {2, kThread, 1, 1}, {3, "aten::mm", 2, 1}, {4, "aten::item", 2, 1}});
  auto linked = linkTraces(et, share(f.finish()));
  ASSERT_TRUE(linked.ok());
  // Ids: 0 process, 1 thread, 2 mm, 3 mm_kernel, 4 item, 5 memcpy.
  EXPECT_EQ(linked->find(4)->syncDeps, std::vector<std::int64_t>{5});
  EXPECT_EQ(linked->report.syncDeps, 1u);
}

TEST(Linker, GraphLaunchKernelsAllBelongToTheReplayOp) {
  TraceFixture f;
  f.add("1", "10", "CUDAGraph::replay", "cpu_op", 0, 100)
      .add("1", "10", "cudaGraphLaunch", "cuda_runtime", 10, 30, 9)
      .add("0", "7", "k1", "kernel", 50, 10, 9)
      .add("0", "8", "k2", "kernel", 55, 10, 9)
      .add("0", "7", "k3", "kernel", 70, 10, 9);
  auto et = makeEt({{1, kProcess, 1, 0}, {2, kThread, 1, 1}, {3, "CUDAGraph::replay", 2, 1}});
  auto linked = linkTraces(et, share(f.finish()));
  ASSERT_TRUE(linked.ok());
  ASSERT_EQ(linked->ops.size(), 6u);
  for (std::int64_t id = 3; id <= 5; ++id) EXPECT_EQ(linked->find(id)->parent, 2);
  EXPECT_EQ(linked->find(4)->stream, 8);
  EXPECT_EQ(linked->report.streams, (std::vector<std::int64_t>{7, 8}));
}

TEST(Linker, UnlinkableDeviceOpsAreCountedWithTheirReason) {
  TraceFixture f;
  f.add("1", "10", "aten::mm", "cpu_op", 0, 100)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", 10, 10, 1)
      .add("0", "7", "mm_kernel", "kernel", 50, 10, 1)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", 150, 10, 2)  // outside any op
      .add("0", "7", "bare_kernel", "kernel", 200, 10, 2)
      .add("0", "7", "lost_kernel", "kernel", 220, 10, 99);
  auto et = makeEt({{1, kProcess, 1, 0}, {2, kThread, 1, 1}, {3, "aten::mm", 2, 1}});
  auto linked = linkTraces(et, share(f.finish()));
  ASSERT_TRUE(linked.ok());
  const auto& r = linked->report;
  EXPECT_EQ(r.deviceOps, 3u);
  EXPECT_EQ(r.linkedDeviceOps, 1u);
  EXPECT_EQ(r.unlinked.count("device op whose launch call no framework op encloses"), 1u);
  EXPECT_EQ(r.unlinked.count("device op with no launch call in the trace"), 1u);
}

TEST(Linker, OverlappingChildrenAreCountedNotFatal) {
  TraceFixture f;
  f.add("1", "10", "aten::outer", "cpu_op", 0, 100)
      .add("1", "10", "aten::a", "cpu_op", 10, 40)
      .add("1", "10", "aten::b", "cpu_op", 30, 40);  // overlaps aten::a: nested under it by the
                                                     // builder, crossing its end
  auto et = makeEt({{1, kProcess, 1, 0},
                    {2, kThread, 1, 1},
                    {3, "aten::outer", 2, 1},
                    {4, "aten::a", 3, 1},
                    {5, "aten::b", 4, 1}});
  auto linked = linkTraces(et, share(f.finish()));
  ASSERT_TRUE(linked.ok());
  EXPECT_EQ(linked->report.matchedEtOps, 3u);
  EXPECT_EQ(linked->find(2)->exclusiveDur, 60);  // 100 - [10, 50)
  EXPECT_EQ(linked->find(3)->exclusiveDur, 20);  // 40 - [30, 50) clipped to its end
  EXPECT_EQ(linked->problems.count("CPU op whose children overlap each other or cross its end "
                                   "(exclusive duration counts the covered time once)"),
            1u);
}

TEST(Linker, UnrelatedPairIsAClearError) {
  TraceFixture f;
  f.add("1", "10", "aten::conv2d", "cpu_op", 0, 100);
  auto et = makeEt({{1, kProcess, 1, 0}, {2, kThread, 1, 1}, {3, "aten::lstm", 2, 1}});
  auto linked = linkTraces(et, share(f.finish()));
  ASSERT_FALSE(linked.ok());
  EXPECT_EQ(linked.error().message,
            "fixture: no CPU op of the Kineto trace shares a name with the execution trace "
            "et.json: they are not from the same program");
}

// An ET with a pid and a wall-clock time, as torch writes them.
std::shared_ptr<const EtTrace> withRun(std::shared_ptr<const EtTrace> et, std::int64_t pid,
                                       const std::string& time) {
  auto copy = std::make_shared<EtTrace>(*et);
  copy->pid = pid;
  copy->time = time;
  return copy;
}

TEST(Linker, TwoDifferentRunsAreRefusedUnlessForced) {
  // pid 1 in the Kineto trace, 4242 in the ET; and of the ET's four ops only aten::linear exists.
  TraceFixture f;
  addIteration(f, 0, 100);
  const auto kineto = share(f.finish());
  const auto et = withRun(makeEt({{1, kProcess, 1, 0},
                                  {2, kThread, 1, 1},
                                  {3, "aten::linear", 2, 1},
                                  {4, "aten::lstm", 3, 1},
                                  {5, "aten::gru", 2, 1},
                                  {6, "aten::rnn_tanh", 2, 1}}),
                          4242, "2024-01-02 03:04:05");
  auto refused = linkTraces(et, kineto);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().message,
            "et.json: not linked with the Kineto trace fixture: they are from different runs: "
            "the ET was recorded by pid 4242, the Kineto trace's host threads belong to pid 1; "
            "their op sequences differ: 1 of 4 ET ops matched a Kineto op (--force links them "
            "anyway)");
  LinkOptions force;
  force.force = true;
  auto forced = linkTraces(et, kineto, force);
  ASSERT_TRUE(forced.ok()) << forced.error().message;
  EXPECT_EQ(forced->report.matchedEtOps, 1u);
  // One sign alone is no refusal: the same ops under another pid link.
  auto samePid = linkTraces(withRun(et, 1, "2024-01-02 03:04:05"), kineto);
  EXPECT_TRUE(samePid.ok());
  auto sameOps = linkTraces(withRun(forwardEt(), 4242, ""), kineto);
  EXPECT_TRUE(sameOps.ok());
}

TEST(Linker, ARunAYearApartUnderAnotherPidIsRefusedEvenWithMatchingOps) {
  // Kineto starts 2023-11-14 22:13:20 UTC (epoch ns); the ET says 2024-11-14.
  constexpr TimeNs kEpoch = 1'700'000'000'000'000'000;
  TraceFixture f;
  addIteration(f, kEpoch, 100);
  auto linked = linkTraces(withRun(forwardEt(), 4242, "2024-11-14 10:00:00"), share(f.finish()));
  ASSERT_FALSE(linked.ok());
  EXPECT_NE(linked.error().message.find("the ET was recorded at 2024-11-14 10:00:00, the Kineto "
                                        "trace starts at 2023-11-14 22:13:20 UTC (365 days apart)"),
            std::string::npos)
      << linked.error().message;
  EXPECT_NE(linked.error().message.find("pid 4242"), std::string::npos);
}

TEST(Linker, KinetoAloneGivesALinkedTraceToo) {
  TraceFixture f;
  addIteration(f, 0, 100);
  auto linked = linkTraces(nullptr, share(f.finish()));
  ASSERT_TRUE(linked.ok());
  EXPECT_EQ(linked->report.matching, "kineto_only");
  // Ids: 0 linear, 1 addmm, 2 gemm, 3 relu, 4 relu_kernel.
  ASSERT_EQ(linked->ops.size(), 5u);
  EXPECT_EQ(linked->find(1)->parent, 0);
  EXPECT_EQ(linked->find(2)->parent, 1);
  EXPECT_EQ(linked->find(3)->parent, -1);
  EXPECT_EQ(linked->find(4)->name, "relu_kernel");
  EXPECT_EQ(linked->report.linkedDeviceOps, 2u);
}

}  // namespace
}  // namespace sutra
