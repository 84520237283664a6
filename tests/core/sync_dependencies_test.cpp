// SPDX-License-Identifier: MIT
#include "link/sync_dependencies.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "trace_fixture.h"

namespace sutra {
namespace {

using test::eventNamed;
using test::TraceFixture;

// (kind, waiter name, waited-on name), in the order findSyncDependencies returns them.
using Edge = std::tuple<SyncKind, std::string, std::string>;

std::vector<Edge> edges(const Trace& t, const std::vector<SyncDependency>& deps) {
  std::vector<Edge> out;
  for (const auto& d : deps)
    out.emplace_back(d.kind, std::string(t.name(t.events[d.waiter])),
                     std::string(t.name(t.events[d.waitedOn])));
  return out;
}

TEST(SyncDependencies, FromCudaSyncEvents) {
  TraceFixture f;
  f.add("1", "10", "aten::step", "cpu_op", 0, 1000)
      .add("1", "10", "launch_k1", "cuda_runtime", 10, 5, 1)
      .add("1", "10", "launch_k2", "cuda_runtime", 20, 5, 2)
      .add("1", "10", "cudaEventRecord", "cuda_runtime", 30, 2, 3)
      .add("1", "10", "launch_k3", "cuda_runtime", 40, 5, 4)
      .add("1", "10", "cudaStreamWaitEvent", "cuda_runtime", 50, 2, 5)
      .add("1", "10", "launch_k4", "cuda_runtime", 60, 5, 6)
      .add("1", "10", "cudaStreamSynchronize", "cuda_runtime", 70, 200, 7)
      .add("1", "10", "cudaEventSynchronize", "cuda_runtime", 300, 5, 8)
      .add("1", "10", "cudaDeviceSynchronize", "cuda_runtime", 310, 5, 9)
      .add("0", "7", "k1", "kernel", 100, 50, 1)
      .add("0", "8", "k2", "kernel", 100, 80, 2)
      .add("0", "7", "k3", "kernel", 160, 10, 4)
      .add("0", "8", "k4", "kernel", 190, 10, 6)
      .add(
          "0", "8", "Stream Wait Event", "cuda_sync", 51, 1, 5, 5,
          R"({"stream": 8, "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": 3, "correlation": 5, "device": 0})")
      .add("0", "7", "Stream Sync", "cuda_sync", 71, 198, 7, 7,
           R"({"stream": 7, "correlation": 7, "device": 0})")
      .add(
          "0", "-1", "Event Sync", "cuda_sync", 301, 3, 8, 8,
          R"({"stream": -1, "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": 3, "correlation": 8, "device": 0})")
      .add("0", "-1", "Context Sync", "cuda_sync", 311, 3, 9, 9,
           R"({"stream": -1, "correlation": 9, "device": 0})");
  Trace t = f.finish();
  auto index = LaunchIndex::build(t);
  ProblemLog problems;
  auto deps = findSyncDependencies(t, index, &problems);
  // Sorted by waiter event id: host lane (1,10) events come first, in time order, then devices.
  const std::vector<Edge> expected = {
      {SyncKind::StreamSync, "cudaStreamSynchronize", "k3"},
      {SyncKind::EventSync, "cudaEventSynchronize", "k1"},
      {SyncKind::ContextSync, "cudaDeviceSynchronize", "k3"},
      {SyncKind::ContextSync, "cudaDeviceSynchronize", "k4"},
      {SyncKind::StreamWaitEvent, "k4", "k1"},
  };
  EXPECT_EQ(edges(t, deps), expected);
  EXPECT_TRUE(problems.empty());
  EXPECT_EQ(deps.back().syncEvent, eventNamed(t, "Stream Wait Event"));
}

TEST(SyncDependencies, UnresolvableSyncEventsAreCounted) {
  TraceFixture f;
  f.add("1", "10", "cudaEventSynchronize", "cuda_runtime", 300, 5, 8)
      .add("0", "-1", "Event Sync", "cuda_sync", 301, 3, 8, 8,
           R"({"wait_on_stream": -1, "wait_on_cuda_event_record_corr_id": -1, "device": 0})")
      .add("0", "-1", "Context Sync", "cuda_sync", 311, 3, 99, 99, R"({"device": 0})");
  Trace t = f.finish();
  auto index = LaunchIndex::build(t);
  ProblemLog problems;
  EXPECT_TRUE(findSyncDependencies(t, index, &problems).empty());
  EXPECT_EQ(problems.count("event wait on an event with no recorded cudaEventRecord"), 1u);
  EXPECT_EQ(problems.count("cuda_sync event with no runtime call of its correlation id"), 1u);
}

TEST(SyncDependencies, BlockingCallsWithoutSyncEvents) {
  TraceFixture f;
  f.add("1", "10", "cudaLaunchKernel", "cuda_runtime", 10, 5, 1)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", 20, 5, 2)
      .add("1", "10", "cudaStreamSynchronize", "cuda_runtime", 30, 100, 3)
      .add("1", "10", "cudaMemcpy", "cuda_runtime", 200, 50, 4)
      .add("1", "10", "cudaEventRecord", "cuda_runtime", 260, 2, 5)
      .add("1", "10", "cudaEventQuery", "cuda_runtime", 265, 2, 6)
      .add("1", "10", "cudaEventSynchronize", "cuda_runtime", 270, 5, 7)
      .add("1", "10", "cudaDeviceSynchronize", "cuda_runtime", 300, 5, 8)
      .add("1", "10", "cudaMemcpyAsync", "cuda_runtime", 400, 5, 9)
      .add("0", "7", "k1", "kernel", 100, 50, 1)
      .add("0", "8", "k2", "kernel", 100, 20, 2)
      .add("0", "7", "memcpy", "gpu_memcpy", 210, 20, 4)
      .add("0", "7", "memcpy_async", "gpu_memcpy", 410, 20, 9);
  Trace t = f.finish();
  auto index = LaunchIndex::build(t);
  auto deps = findSyncDependencies(t, index);
  const std::vector<Edge> expected = {
      {SyncKind::BlockingCall, "cudaStreamSynchronize", "k2"},  // the stream last launched to
      {SyncKind::BlockingCall, "cudaMemcpy", "memcpy"},
      {SyncKind::BlockingCall, "cudaEventSynchronize", "memcpy"},
      {SyncKind::BlockingCall, "cudaDeviceSynchronize", "memcpy"},
      {SyncKind::BlockingCall, "cudaDeviceSynchronize", "k2"},
  };
  EXPECT_EQ(edges(t, deps), expected);
}

TEST(SyncDependencies, NoSyncNoEdges) {
  TraceFixture f;
  f.add("1", "10", "aten::mm", "cpu_op", 0, 100)
      .add("1", "10", "cudaLaunchKernel", "cuda_runtime", 10, 5, 1)
      .add("0", "7", "k1", "kernel", 100, 50, 1);
  Trace t = f.finish();
  EXPECT_TRUE(findSyncDependencies(t, LaunchIndex::build(t)).empty());
}

}  // namespace
}  // namespace sutra
