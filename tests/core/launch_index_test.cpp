// SPDX-License-Identifier: MIT
#include "link/launch_index.h"

#include <gtest/gtest.h>

#include <vector>

#include "trace_fixture.h"

namespace sutra {
namespace {

using test::eventNamed;
using test::TraceFixture;

TEST(LaunchIndex, KernelLaunchGoesToInnermostEnclosingOp) {
  TraceFixture f;
  f.add("1", "10", "aten::linear", "cpu_op", 0, 100)
      .add("1", "10", "aten::addmm", "cpu_op", 5, 50)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", 10, 20, 5)
      .add("0", "7", "gemm_kernel", "kernel", 60, 30, 5);
  Trace t = f.finish();
  ProblemLog problems;
  auto index = LaunchIndex::build(t, &problems);
  const EventId kernel = eventNamed(t, "gemm_kernel");
  const EventId call = eventNamed(t, "cudaLaunchKernel");
  EXPECT_EQ(index.runtimeCallOf(kernel), call);
  EXPECT_EQ(index.launcherOf(kernel), eventNamed(t, "aten::addmm"));
  ASSERT_EQ(index.deviceOpsOf(call).size(), 1u);
  EXPECT_EQ(index.deviceOpsOf(call)[0], kernel);
  EXPECT_TRUE(index.deviceOpsOf(eventNamed(t, "aten::addmm")).empty());
  EXPECT_EQ(index.launches().size(), 1u);
  EXPECT_EQ(index.linkedCount(), 1u);
  EXPECT_TRUE(problems.empty());
}

TEST(LaunchIndex, EveryLaunchKindAndBackend) {
  TraceFixture f;
  f.add("1", "10", "aten::copy_", "cpu_op", 0, 100)
      .add("1", "10", "cudaMemcpyAsync", "cuda_runtime", 10, 5, 11)
      .add("1", "10", "cudaMemsetAsync", "cuda_runtime", 20, 5, 12)
      .add("1", "10", "cuLaunchKernel", "cuda_driver", 30, 5, 13)
      .add("1", "10", "cudaLaunchKernelExC", "cuda_runtime", 40, 5, 14)
      .add("1", "11", "mtia::add", "cpu_op", 0, 100)
      .add("1", "11", "runFunction", "mtia_runtime", 10, 5, 21)
      .add("1", "12", "neuron::mm", "cpu_op", 0, 100)
      .add("1", "12", "launch", "privateuse1_runtime", 10, 5, 31)
      .add("0", "7", "Memcpy HtoD", "gpu_memcpy", 110, 5, 11)
      .add("0", "7", "Memset", "gpu_memset", 120, 5, 12)
      .add("0", "7", "triton_kernel", "kernel", 130, 5, 13)
      .add("0", "7", "cutlass_kernel", "kernel", 140, 5, 14)
      .add("2", "1", "mtia_kernel", "mtia_ccp_events", 20, 5, 21)
      .add("3", "1", "neuron_kernel", "kernel", 20, 5, 31);
  Trace t = f.finish();
  auto index = LaunchIndex::build(t);
  EXPECT_EQ(index.launches().size(), 6u);
  EXPECT_EQ(index.linkedCount(), 6u);
  EXPECT_EQ(index.runtimeCallOf(eventNamed(t, "Memcpy HtoD")), eventNamed(t, "cudaMemcpyAsync"));
  EXPECT_EQ(index.runtimeCallOf(eventNamed(t, "Memset")), eventNamed(t, "cudaMemsetAsync"));
  EXPECT_EQ(index.runtimeCallOf(eventNamed(t, "triton_kernel")), eventNamed(t, "cuLaunchKernel"));
  EXPECT_EQ(index.runtimeCallOf(eventNamed(t, "cutlass_kernel")),
            eventNamed(t, "cudaLaunchKernelExC"));
  EXPECT_EQ(index.launcherOf(eventNamed(t, "cutlass_kernel")), eventNamed(t, "aten::copy_"));
  EXPECT_EQ(index.launcherOf(eventNamed(t, "mtia_kernel")), eventNamed(t, "mtia::add"));
  EXPECT_EQ(index.launcherOf(eventNamed(t, "neuron_kernel")), eventNamed(t, "neuron::mm"));
}

TEST(LaunchIndex, GraphLaunchOwnsEveryKernelOfTheGraph) {
  TraceFixture f;
  f.add("1", "10", "CUDAGraph::replay", "cpu_op", 0, 100)
      .add("1", "10", "cudaGraphLaunch", "cuda_runtime", 10, 20, 9)
      .add("0", "7", "k2", "kernel", 80, 10, 9)
      .add("0", "7", "k1", "kernel", 50, 10, 9)
      .add("0", "8", "k3", "kernel", 60, 10, 9);
  Trace t = f.finish();
  auto index = LaunchIndex::build(t);
  const auto ops = index.deviceOpsOf(eventNamed(t, "cudaGraphLaunch"));
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(t.name(t.events[ops[0]]), "k1");  // by device start
  EXPECT_EQ(t.name(t.events[ops[1]]), "k3");
  EXPECT_EQ(t.name(t.events[ops[2]]), "k2");
  for (auto op : ops) EXPECT_EQ(index.launcherOf(op), eventNamed(t, "CUDAGraph::replay"));
}

TEST(LaunchIndex, UnmatchedDeviceOpsAreCountedByReason) {
  TraceFixture f;
  f.add("1", "10", "cudaLaunchKernel", "cuda_runtime", 10, 5, 5)  // no enclosing op
      .add("0", "7", "launched_bare", "kernel", 20, 5, 5)
      .add("0", "7", "no_correlation", "kernel", 30, 5)
      .add("0", "7", "minus_one", "kernel", 40, 5, -1)
      .add("0", "7", "orphan", "kernel", 50, 5, 77)
      .add("0", "7", "orphan2", "kernel", 60, 5, 78);
  Trace t = f.finish();
  ProblemLog problems;
  auto index = LaunchIndex::build(t, &problems);
  EXPECT_EQ(index.launches().size(), 5u);  // kept, not dropped
  EXPECT_EQ(index.linkedCount(), 1u);
  EXPECT_EQ(index.runtimeCallOf(eventNamed(t, "orphan")), kNoEvent);
  EXPECT_EQ(index.launcherOf(eventNamed(t, "launched_bare")), kNoEvent);
  EXPECT_EQ(problems.count("device op without a correlation id"), 2u);
  EXPECT_EQ(problems.count("device op whose correlation id matches no runtime call"), 2u);
  EXPECT_EQ(problems.count("launch call enclosed by no framework op"), 1u);
}

TEST(LaunchIndex, IgnoresMisleadingExternalIds) {
  // As in the 2023 real traces: the runtime call's External id is its own correlation id, which
  // is also the External id of an unrelated op on another thread.
  TraceFixture f;
  f.add("1", "10", "aten::mul", "cpu_op", 0, 100, kNoId, 300)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", 10, 5, 42, 42)
      .add("1", "11", "aten::unrelated", "cpu_op", 0, 100, kNoId, 42)
      .add("0", "7", "mul_kernel", "kernel", 20, 5, 42, 42);
  Trace t = f.finish();
  auto index = LaunchIndex::build(t);
  EXPECT_EQ(index.launcherOf(eventNamed(t, "mul_kernel")), eventNamed(t, "aten::mul"));
}

TEST(LaunchIndex, FlowStandsInForAMissingCorrelation) {
  TraceFixture f;
  f.add("1", "10", "aten::mul", "cpu_op", 0, 100)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", 10, 5)
      .add("0", "7", "mul_kernel", "kernel", 20, 5)
      .flow(3, "1", "10", 10, "0", "7", 20);
  Trace t = f.finish();
  auto index = LaunchIndex::build(t);
  EXPECT_EQ(index.runtimeCallOf(eventNamed(t, "mul_kernel")), eventNamed(t, "cudaLaunchKernel"));
}

TEST(LaunchIndex, FindsRuntimeCallsByCorrelation) {
  TraceFixture f;
  f.add("1", "10", "cudaEventRecord", "cuda_runtime", 10, 5, 8)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", 20, 5, 9);
  Trace t = f.finish();
  auto index = LaunchIndex::build(t);
  EXPECT_EQ(index.runtimeCallByCorrelation(8), eventNamed(t, "cudaEventRecord"));
  EXPECT_EQ(index.runtimeCallByCorrelation(10), kNoEvent);
  EXPECT_TRUE(index.launches().empty());
}

}  // namespace
}  // namespace sutra
