// SPDX-License-Identifier: MIT
// The analyses after Holistic Trace Analysis' device views (core/analysis/device_time.h,
// idle_time.h, queue_length.h) on hand-made traces whose answers are worked out in the comments.
// tests/python/test_hta_oracle.py judges the same analyses against HTA itself on real traces.
#include <gtest/gtest.h>

#include "analysis/device_time.h"
#include "analysis/idle_time.h"
#include "analysis/queue_length.h"
#include "analysis_fixture.h"
#include "link/launch_index.h"
#include "link/steps.h"
#include "model/trace_builder.h"

namespace sutra {
namespace {

// host 1/1: cudaLaunchKernel 1 at 0, 2 at 20, cudaMemcpyAsync 3 at 40, cudaLaunchKernel 4 at 60,
// 5 at 80 (each 10 ns long)
//   stream 0/7: gemm [100,300) (1), Memcpy HtoD [450,550) (3), fooSync [700,800) (4: type other),
//               add_kernel [900,1000) (5)
//   stream 0/8: ncclDevKernel_AllReduce [200,500) (2)
Trace kernelTypesFixture() {
  TraceBuilder b("types.json");
  const LaneId host = b.lane("1", "1");
  const LaneId s7 = b.lane("0", "7");
  const LaneId s8 = b.lane("0", "8");
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 0, 10, "cuda_runtime", 1);
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 20, 10, "cuda_runtime", 2);
  test::addFixtureEvent(b, host, "cudaMemcpyAsync", 40, 10, "cuda_runtime", 3);
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 60, 10, "cuda_runtime", 4);
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 80, 10, "cuda_runtime", 5);
  test::addFixtureEvent(b, s7, "gemm", 100, 200, "kernel", 1);
  test::addFixtureEvent(b, s8, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", 200, 300, "kernel", 2);
  test::addFixtureEvent(b, s7, "Memcpy HtoD (Pageable -> Device)", 450, 100, "gpu_memcpy", 3);
  test::addFixtureEvent(b, s7, "fooSync", 700, 100, "kernel", 4);
  test::addFixtureEvent(b, s7, "add_kernel", 900, 100, "kernel", 5);
  return b.finish();
}

TEST(DeviceTime, KernelTypesByHtasNameRules) {
  const Trace trace = kernelTypesFixture();
  const auto typeOf = [&](const char* name) {
    return kernelTypeOf(trace, trace.events[test::eventNamed(trace, name)]);
  };
  EXPECT_EQ(typeOf("gemm"), KernelType::Computation);
  EXPECT_EQ(typeOf("ncclDevKernel_AllReduce_Sum_f32_RING_LL"), KernelType::Communication);
  EXPECT_EQ(typeOf("Memcpy HtoD (Pageable -> Device)"), KernelType::Memory);
  EXPECT_EQ(typeOf("fooSync"), KernelType::Other);  // HTA: .*Sync is no computation
}

// Span [100,1000) 900; busy [100,550) + [700,800) + [900,1000) = 650, idle 250. Computation
// [100,300) + [900,1000) = 300, non-computation 350 (memory, communication and fooSync).
// Communication [200,500) 300, of which [200,300) with gemm: overlap 1/3. By types: computation
// alone [100,200) + [900,1000) 200, communication alone [300,450) 150, computation overlapping
// communication 100, memory alone [500,550) 50, communication overlapping memory [450,500) 50.
TEST(DeviceTime, SplitsTheSpanByKernelTypesCountingOverlapsOnce) {
  const Trace trace = kernelTypesFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const DeviceTime t = deviceTime(trace, launches, wholeTraceWindow(trace));
  EXPECT_EQ(t.ops, 5u);
  EXPECT_EQ(t.span(), 900);
  EXPECT_EQ(t.busy, 650);
  EXPECT_EQ(t.idle(), 250);
  EXPECT_EQ(t.computation, 300);
  EXPECT_EQ(t.nonComputation(), 350);
  EXPECT_EQ(t.communication, 300);
  EXPECT_EQ(t.memory, 100);
  EXPECT_EQ(t.computationWithCommunication, 100);
  ASSERT_TRUE(t.overlapRatio().has_value());
  EXPECT_DOUBLE_EQ(*t.overlapRatio(), 1.0 / 3.0);
  ASSERT_EQ(t.byKernelTypes.size(), 5u);
  EXPECT_EQ(t.byKernelTypes[0].types, "computation");
  EXPECT_EQ(t.byKernelTypes[0].time, 200);
  EXPECT_EQ(t.byKernelTypes[1].types, "communication");
  EXPECT_EQ(t.byKernelTypes[1].time, 150);
  EXPECT_EQ(t.byKernelTypes[2].types, "computation overlapping communication");
  EXPECT_EQ(t.byKernelTypes[2].time, 100);
  EXPECT_EQ(t.byKernelTypes[3].types, "memory");
  EXPECT_EQ(t.byKernelTypes[3].time, 50);
  EXPECT_EQ(t.byKernelTypes[4].types, "communication overlapping memory");
  EXPECT_EQ(t.byKernelTypes[4].time, 50);
  const auto json = deviceTimeJson(t);
  EXPECT_EQ(json["idle_ns"], 250);
  EXPECT_EQ(json["kernel_types"][2]["time_ns"], 100);
}

// The window [0,50) holds the launches of gemm, the all-reduce and the copy: span [100,550) is all
// busy; no communication in [60,100): no overlap ratio.
TEST(DeviceTime, WindowTakesTheOpsLaunchedInIt) {
  const Trace trace = kernelTypesFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const DeviceTime t = deviceTime(trace, launches, {0, 50});
  EXPECT_EQ(t.ops, 3u);
  EXPECT_EQ(t.span(), 450);
  EXPECT_EQ(t.idle(), 0);
  const DeviceTime late = deviceTime(trace, launches, {60, 100});
  EXPECT_EQ(late.ops, 2u);
  EXPECT_FALSE(late.overlapRatio().has_value());
  EXPECT_TRUE(deviceTimeJson(late)["overlap_ratio"].is_null());
  EXPECT_EQ(deviceTime(trace, launches, {2000, 3000}).ops, 0u);
}

// host 1/1: launches at 0 (A), 50 (B), 350 (C), 360 (D), 370 (E); F has no launch call.
//   stream 0/7: A [100,200), B [210,300), C [400,500), D [600,650), E [640,700), F [800,900)
//   stream 0/8: G [100,150), launched at 380
Trace idleFixture() {
  TraceBuilder b("idle.json");
  const LaneId host = b.lane("1", "1");
  const LaneId s7 = b.lane("0", "7");
  const LaneId s8 = b.lane("0", "8");
  int corr = 1;
  for (TimeNs call : {0, 50, 350, 360, 370, 380})
    test::addFixtureEvent(b, host, "cudaLaunchKernel", call, 5, "cuda_runtime", corr++);
  test::addFixtureEvent(b, s7, "A", 100, 100, "kernel", 1);
  test::addFixtureEvent(b, s7, "B", 210, 90, "kernel", 2);
  test::addFixtureEvent(b, s7, "C", 400, 100, "kernel", 3);
  test::addFixtureEvent(b, s7, "D", 600, 50, "kernel", 4);
  test::addFixtureEvent(b, s7, "E", 640, 60, "kernel", 5);
  test::addFixtureEvent(b, s7, "F", 800, 100, "kernel");
  test::addFixtureEvent(b, s8, "G", 100, 50, "kernel", 6);
  return b.finish();
}

// Kernel wait under 50 ns. B: launched at 50 while A ran, gap 10: kernel wait. C: launched at 350,
// after B ended at 300: host wait 100. D: launched at 360 while C ran, gap 100: other. E overlaps
// D: gap 0 (HTA: -10), kernel wait. F: no launch call, gap 100 from E's end: other.
TEST(IdleTime, ClassifiesEachGapByItsLaunchAndLength) {
  const Trace trace = idleFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const IdleTimeOptions options{.kernelWaitThreshold = 50};
  const auto streams = idleTimeBreakdown(trace, launches, wholeTraceWindow(trace), options);
  ASSERT_EQ(streams.size(), 2u);
  const StreamIdleTime& s = streams[0];
  EXPECT_EQ(s.stream, 7);
  EXPECT_EQ(s.ops, 6u);
  EXPECT_EQ(s.hostWait, 100);
  EXPECT_EQ(s.kernelWait, 10);
  EXPECT_EQ(s.other, 200);
  EXPECT_EQ(s.hostWaitGaps, 1u);
  EXPECT_EQ(s.kernelWaitGaps, 2u);
  EXPECT_EQ(s.otherGaps, 2u);
  EXPECT_EQ(streams[1].stream, 8);
  EXPECT_EQ(streams[1].ops, 1u);
  EXPECT_EQ(streams[1].total(), 0);
  // HTA's default, 30 us: every gap that is no host wait is kernel wait.
  const auto byDefault = idleTimeBreakdown(trace, launches, wholeTraceWindow(trace));
  EXPECT_EQ(byDefault[0].kernelWait, 210);
  EXPECT_EQ(byDefault[0].other, 0);
  // [0,360): A, B, C; F (no launch) only in the whole trace.
  const auto windowed = idleTimeBreakdown(trace, launches, {0, 360}, options);
  ASSERT_EQ(windowed.size(), 1u);
  EXPECT_EQ(windowed[0].ops, 3u);
  EXPECT_EQ(windowed[0].total(), 110);
  EXPECT_EQ(idleTimeJson(streams, options)["streams"][0]["other_ns"], 200);
}

// Stream 0/7, F unlaunched and left out: 0 +1 -> 1, 50 +1 -> 2, 100 -1 -> 1, 210 -1 -> 0,
// 350 -> 1, 360 -> 2, 370 -> 3, 400 -> 2, 600 -> 1, 640 -> 0. Values 1 2 1 0 1 2 3 2 1 0: mean
// 1.3, sample variance 8.1 / 9 = 0.9, sorted 0 0 1 1 1 1 2 2 2 3: p25 1, p50 1, p75 2. Over time:
// (50 + 100 + 110 + 0 + 10 + 20 + 90 + 400 + 40) / 640 = 820 / 640.
TEST(QueueLength, CountsOpsLaunchedAndNotYetStarted) {
  const Trace trace = idleFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const auto streams = queueLengths(trace, launches, wholeTraceWindow(trace));
  ASSERT_EQ(streams.size(), 2u);
  const StreamQueueLength& s = streams[0];
  EXPECT_EQ(s.stream, 7);
  ASSERT_EQ(s.series.size(), 10u);
  EXPECT_EQ(s.series[6], (std::pair<TimeNs, int>{370, 3}));
  const QueueLengthSummary& q = s.summary;
  EXPECT_EQ(q.count, 10u);
  EXPECT_DOUBLE_EQ(q.mean, 1.3);
  EXPECT_NEAR(q.std, std::sqrt(0.9), 1e-12);
  EXPECT_EQ(q.min, 0);
  EXPECT_EQ(q.p25, 1);
  EXPECT_EQ(q.p50, 1);
  EXPECT_EQ(q.p75, 2);
  EXPECT_EQ(q.max, 3);
  EXPECT_DOUBLE_EQ(q.timeWeightedMean, 820.0 / 640.0);
  // Stream 0/8: G launched at 380, started at 100 (clock skew): -1 first, then +1: -1, 0.
  EXPECT_EQ(streams[1].series.front(), (std::pair<TimeNs, int>{100, -1}));
  EXPECT_EQ(queueLengthJson(streams)["streams"][0]["max"], 3);
}

// Rises before falls at one time: a launch at 100 and an op starting at 100 give 1 then 0.
TEST(QueueLength, TakesRisesFirstAtOneTime) {
  TraceBuilder b("ties.json");
  const LaneId host = b.lane("1", "1");
  const LaneId s7 = b.lane("0", "7");
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 0, 5, "cuda_runtime", 1);
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 100, 5, "cuda_runtime", 2);
  test::addFixtureEvent(b, s7, "A", 100, 10, "kernel", 1);
  test::addFixtureEvent(b, s7, "B", 120, 10, "kernel", 2);
  const Trace trace = b.finish();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const auto streams = queueLengths(trace, launches, wholeTraceWindow(trace));
  ASSERT_EQ(streams.size(), 1u);
  std::vector<int> lengths;
  for (const auto& [time, length] : streams[0].series) lengths.push_back(length);
  EXPECT_EQ(lengths, (std::vector<int>{1, 2, 1, 0}));
}

}  // namespace
}  // namespace sutra
