// SPDX-License-Identifier: MIT
// The analyses behind the step breakdown, call tree and memory views (issue 19), on hand-made
// traces whose answers are worked out by hand in the comments.
#include <gtest/gtest.h>

#include "analysis/breakdown.h"
#include "analysis/call_tree.h"
#include "analysis/memory.h"
#include "analysis_fixture.h"
#include "io/readers.h"
#include "link/launch_index.h"
#include "test_support.h"

namespace sutra {
namespace {

// twoStepFixture, step 3 over [0, 1000): gemm [260,560) and add_kernel [800,850) are the device's
// 350 ns; the host's innermost event gives runtime 50 + 10 (the two launches), CPU ops 540
// (linear, addmm, is_leaf, both adds), other 400 (ProfilerStep#3 alone [0,50) and [800,1000), the
// Python frame alone [50,100) and [600,700)). Step 4 runs on the device to 1700 (mul_kernel,
// launched in it): [1000,1700), 400 ns kernel, 300 ns idle; its host: runtime 10, CPU 90, other
// 400.
TEST(Breakdown, PartitionsEachStepOnTheDeviceAndTheHost) {
  const Trace trace = test::twoStepFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const auto steps = findSteps(trace, launches);
  ASSERT_EQ(steps.size(), 2u);
  const Breakdown b = buildBreakdown(trace, steps);
  ASSERT_EQ(b.steps.size(), 2u);
  const StepBreakdown& s3 = b.steps[0];
  EXPECT_EQ(s3.step, 3);
  ASSERT_EQ(s3.devices.size(), 1u);
  EXPECT_EQ(s3.devices[0].kernel, 350);
  EXPECT_EQ(s3.devices[0].memcpy, 0);
  EXPECT_EQ(s3.devices[0].idle, 650);
  EXPECT_EQ(s3.devices[0].total(), 1000);
  EXPECT_EQ(s3.host.runtime, 60);
  EXPECT_EQ(s3.host.cpuOps, 540);
  EXPECT_EQ(s3.host.other, 400);
  EXPECT_EQ(s3.host.dataloader, 0);
  const StepBreakdown& s4 = b.steps[1];
  EXPECT_EQ(s4.deviceEnd, 1700);
  EXPECT_EQ(s4.devices[0].kernel, 400);
  EXPECT_EQ(s4.devices[0].idle, 300);
  EXPECT_EQ(s4.host.runtime, 10);
  EXPECT_EQ(s4.host.cpuOps, 90);
  EXPECT_EQ(s4.host.other, 400);
  // Step 3's 650 ns idle: 200 ns under ProfilerStep#3 alone (no op), 150 ns the Python frame ...
  ASSERT_EQ(s3.hints.size(), 1u);
  EXPECT_EQ(s3.hints[0],
            "GPU 0 is idle 65 % of step 3 (650 ns), the largest part 31 % while the host thread "
            "was in no op (200 ns)");
  // Step 4's 300 ns idle [1000,1300): 200 ns in no op, 90 ns aten::mul, 10 ns its launch.
  ASSERT_EQ(s4.hints.size(), 1u);
  EXPECT_EQ(s4.hints[0],
            "GPU 0 is idle 43 % of step 4 (300 ns), mostly while the host thread was in no op "
            "(200 ns)");
  // Below the threshold, no hint.
  const Breakdown quiet = buildBreakdown(trace, steps, {.idleHintPercent = 70.0});
  EXPECT_TRUE(quiet.steps[0].hints.empty());
}

// Overlapping device ops count once, in TensorBoard's order: a kernel hides a copy and a
// collective under it; a collective alone is communication. A dataloader op on the host is its
// own part, its runtime calls still runtime, and a big share of it is a hint.
//
//   host 1/1   ProfilerStep#1 [0,1000)
//                enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__ [0,400)
//                  cudaMemcpyAsync [100,150)
//                aten::mm [500,600)
//   stream 0/7 gemm [100,300)            stream 0/8  ncclDevKernel_AllReduce [200,600)
//   stream 0/9 Memcpy HtoD [250,350)     stream 0/9  Memset [700,720)
// Device [0,1000): kernel [100,300) 200, memcpy [300,350) 50, communication [350,600) 250,
// memset 20, idle 480. Host: runtime 50, dataloader 350, CPU 100, other 500.
TEST(Breakdown, CountsOverlapsOnceAndTheDataloaderApart) {
  TraceBuilder builder("overlap.json");
  const LaneId host = builder.lane("1", "1");
  const LaneId s7 = builder.lane("0", "7");
  const LaneId s8 = builder.lane("0", "8");
  const LaneId s9 = builder.lane("0", "9");
  test::addFixtureEvent(builder, host, "ProfilerStep#1", 0, 1000, "user_annotation");
  test::addFixtureEvent(builder, host,
                        "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 0, 400,
                        "user_annotation");
  test::addFixtureEvent(builder, host, "cudaMemcpyAsync", 100, 50, "cuda_runtime", 1);
  test::addFixtureEvent(builder, host, "aten::mm", 500, 100, "cpu_op");
  test::addFixtureEvent(builder, s7, "gemm", 100, 200, "kernel");
  test::addFixtureEvent(builder, s8, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 200, 400, "kernel");
  test::addFixtureEvent(builder, s9, "Memcpy HtoD (Pageable -> Device)", 250, 100, "gpu_memcpy", 1);
  test::addFixtureEvent(builder, s9, "Memset (Device)", 700, 20, "gpu_memset");
  const Trace trace = builder.finish();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const auto steps = findSteps(trace, launches);
  ASSERT_EQ(steps.size(), 1u);
  const Breakdown b = buildBreakdown(trace, steps);
  const DeviceBreakdown& d = b.steps[0].devices.at(0);
  EXPECT_EQ(d.kernel, 200);
  EXPECT_EQ(d.memcpy, 50);
  EXPECT_EQ(d.communication, 250);
  EXPECT_EQ(d.memset, 20);
  EXPECT_EQ(d.idle, 480);
  const HostBreakdown& h = b.steps[0].host;
  EXPECT_EQ(h.runtime, 50);
  EXPECT_EQ(h.dataloader, 350);
  EXPECT_EQ(h.cpuOps, 100);
  EXPECT_EQ(h.other, 500);
  ASSERT_EQ(b.steps[0].hints.size(), 2u);
  EXPECT_EQ(b.steps[0].hints[1], "the dataloader takes 35 % of step 1 on the host (350 ns)");
  const auto json = breakdownJson(trace, b);
  EXPECT_EQ(json["steps"][0]["devices"][0]["communication_ns"], 250);
  EXPECT_EQ(json["steps"][0]["host"]["dataloader_ns"], 350);
}

// The device idles while aten::item waits on its copy: the hint names the call and its op.
// syncFixture, whole trace [2000,2450): idle [2000,2100) and [2150,2400), 350 ns; of it
// cudaStreamSynchronize covers [2040,2100) and [2150,2200) (110 ns), aten::item itself 120 ns.
TEST(Breakdown, HintNamesTheCallTheHostWaitedIn) {
  const Trace trace = test::syncFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const auto steps = findSteps(trace, launches);
  ASSERT_EQ(steps.size(), 1u);
  const Breakdown b = buildBreakdown(trace, steps);
  const DeviceBreakdown& d = b.steps[0].devices.at(0);
  EXPECT_EQ(d.memcpy, 50);
  EXPECT_EQ(d.kernel, 50);
  EXPECT_EQ(d.idle, 350);
  ASSERT_EQ(b.steps[0].hints.size(), 1u);
  EXPECT_EQ(b.steps[0].hints[0],
            "GPU 0 is idle 78 % of step 0 (350 ns), the largest part 34 % while the host ran "
            "aten::item (120 ns)");
}

const CallNode* child(const ThreadCallTree& t, const CallNode& n, std::string_view name,
                      const Trace& trace) {
  for (std::uint32_t c : n.children)
    if (trace.names.view(t.nodes[c].name) == name) return &t.nodes[c];
  return nullptr;
}
const CallNode* root(const ThreadCallTree& t, std::string_view name, const Trace& trace) {
  for (std::uint32_t r : t.roots)
    if (trace.names.view(t.nodes[r].name) == name) return &t.nodes[r];
  return nullptr;
}

// twoStepFixture's tree, by hand: ProfilerStep#3 (1000) > nn.Module: Linear (650, a Python frame)
// > aten::linear (500) > aten::addmm (350, self 290) > cudaLaunchKernel (50, launched gemm 300)
// and aten::is_leaf (10); ProfilerStep#3 > aten::add (100) > aten::add (80) > cudaLaunchKernel
// (10, add_kernel 50); ProfilerStep#4 (500) > aten::mul (100) > cudaLaunchKernel (10, 400).
TEST(CallTree, TopDownHasSelfAndTotalTimesAndTheDeviceTimeOfLaunches) {
  const Trace trace = test::twoStepFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const CallTree tree = buildCallTree(trace, launches, {wholeTraceWindow(trace), false});
  ASSERT_EQ(tree.threads.size(), 1u);
  const ThreadCallTree& t = tree.threads[0];
  EXPECT_EQ(t.cpuTotal, 1500);
  EXPECT_EQ(t.deviceTotal, 750);
  ASSERT_EQ(t.roots.size(), 2u);
  const CallNode* step3 = root(t, "ProfilerStep#3", trace);
  ASSERT_TRUE(step3);
  EXPECT_EQ(step3->selfCpu, 250);  // 1000 - 650 (Linear) - 100 (add)
  EXPECT_EQ(step3->deviceTotal, 350);
  const CallNode* linear = child(t, *step3, "nn.Module: Linear", trace);
  ASSERT_TRUE(linear);
  EXPECT_EQ(linear->klass, CategoryClass::PythonFunction);
  const CallNode* addmm = child(t, *child(t, *linear, "aten::linear", trace), "aten::addmm", trace);
  ASSERT_TRUE(addmm);
  EXPECT_EQ(addmm->cpuTotal, 350);
  EXPECT_EQ(addmm->selfCpu, 290);
  EXPECT_EQ(addmm->selfDevice, 0);
  EXPECT_EQ(addmm->deviceTotal, 300);
  const CallNode* launch = child(t, *addmm, "cudaLaunchKernel", trace);
  ASSERT_TRUE(launch);
  EXPECT_EQ(launch->selfDevice, 300);
  const CallNode* add = child(t, *step3, "aten::add", trace);
  ASSERT_TRUE(add);
  EXPECT_EQ(add->calls, 1u);
  EXPECT_EQ(add->selfCpu, 20);
  const CallNode* inner = child(t, *add, "aten::add", trace);
  ASSERT_TRUE(inner);
  EXPECT_EQ(inner->selfCpu, 70);
  EXPECT_EQ(inner->deviceTotal, 50);
  // A step window keeps the calls starting in it.
  const auto steps = findSteps(trace, launches);
  const CallTree step4 = buildCallTree(trace, launches, {stepWindow(steps[1]), false});
  ASSERT_EQ(step4.threads.size(), 1u);
  EXPECT_EQ(step4.threads[0].cpuTotal, 500);
  EXPECT_EQ(step4.threads[0].deviceTotal, 400);
}

// Bottom-up, by hand from the tree above: cudaLaunchKernel is 3 calls, 70 ns self CPU and 750 ns
// device, called from aten::addmm (300), aten::add (50) and aten::mul (400); aten::add is 2 calls,
// 90 ns self, 20 from ProfilerStep#3 directly and 70 through the outer aten::add.
TEST(CallTree, BottomUpPutsEachFunctionAtTheRootWithItsCallersBelow) {
  const Trace trace = test::twoStepFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const CallTree tree = buildCallTree(trace, launches, {wholeTraceWindow(trace), true});
  ASSERT_EQ(tree.threads.size(), 1u);
  const ThreadCallTree& t = tree.threads[0];
  const CallNode* launch = root(t, "cudaLaunchKernel", trace);
  ASSERT_TRUE(launch);
  EXPECT_EQ(launch->calls, 3u);
  EXPECT_EQ(launch->selfCpu, 70);
  EXPECT_EQ(launch->selfDevice, 750);
  ASSERT_EQ(launch->children.size(), 3u);
  EXPECT_EQ(child(t, *launch, "aten::mul", trace)->selfDevice, 400);
  EXPECT_EQ(child(t, *launch, "aten::addmm", trace)->selfDevice, 300);
  const CallNode* add = root(t, "aten::add", trace);
  ASSERT_TRUE(add);
  EXPECT_EQ(add->calls, 2u);
  EXPECT_EQ(add->selfCpu, 90);
  EXPECT_EQ(child(t, *add, "ProfilerStep#3", trace)->selfCpu, 20);
  const CallNode* viaAdd = child(t, *add, "aten::add", trace);
  ASSERT_TRUE(viaAdd);
  EXPECT_EQ(viaAdd->selfCpu, 70);
  EXPECT_TRUE(child(t, *viaAdd, "ProfilerStep#3", trace));
  // The roots' self times add up to the thread's CPU time.
  TimeNs self = 0;
  for (std::uint32_t r : t.roots) self += t.nodes[r].selfCpu;
  EXPECT_EQ(self, 1500);
}

// tests/data/kineto/memory_events.json, by hand: CUDA 0 peaks at 13312 B at 35 us (in aten::mm);
// then live: 4096 B from aten::empty (Addr 1000, freed only at 40 us), 8192 + 1024 B from aten::mm.
// CPU peaks at 100 B at 12 us, in aten::empty.
TEST(Memory, PeakPerDeviceAndTheOpsLiveAtIt) {
  auto trace = readKinetoTrace(test::fixture("kineto/memory_events.json"));
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  const MemoryReport report = buildMemoryReport(*trace);
  EXPECT_EQ(report.events, 7u);
  ASSERT_EQ(report.devices.size(), 2u);
  const MemoryDevice& cpu = report.devices[0];
  EXPECT_EQ(cpu.typeName, "CPU");
  EXPECT_EQ(cpu.peakBytes, 100);
  EXPECT_EQ(cpu.peakNs, 12000);
  const MemoryDevice& gpu = report.devices[1];
  EXPECT_EQ(gpu.typeName, "CUDA");
  EXPECT_EQ(gpu.deviceId, 0);
  EXPECT_TRUE(gpu.totalsRecorded);
  EXPECT_TRUE(gpu.matchedByAddress);
  EXPECT_EQ(gpu.points.size(), 5u);
  EXPECT_EQ(gpu.allocations, 4u);
  EXPECT_EQ(gpu.frees, 1u);
  EXPECT_EQ(gpu.peakBytes, 13312);
  EXPECT_EQ(gpu.peakNs, 35000);
  EXPECT_EQ(gpu.peakReserved, 4194304);
  ASSERT_NE(gpu.peakOp, kNoEvent);
  EXPECT_EQ(trace->name(trace->events[gpu.peakOp]), "aten::mm");
  ASSERT_EQ(gpu.liveAtPeak.size(), 2u);
  EXPECT_EQ(gpu.liveAtPeak[0].name, "aten::mm");
  EXPECT_EQ(gpu.liveAtPeak[0].bytes, 9216);
  EXPECT_EQ(gpu.liveAtPeak[0].allocations, 2u);
  EXPECT_EQ(gpu.liveAtPeak[1].name, "aten::empty");
  EXPECT_EQ(gpu.liveAtPeak[1].bytes, 4096);
  const auto json = memoryJson(*trace, report);
  EXPECT_EQ(json["devices"][1]["device_type"], "CUDA");
  EXPECT_EQ(json["devices"][1]["peak_bytes"], 13312);
  EXPECT_EQ(json["devices"][1]["peak_ns"], 35000);
}

// Without Total Allocated the curve is the running sum of Bytes; without Addr every allocation up
// to the peak counts. A trace without [memory] events says so.
TEST(Memory, RunningSumWithoutTotalsAndNoEventsSaidClearly) {
  TraceBuilder builder("bare_memory.json");
  const LaneId host = builder.lane("1", "1");
  test::addFixtureEvent(builder, host, "aten::ones", 0, 100, "cpu_op");
  auto memory = [&](TimeNs t, const char* args) {
    Instant i;
    i.time = t;
    i.name = builder.trace().names.intern("[memory]");
    i.lane = host;
    builder.addInstant(i, args);
  };
  memory(10, R"({"Bytes": 512, "Device Type": 1, "Device Id": 0})");
  memory(20, R"({"Bytes": 256, "Device Type": 1, "Device Id": 0})");
  memory(30, R"({"Bytes": -512, "Device Type": 1, "Device Id": 0})");
  memory(200, R"({"Device Type": 1})");  // no Bytes: unreadable, counted
  const Trace trace = builder.finish();
  const MemoryReport report = buildMemoryReport(trace);
  EXPECT_EQ(report.events, 4u);
  EXPECT_EQ(report.unreadable, 1u);
  ASSERT_EQ(report.devices.size(), 1u);
  const MemoryDevice& d = report.devices[0];
  EXPECT_FALSE(d.totalsRecorded);
  EXPECT_FALSE(d.matchedByAddress);
  EXPECT_EQ(d.peakBytes, 768);
  EXPECT_EQ(d.peakNs, 20);
  EXPECT_EQ(d.points.back().allocated, 256);
  ASSERT_EQ(d.liveAtPeak.size(), 1u);
  EXPECT_EQ(d.liveAtPeak[0].bytes, 768);
  EXPECT_EQ(d.liveAtPeak[0].name, "aten::ones");

  const Trace none = test::twoStepFixture();
  const MemoryReport empty = buildMemoryReport(none);
  EXPECT_EQ(empty.events, 0u);
  EXPECT_TRUE(empty.devices.empty());
  EXPECT_EQ(memoryText(none, empty),
            "No memory events in fixture.json: record with torch.profiler's "
            "profile_memory=True.\n");
}

}  // namespace
}  // namespace sutra
