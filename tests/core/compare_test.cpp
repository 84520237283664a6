// SPDX-License-Identifier: MIT
#include "analysis/compare.h"

#include <gtest/gtest.h>

#include "analysis_fixture.h"
#include "link/launch_index.h"

namespace sutra {
namespace {

TEST(Compare, DescribesChangesAsRatios) {
  EXPECT_EQ(describeChange(2'355'000, 403'300), "5.84x less");
  EXPECT_EQ(describeChange(100, 120), "1.20x more");
  EXPECT_EQ(describeChange(5, 5), "same");
  EXPECT_EQ(describeChange(0, 5), "new");
  EXPECT_EQ(describeChange(5, 0), "gone");
  EXPECT_EQ(totalLine("Self CUDA total", 2'355'000, 403'300),
            "Self CUDA total: 2.355 ms -> 403.3 us (5.84x less)");
}

TEST(Compare, TwoStepsOfOneTrace) {
  const Trace trace = test::twoStepFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const auto steps = findSteps(trace, launches);
  const OpTable a = buildOpTable(trace, launches, {stepWindow(steps[0]), false});
  const OpTable b = buildOpTable(trace, launches, {stepWindow(steps[1]), false});
  const OpComparison c = compareOpTables(a, b, "step 3", "step 4");
  EXPECT_EQ(c.selfCpuTotalA, 1000);
  EXPECT_EQ(c.selfCpuTotalB, 500);
  EXPECT_EQ(c.selfDeviceTotalA, 350);
  EXPECT_EQ(c.selfDeviceTotalB, 400);
  ASSERT_EQ(c.rows.size(), 10u);  // the Python frame "nn.Module: Linear" is a row, step 3's only
  EXPECT_EQ(c.onlyInA(), 6u);
  EXPECT_EQ(c.onlyInB(), 2u);
  // The step's self CPU grew by the 150 ns its Python frame held in step 3: ties at 150 go by name.
  const std::vector<std::string> order = {
      "aten::mul",         "mul_kernel",      "aten::addmm",   "gemm",
      "aten::add",         "add_kernel",      "ProfilerStep*", "aten::linear",
      "nn.Module: Linear", "cudaLaunchKernel"};
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(c.rows[i].name, order[i]) << i;
  const OpDelta& launch = c.rows[9];
  EXPECT_TRUE(launch.inA && launch.inB);
  EXPECT_EQ(launch.a.calls, 2u);
  EXPECT_EQ(launch.b.calls, 1u);
  EXPECT_EQ(launch.callsDelta(), -1);
  EXPECT_EQ(launch.selfCpuDelta(), -50);
  const OpDelta& step = c.rows[6];
  EXPECT_EQ(step.a.cpuTotal, 1000);
  EXPECT_EQ(step.b.cpuTotal, 500);
  EXPECT_EQ(step.deviceTotalDelta(), 50);

  const std::string text = comparisonText(c);
  EXPECT_NE(text.find("Self CPU total: 1.000 us -> 500 ns (2.00x less)\n"), std::string::npos);
  EXPECT_NE(text.find("Self CUDA total: 350 ns -> 400 ns (1.14x more)\n"), std::string::npos);
  EXPECT_NE(text.find("Operators: 10 (6 only in A, 2 only in B)\n"), std::string::npos);
  const auto json = comparisonJson(c);
  EXPECT_EQ(json["a"]["self_device_total_ns"], 350);
  EXPECT_EQ(json["rows"][0]["side"], "b");
  EXPECT_EQ(json["rows"][0]["delta"]["self_device_ns"], 400);
  EXPECT_EQ(json["rows"][9]["delta"]["calls"], -1);
  const std::string csv = comparisonCsv(c, 1);
  EXPECT_EQ(csv.substr(csv.find('\n') + 1), "aten::mul,0,b,0,1,0,90,0,100,0,400,0,400\n");
}

}  // namespace
}  // namespace sutra
