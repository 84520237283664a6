// SPDX-License-Identifier: MIT
#include "link/steps.h"

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

TEST(Steps, SpansBetweenRepeatsOfTheOutermostRepeatingAnnotationWithoutProfilerStep) {
  // Three iterations of train_iter, each with a forward and an Optimizer.step (which repeat too,
  // but inside train_iter): an iteration runs from one train_iter to the next, not over one
  // Optimizer.step alone.
  TraceBuilder b("opt.json");
  const LaneId host = b.lane("1", "1");
  const LaneId stream = b.lane("0", "7");
  for (TimeNs t : {0, 300, 600}) {
    test::addFixtureEvent(b, host, "train_iter", t, 290, "user_annotation");
    test::addFixtureEvent(b, host, "forward", t + 10, 90, "user_annotation");
    test::addFixtureEvent(b, host, "Optimizer.step#SGD.step", t + 200, 50, "user_annotation");
  }
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 210, 5, "cuda_runtime", 1);
  test::addFixtureEvent(b, stream, "k", 260, 140, "kernel", 1);  // runs into the next iteration
  const Trace trace = b.finish();
  const auto steps = findSteps(trace, LaunchIndex::build(trace));
  ASSERT_EQ(steps.size(), 2u);  // between three repeats
  EXPECT_EQ(steps[0].source, StepSource::RepeatingAnnotation);
  EXPECT_EQ(steps[0].name, "train_iter");
  EXPECT_EQ(steps[0].number, 0);
  EXPECT_EQ(steps[0].start, 0);
  EXPECT_EQ(steps[0].end, 300);
  EXPECT_EQ(steps[0].deviceEnd, 400);  // the kernel it launched
  EXPECT_EQ(steps[1].number, 1);
  EXPECT_EQ(steps[1].start, 300);
  EXPECT_EQ(steps[1].end, 600);
  EXPECT_EQ(steps[1].deviceEnd, 600);
  EXPECT_EQ(describeWindow(steps, {.step = 1}),
            "iteration 1: train_iter #1 to #2 (no ProfilerStep in the trace: the spans between "
            "repeats of its outermost repeating annotation)");
}

TEST(Steps, OneOptimizerStepIsNoIteration) {
  // Before: the one Optimizer.step instance (50 ns of a 400 ns trace) was taken as the step.
  TraceBuilder b("opt1.json");
  const LaneId host = b.lane("1", "1");
  test::addFixtureEvent(b, host, "aten::add", 0, 10, "cpu_op");
  test::addFixtureEvent(b, host, "Optimizer.step#SGD.step", 100, 50, "user_annotation");
  test::addFixtureEvent(b, host, "aten::mul", 390, 10, "cpu_op");
  const Trace trace = b.finish();
  const auto steps = findSteps(trace, LaunchIndex::build(trace));
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].source, StepSource::WholeTrace);
  EXPECT_EQ(steps[0].start, 0);
  EXPECT_EQ(steps[0].end, 400);
  EXPECT_EQ(describeWindow(steps, {.step = 0}),
            "the whole trace (no ProfilerStep and no repeating annotation)");
}

TEST(Steps, ProfilerStepRecordedAsAnOpIsAStep) {
  // PyTorch <= 1.12 writes ProfilerStep#N as an "Operator"; later versions as a cpu_op too.
  TraceBuilder b("old.json");
  const LaneId host = b.lane("1", "1");
  test::addFixtureEvent(b, host, "ProfilerStep#7", 0, 100, "Operator");
  test::addFixtureEvent(b, host, "aten::add", 10, 10, "Operator");
  test::addFixtureEvent(b, host, "ProfilerStep#8", 100, 100, "cpu_op");
  const Trace trace = b.finish();
  const auto steps = findSteps(trace, LaunchIndex::build(trace));
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].number, 7);
  EXPECT_EQ(steps[0].source, StepSource::ProfilerStep);
  EXPECT_EQ(steps[1].number, 8);
  EXPECT_EQ(describeWindow(steps, {.step = 8}), "step 8");
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
