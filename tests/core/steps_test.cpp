// SPDX-License-Identifier: MIT
#include "analysis/steps.h"

#include <gtest/gtest.h>

#include "analysis_fixture.h"
#include "link/launch_index.h"

namespace sutra {
namespace {

TEST(Steps, ProfilerStepsExtendToTheirLastDeviceOp) {
  const Trace trace = test::twoStepFixture();
  const auto steps = findSteps(trace, LaunchIndex::build(trace));
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].number, 3);
  EXPECT_EQ(steps[0].name, "ProfilerStep#3");
  EXPECT_EQ(steps[0].start, 0);
  EXPECT_EQ(steps[0].end, 1000);
  EXPECT_EQ(steps[0].deviceEnd, 1000);  // its kernels end at 560 and 850
  EXPECT_EQ(steps[1].number, 4);
  EXPECT_EQ(steps[1].end, 1500);
  EXPECT_EQ(steps[1].deviceEnd, 1700);  // mul_kernel, launched at 1110, ends at 1700
  EXPECT_EQ(steps[1].duration(), 700);
}

TEST(Steps, OptimizerStepInstancesWhenThereIsNoProfilerStep) {
  TraceBuilder b("opt.json");
  const LaneId host = b.lane("1", "1");
  const LaneId stream = b.lane("0", "7");
  test::addFixtureEvent(b, host, "Optimizer.zero_grad#SGD.zero_grad", 0, 10, "user_annotation");
  test::addFixtureEvent(b, host, "Optimizer.step#SGD.step", 100, 50, "user_annotation");
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 110, 5, "cuda_runtime", 1);
  test::addFixtureEvent(b, host, "Optimizer.step#SGD.step", 300, 50, "user_annotation");
  test::addFixtureEvent(b, stream, "k", 200, 20, "kernel", 1);
  const Trace trace = b.finish();
  const auto steps = findSteps(trace, LaunchIndex::build(trace));
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].number, 0);
  EXPECT_EQ(steps[0].start, 100);
  EXPECT_EQ(steps[0].deviceEnd, 220);
  EXPECT_EQ(steps[1].number, 1);
  EXPECT_EQ(steps[1].start, 300);
  EXPECT_EQ(steps[1].deviceEnd, 350);
}

TEST(Steps, WholeTraceWhenThereIsNoIterationAnnotation) {
  TraceBuilder b("plain.json");
  const LaneId host = b.lane("1", "1");
  test::addFixtureEvent(b, host, "aten::add", 40, 10, "cpu_op");
  test::addFixtureEvent(b, host, "my_region", 60, 30, "user_annotation");
  const Trace trace = b.finish();
  const auto steps = findSteps(trace, LaunchIndex::build(trace));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].annotation, kNoEvent);
  EXPECT_EQ(steps[0].start, 40);
  EXPECT_EQ(steps[0].end, 90);
  EXPECT_TRUE(findSteps(Trace{}, LaunchIndex::build(Trace{})).empty());
}

TEST(Steps, ResolvesWindows) {
  const Trace trace = test::twoStepFixture();
  const auto steps = findSteps(trace, LaunchIndex::build(trace));
  auto whole = resolveWindow(trace, steps, {});
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->start, 0);
  EXPECT_EQ(whole->end, 1701);  // one past the last end
  auto four = resolveWindow(trace, steps, {.step = 4});
  ASSERT_TRUE(four.ok());
  EXPECT_EQ(four->start, 1000);
  EXPECT_EQ(four->end, 1500);
  auto range = resolveWindow(trace, steps, {.start = 100, .end = 200});
  ASSERT_TRUE(range.ok());
  EXPECT_EQ(range->length(), 100);
  auto missing = resolveWindow(trace, steps, {.step = 9});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message, "fixture.json: no step 9 (steps: 3, 4)");
  auto both = resolveWindow(trace, steps, {.step = 3, .start = 5});
  EXPECT_FALSE(both.ok());
  auto empty = resolveWindow(trace, steps, {.start = 50, .end = 50});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, "fixture.json: empty time range [50, 50) ns");
}

}  // namespace
}  // namespace sutra
