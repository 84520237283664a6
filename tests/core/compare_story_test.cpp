// SPDX-License-Identifier: MIT
// The story of a comparison (core/analysis/compare_story): its totals against independent counts
// and its sentences, on a trace built here and on the bundled naive and fused RMSNorm samples.
#include "analysis/compare_story.h"

#include <gtest/gtest.h>

#include "analysis_fixture.h"
#include "session/run.h"

namespace sutra {
namespace {

// Host ops at [0, 10) and [5, 20) and [40, 50) on two threads, an annotation over everything (no
// work of its own), two kernels and a memcpy: busy 20 + 10 of the window [0, 100): idle 70.
TEST(CompareStory, RunTotalsCountKernelsDeviceOpsAndHostIdle) {
  TraceBuilder b("t");
  const LaneId main = b.lane("1", "1"), other = b.lane("1", "2"), stream = b.lane("0", "7");
  test::addFixtureEvent(b, main, "ProfilerStep#1", 0, 100, "user_annotation");
  test::addFixtureEvent(b, main, "aten::mm", 0, 10, "cpu_op");
  test::addFixtureEvent(b, other, "aten::add", 5, 15, "cpu_op");
  test::addFixtureEvent(b, main, "aten::mul", 40, 10, "cpu_op");
  test::addFixtureEvent(b, stream, "gemm", 12, 30, "kernel");
  test::addFixtureEvent(b, stream, "add", 45, 5, "kernel");
  test::addFixtureEvent(b, stream, "copy", 60, 5, "gpu_memcpy");
  const Trace trace = b.finish();
  const RunTotals t = runTotals(trace, {0, 100}, 35, 40);
  EXPECT_EQ(t.window, 100);
  EXPECT_EQ(t.kernels, 2u);
  EXPECT_EQ(t.deviceOps, 3u);
  EXPECT_EQ(t.hostIdle, 70);
  EXPECT_EQ(t.selfCpu, 35);
  EXPECT_EQ(t.selfDevice, 40);
  // A window that leaves the first ops out: [30, 100) holds aten::mul only.
  EXPECT_EQ(runTotals(trace, {30, 100}, 0, 0).hostIdle, 60);
}

// The bundled naive RMSNorm (aten::mul, mean, add, rsqrt: five kernels a step, three steps)
// against torch.rms_norm (one fused kernel a step). Kernel totals from the files: 15 kernels of
// 241.751 us, and 3 of 77.052 us (python3 over rank0.kineto.json.gz, cat == "kernel").
TEST(CompareStory, NaiveAgainstFusedRmsNorm) {
  const std::string root = std::string(SUTRA_SOURCE_DIR) + "/tests/data/synthetic_samples/";
  auto naive = openTrace(root + "rmsnorm_naive", RunOptions::upTo(RunStage::Analyse));
  auto fused = openTrace(root + "rmsnorm_fused", RunOptions::upTo(RunStage::Analyse));
  ASSERT_TRUE(naive.ok() && fused.ok());
  const OpComparison c =
      compareOpTables(*(*naive)->opTable(), *(*fused)->opTable(), "rmsnorm_naive", "rmsnorm_fused");
  const ComparisonStory story = tellComparison(c, *(*naive)->trace, *(*fused)->trace,
                                               (*naive)->steps().size(), (*fused)->steps().size());
  EXPECT_EQ(story.a.kernels, 15u);
  EXPECT_EQ(story.b.kernels, 3u);
  EXPECT_EQ(story.a.selfDevice, 241'751);
  EXPECT_EQ(story.b.selfDevice, 77'052);
  EXPECT_EQ(story.headline.rfind("B (rmsnorm_fused) against A (rmsnorm_naive): 3.14x less CUDA "
                                 "time (241.8 us -> 77.05 us), 5 kernels -> 1 per step, ",
                                 0),
            0u)
      << story.headline;
  EXPECT_EQ(story.replaced,
            "4 ops only in A (aten::mul, aten::mean, aten::add, aten::rsqrt; 5 device ops) "
            "replaced by 1 op only in B (aten::rms_norm; 1 device op)");
  // aten::_fused_rms_norm, which rms_norm calls, is counted in it, not named beside it.
  // Without steps to divide by, the kernels are the windows' own.
  EXPECT_NE(tellComparison(c, *(*naive)->trace, *(*fused)->trace).headline.find("15 kernels -> 3"),
            std::string::npos);
}

}  // namespace
}  // namespace sutra
