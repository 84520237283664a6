// SPDX-License-Identifier: MIT
#include "analysis/critical_path.h"

#include <gtest/gtest.h>

#include "analysis_fixture.h"
#include "link/launch_index.h"

namespace sutra {
namespace {

using test::eventNamed;

// The path by hand (syncFixture): aten::item starts (10 ns CPU to the copy's launch), the copy
// waits 90 ns to start, runs 50 ns, the stream sync returns 50 ns after it ends, aten::item runs
// 100 ns more, aten::add takes 10 ns to launch its kernel, which starts 90 ns later and runs 50 ns.
// The CPU-only path is shorter (10+20+10+0+100+10+90+50 = 290 ns against 450 ns).
TEST(CriticalPath, RunsThroughTheDeviceWorkASyncWaitedOn) {
  const Trace trace = test::syncFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const auto syncs = findSyncDependencies(trace, launches);
  const CriticalPath path = criticalPath(trace, launches, syncs, wholeTraceWindow(trace));
  EXPECT_EQ(path.nodes, 14u);
  EXPECT_EQ(path.start, 2000);
  EXPECT_EQ(path.end, 2450);
  EXPECT_EQ(path.length, 450);
  EXPECT_EQ(path.breakdown.cpu, 120);
  EXPECT_EQ(path.breakdown.launchDelay, 180);
  EXPECT_EQ(path.breakdown.deviceCompute, 100);
  EXPECT_EQ(path.breakdown.syncWait, 50);
  EXPECT_EQ(path.breakdown.kernelGap, 0);
  EXPECT_EQ(path.breakdown.total(), path.length);
  const std::vector<std::pair<CriticalKind, const char*>> expected = {
      {CriticalKind::Cpu, "aten::item"},
      {CriticalKind::LaunchDelay, "cudaMemcpyAsync"},
      {CriticalKind::DeviceCompute, "Memcpy DtoH (Device -> Pageable)"},
      {CriticalKind::SyncWait, "cudaStreamSynchronize"},
      {CriticalKind::Cpu, "aten::item"},
      {CriticalKind::Dependency, nullptr},
      {CriticalKind::Cpu, "aten::add"},
      {CriticalKind::LaunchDelay, "cudaLaunchKernel"},
      {CriticalKind::DeviceCompute, "add_kernel"},
  };
  ASSERT_EQ(path.segments.size(), expected.size());
  TimeNs previousEnd = path.start;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto& s = path.segments[i];
    EXPECT_EQ(s.kind, expected[i].first) << i;
    if (expected[i].second) {
      EXPECT_EQ(trace.name(trace.events[s.event]), expected[i].second) << i;
    }
    EXPECT_EQ(s.start, previousEnd) << i;  // the segments join up
    EXPECT_LE(s.weight, s.end - s.start) << i;
    previousEnd = s.end;
  }
  const auto json = criticalPathJson(trace, path);
  EXPECT_EQ(json["length_ns"], 450);
  EXPECT_EQ(json["breakdown"]["sync_wait_ns"], 50);
  EXPECT_EQ(json["segments"][3]["kind"], "sync_wait");
}

TEST(CriticalPath, WithoutTheSyncTheCpuBoundsTheCopy) {
  const Trace trace = test::syncFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const CriticalPath path = criticalPath(trace, launches, {}, wholeTraceWindow(trace));
  // Nothing ties the copy to the CPU: aten::item runs 300 ns on its own (10+20+10+160+100), then
  // aten::add's launch and kernel (10+90+50).
  EXPECT_EQ(path.length, 450);
  EXPECT_EQ(path.breakdown.cpu, 310);
  EXPECT_EQ(path.breakdown.launchDelay, 90);
  EXPECT_EQ(path.breakdown.deviceCompute, 50);
  EXPECT_EQ(path.breakdown.syncWait, 0);
}

TEST(CriticalPath, KernelGapsOnABusyStreamAndStepWindows) {
  const Trace trace = test::twoStepFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const auto steps = findSteps(trace, launches);
  // Step 4: ProfilerStep#4 [1000,1500) with aten::mul launching mul_kernel [1300,1700).
  const CriticalPath path = criticalPath(trace, launches, {}, stepWindow(steps[1]));
  // mul start -> launch start (10) -> kernel start (190) -> kernel end (400). The step annotation
  // is no node (as in HTA): its 100 ns before aten::mul are no CPU work.
  EXPECT_EQ(path.length, 600);
  EXPECT_EQ(path.breakdown.cpu, 10);
  EXPECT_EQ(path.breakdown.launchDelay, 190);
  EXPECT_EQ(path.breakdown.deviceCompute, 400);
  EXPECT_EQ(path.start, 1100);
  EXPECT_EQ(path.end, 1700);
  EXPECT_EQ(path.end, steps[1].deviceEnd);
}

TEST(CriticalPath, AnAnnotationsOwnTimeIsNoCpuWork) {
  // A user annotation [0,100) around aten::add [40,50), and ProfilerStep#1 written as an op
  // (PyTorch <= 1.12) [200,300) around aten::mul [250,260). HTA's graph has no annotation nodes.
  TraceBuilder b("annotations.json");
  const LaneId host = b.lane("1", "1");
  test::addFixtureEvent(b, host, "my_region", 0, 100, "user_annotation");
  test::addFixtureEvent(b, host, "aten::add", 40, 10, "cpu_op");
  test::addFixtureEvent(b, host, "ProfilerStep#1", 200, 100, "Operator");
  test::addFixtureEvent(b, host, "aten::mul", 250, 10, "Operator");
  const Trace trace = b.finish();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const CriticalPath path = criticalPath(trace, launches, {}, wholeTraceWindow(trace));
  EXPECT_EQ(path.nodes, 4u);  // the two ops only
  EXPECT_EQ(path.breakdown.cpu, 20);
  EXPECT_EQ(path.length, 20);
}

TEST(CriticalPath, ALaunchDelayIsNeverLongerThanTheStreamsIdleTime) {
  // The window [100,200) launches k1 at 110, but the stream is busy until 180 with k0, launched
  // before the window (at 50): k1 waited for the stream, not for its launch.
  TraceBuilder b("busy.json");
  const LaneId host = b.lane("1", "1");
  const LaneId stream = b.lane("0", "7");
  test::addFixtureEvent(b, host, "aten::mm", 50, 10, "cpu_op");
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 52, 5, "cuda_runtime", 1);
  test::addFixtureEvent(b, host, "aten::add", 110, 10, "cpu_op");
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 112, 5, "cuda_runtime", 2);
  test::addFixtureEvent(b, stream, "k0", 60, 120, "kernel", 1);
  test::addFixtureEvent(b, stream, "k1", 180, 10, "kernel", 2);
  const Trace trace = b.finish();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const CriticalPath path = criticalPath(trace, launches, {}, {100, 200});
  EXPECT_EQ(path.breakdown.launchDelay, 0);  // was 68 (112 -> 180), all of it busy stream
  EXPECT_EQ(path.breakdown.deviceCompute, 10);
  for (const auto& s : path.segments) EXPECT_LE(s.weight, s.end - s.start);
  // Over the whole trace k0 is in the graph: k1 follows it with no gap.
  const CriticalPath whole = criticalPath(trace, launches, {}, wholeTraceWindow(trace));
  EXPECT_EQ(whole.breakdown.kernelGap, 0);
  EXPECT_EQ(whole.breakdown.deviceCompute, 130);
}

TEST(CriticalPath, DeviceWorkLaunchedBeforeTheTraceIsInNoStep) {
  // k0 has no launch in the trace and runs in step 1 [0,100); k1, launched at 10, waits for it.
  TraceBuilder b("before.json");
  const LaneId host = b.lane("1", "1");
  const LaneId stream = b.lane("0", "7");
  test::addFixtureEvent(b, host, "ProfilerStep#1", 0, 100, "user_annotation");
  test::addFixtureEvent(b, host, "aten::mm", 5, 20, "cpu_op");
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 10, 5, "cuda_runtime", 1);
  test::addFixtureEvent(b, stream, "k0", 0, 50, "kernel", 99);
  test::addFixtureEvent(b, stream, "k1", 50, 30, "kernel", 1);
  const Trace trace = b.finish();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const CriticalPath step = criticalPath(trace, launches, {}, {0, 100});
  EXPECT_EQ(step.nodes, 6u);  // aten::mm, the launch and k1: not k0
  EXPECT_EQ(step.breakdown.deviceCompute, 30);
  EXPECT_EQ(step.breakdown.launchDelay, 0);  // the stream was busy with k0 until k1 started
  const CriticalPath whole = criticalPath(trace, launches, {}, wholeTraceWindow(trace));
  EXPECT_EQ(whole.nodes, 8u);
  EXPECT_EQ(whole.breakdown.deviceCompute, 80);  // k0 then k1
}

TEST(CriticalPath, EmptyWindow) {
  const Trace trace = test::twoStepFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const CriticalPath path = criticalPath(trace, launches, {}, {5000, 6000});
  EXPECT_EQ(path.nodes, 0u);
  EXPECT_EQ(path.length, 0);
  EXPECT_TRUE(path.segments.empty());
}

}  // namespace
}  // namespace sutra
