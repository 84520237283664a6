// SPDX-License-Identifier: MIT
// Chart data over tests/data/charts/two_streams.json (hand-made; expected values worked out by
// hand in the comments). No Qt: tests/widgets/chart_view_test.cpp draws it.
#include "view/chart_data.h"

#include <gtest/gtest.h>

#include "io/readers.h"
#include "link/launch_index.h"
#include "test_support.h"

namespace sutra::view {
namespace {

Trace twoStreams() {
  auto trace = readKinetoTrace(test::fixture("charts/two_streams.json"));
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().message);
  return std::move(trace).value();
}

TEST(ChartData, UtilisationIsTheUnionOfDeviceOpsPerBucket) {
  const Trace trace = twoStreams();
  // Extent 0..600 us in 6 buckets of 100 us. Stream 7: gemm [100,300) and [250,350) overlap, so
  // busy [100,350): 0, 1, 1, 0.5, 0, 0. Stream 8: relu [400,408), memcpy [500,600).
  const UtilisationSeries u = deviceUtilisation(trace, 6);
  EXPECT_EQ(u.start, 0);
  EXPECT_EQ(u.bucketNs, 100'000);
  ASSERT_EQ(u.streams.size(), 2u);
  EXPECT_EQ(u.streams[0].label, "stream 7 (device 0)");
  EXPECT_EQ(u.streams[0].busy, (std::vector<double>{0, 1, 1, 0.5, 0, 0}));
  EXPECT_EQ(u.streams[1].label, "stream 8 (device 0)");
  EXPECT_EQ(u.streams[1].busy, (std::vector<double>{0, 0, 0, 0, 0.08, 1}));
}

TEST(ChartData, KernelHistogramInPowerOfTwoBins) {
  const Trace trace = twoStreams();
  // Kernels of 200 us (2^17 <= 200000 < 2^18), 100 us (2^16..) and 8 us (2^12..); the copy is
  // no kernel.
  const DurationHistogram h = kernelDurationHistogram(trace);
  EXPECT_EQ(h.firstPower, 12);
  EXPECT_EQ(h.counts, (std::vector<std::uint64_t>{1, 0, 0, 0, 1, 1}));
}

TEST(ChartData, TopOperatorsByDeviceTime) {
  const Trace trace = twoStreams();
  const LaunchIndex launches = LaunchIndex::build(trace);
  OpTableOptions options;
  options.window = wholeTraceWindow(trace);
  const auto top = topOperatorsByDeviceTime(buildOpTable(trace, launches, options), 2);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[0].name, "gemm");
  EXPECT_EQ(top[0].value, 300'000);
  EXPECT_EQ(top[1].name, "Memcpy HtoD (Pageable -> Device)");
  EXPECT_EQ(top[1].value, 100'000);
}

}  // namespace
}  // namespace sutra::view
