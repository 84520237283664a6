// SPDX-License-Identifier: MIT
#include "analysis/op_table.h"

#include <gtest/gtest.h>

#include "analysis/compare.h"
#include "analysis/op_table_format.h"
#include "analysis_fixture.h"
#include "link/launch_index.h"

namespace sutra {
namespace {

const OpRow* findRow(const OpTable& table, const std::string& name, bool onDevice = false,
                     const std::string& shapes = {}) {
  for (const auto& r : table.rows)
    if (r.name == name && r.onDevice == onDevice && (shapes.empty() || r.inputShapes == shapes))
      return &r;
  return nullptr;
}

struct Expected {
  std::uint64_t calls;
  TimeNs selfCpu, cpuTotal, selfDevice, deviceTotal;
};

void expectRow(const OpTable& table, const std::string& name, Expected e, bool onDevice = false) {
  const OpRow* r = findRow(table, name, onDevice);
  ASSERT_NE(r, nullptr) << name;
  EXPECT_EQ(r->calls, e.calls) << name;
  EXPECT_EQ(r->selfCpu, e.selfCpu) << name;
  EXPECT_EQ(r->cpuTotal, e.cpuTotal) << name;
  EXPECT_EQ(r->selfDevice, e.selfDevice) << name;
  EXPECT_EQ(r->deviceTotal, e.deviceTotal) << name;
}

class OpTableTest : public ::testing::Test {
 protected:
  Trace trace = test::twoStepFixture();
  LaunchIndex launches = LaunchIndex::build(trace);
  std::vector<Step> steps = findSteps(trace, launches);

  OpTable table(WindowSpec spec = {}, bool byShape = false) {
    auto window = resolveWindow(trace, steps, spec);
    EXPECT_TRUE(window.ok());
    return buildOpTable(trace, launches, {*window, byShape});
  }
};

TEST_F(OpTableTest, WholeTraceFollowsTorchSemantics) {
  const OpTable t = table();
  EXPECT_EQ(t.device, "CUDA");
  // The two steps share torch's wildcard row. Self = 1000 - 650 - 100 and 500 - 100.
  expectRow(t, "ProfilerStep*", {2, 650, 1500, 0, 750});
  // The Python frame between the step and aten::linear is a row and the child of the step, as in
  // torch 2.13's key_averages() of a with_stack=True run (tests/python/test_torch_oracle.py).
  expectRow(t, "nn.Module: Linear", {1, 150, 650, 0, 300});
  expectRow(t, "aten::linear", {1, 150, 500, 0, 300});
  // aten::is_leaf is filtered as torch does: its 10 ns stay in aten::addmm's self time.
  expectRow(t, "aten::addmm", {1, 300, 350, 300, 300});
  EXPECT_EQ(findRow(t, "aten::is_leaf"), nullptr);
  expectRow(t, "cudaLaunchKernel", {3, 70, 70, 0, 0});
  // aten::add in aten::add, its only child: one call (torch merges them), total counted once.
  expectRow(t, "aten::add", {1, 90, 100, 50, 50});
  expectRow(t, "aten::mul", {1, 90, 100, 400, 400});
  expectRow(t, "gemm", {1, 0, 0, 300, 300}, true);
  expectRow(t, "add_kernel", {1, 0, 0, 50, 50}, true);
  expectRow(t, "mul_kernel", {1, 0, 0, 400, 400}, true);
  EXPECT_EQ(t.rows.size(), 10u);
  // Self CPU sums to the top-level ops' durations; Self CUDA to the device ops'.
  EXPECT_EQ(t.selfCpuTotal, 1500);
  EXPECT_EQ(t.selfDeviceTotal, 750);
  double cpuShare = 0, deviceShare = 0;
  for (const auto& r : t.rows) {
    cpuShare += t.selfCpuPercent(r);
    if (r.onDevice) deviceShare += t.selfDevicePercent(r);
  }
  EXPECT_NEAR(cpuShare, 100.0, 1e-9);
  EXPECT_NEAR(deviceShare, 100.0, 1e-9);
}

TEST_F(OpTableTest, StepWindowKeepsWhatStartsOrIsLaunchedInIt) {
  const OpTable t = table({.step = 4});
  EXPECT_EQ(t.window.start, 1000);
  EXPECT_EQ(t.window.end, 1500);
  expectRow(t, "ProfilerStep*", {1, 400, 500, 0, 400});
  expectRow(t, "aten::mul", {1, 90, 100, 400, 400});
  expectRow(t, "cudaLaunchKernel", {1, 10, 10, 0, 0});
  expectRow(t, "mul_kernel", {1, 0, 0, 400, 400}, true);  // runs past the step's end
  EXPECT_EQ(t.rows.size(), 4u);
  EXPECT_EQ(t.selfCpuTotal, 500);
}

TEST_F(OpTableTest, RecursionInATimeRangeCountsTheInnerOpWhenItsParentIsOutside) {
  const OpTable t = table({.start = 705, .end = 900});
  expectRow(t, "aten::add", {1, 70, 80, 50, 50});
  expectRow(t, "add_kernel", {1, 0, 0, 50, 50}, true);
}

TEST_F(OpTableTest, GroupsByInputShapes) {
  const OpTable t = table({}, true);
  const OpRow* addmm = findRow(t, "aten::addmm");
  ASSERT_NE(addmm, nullptr);
  EXPECT_EQ(addmm->inputShapes, "[[2, 3], [3, 4]]");
  const OpRow* mul = findRow(t, "aten::mul");
  ASSERT_NE(mul, nullptr);
  EXPECT_EQ(mul->inputShapes, "[[2], []]");
  EXPECT_EQ(findRow(t, "aten::linear")->inputShapes, "[]");
  EXPECT_EQ(t.rows.size(), 10u);
  EXPECT_EQ(t.selfCpuTotal, 1500);
}

TEST_F(OpTableTest, SortsAndPrintsAsTorch) {
  OpTable t = table();
  sortOpRows(t.rows, OpSort::SelfDevice);
  EXPECT_EQ(t.rows[0].name, "aten::mul");  // 400, before mul_kernel (same time, name order)
  EXPECT_EQ(t.rows[1].name, "mul_kernel");
  sortOpRows(t.rows, OpSort::Calls);
  EXPECT_EQ(t.rows[0].name, "cudaLaunchKernel");
  EXPECT_EQ(parseOpSort("cpu_total"), OpSort::CpuTotal);
  EXPECT_FALSE(parseOpSort("cuda").has_value());

  sortOpRows(t.rows, OpSort::CpuTotal);
  const std::string text = opTableText(t, 2);
  const std::string sep = std::string(21, '-') + "  " + [] {
    std::string s;
    for (int i = 0; i < 10; ++i) s += std::string(12, '-') + "  ";
    return s;
  }() + "\n";
  const std::string expected =
      sep +
      "                 Name    Self CPU %      Self CPU   CPU total %     CPU total  CPU time avg "
      "    Self CUDA   Self CUDA %    CUDA total  CUDA time avg    # of Calls  \n" +
      sep +
      "        ProfilerStep*        43.33%       0.650us       100.00%       1.500us       0.750us "
      "      0.000us         0.00%       0.750us       0.375us             2  \n"
      "    nn.Module: Linear        10.00%       0.150us        43.33%       0.650us       0.650us "
      "      0.000us         0.00%       0.300us       0.300us             1  \n" +
      sep + "Self CPU time total: 1.500us\nSelf CUDA time total: 0.750us\n";
  EXPECT_EQ(text, expected);
}

TEST(OpTableFormat, TimesAndSharesAsTorchWritesThem) {
  EXPECT_EQ(formatTorchTime(403'300), "403.300us");
  EXPECT_EQ(formatTorchTime(2'355'000), "2.355ms");
  EXPECT_EQ(formatTorchTime(1'500'000'000), "1.500s");
  EXPECT_EQ(formatTorchShare(1, 3), "33.33%");
  EXPECT_EQ(formatTorchShare(0, 0), "NaN");
  EXPECT_EQ(formatInputShapes(""), "[]");
  EXPECT_EQ(formatInputShapes("[[1,2],[], [3]]"), "[[1, 2], [], [3]]");
}

TEST(OpTableFormat, JsonAndCsv) {
  const Trace trace = test::twoStepFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  OpTable t = buildOpTable(trace, launches, {{1000, 1500}, true});
  sortOpRows(t.rows, OpSort::Name);
  const auto json = opTableJson(t);
  EXPECT_EQ(json["device"], "CUDA");
  EXPECT_EQ(json["window"]["start_ns"], 1000);
  EXPECT_EQ(json["window"]["end_ns"], 1500);
  ASSERT_EQ(json["rows"].size(), 4u);
  EXPECT_EQ(json["rows"][0]["name"], "ProfilerStep*");
  EXPECT_EQ(json["rows"][1]["name"], "aten::mul");
  EXPECT_EQ(json["rows"][1]["input_shapes"], "[[2], []]");
  EXPECT_EQ(json["rows"][1]["self_cpu_ns"], 90);
  EXPECT_EQ(json["rows"][1]["device_total_ns"], 400);
  EXPECT_EQ(opTableCsv(t, 2),
            "name,input_shapes,on_device,calls,self_cpu_ns,cpu_total_ns,self_device_ns,"
            "device_total_ns\n"
            "ProfilerStep*,[],0,1,400,500,0,400\n"
            "aten::mul,\"[[2], []]\",0,1,90,100,400,400\n");
}

// aten::mm [0,100) holds aten::mm [10,50) and a launch: not its only child, so torch keeps both
// and counts the inner one's time again in the totals.
Trace nestedMmTrace() {
  TraceBuilder b("nested.json");
  const LaneId host = b.lane("1", "1");
  const LaneId stream = b.lane("0", "7");
  test::addFixtureEvent(b, host, "aten::mm", 0, 100, "cpu_op");
  test::addFixtureEvent(b, host, "aten::mm", 10, 40, "cpu_op");
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 20, 5, "cuda_runtime", 1);
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 60, 5, "cuda_runtime", 2);
  test::addFixtureEvent(b, stream, "k1", 30, 20, "kernel", 1);
  test::addFixtureEvent(b, stream, "k2", 70, 10, "kernel", 2);
  return b.finish();
}

TEST(OpTable, ANestedOpOfTheSameNameCountsTwiceInTheTotalsAsInTorch) {
  const Trace trace = nestedMmTrace();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const OpTable torch = buildOpTable(trace, launches, {wholeTraceWindow(trace)});
  // Self: (100 - 40 - 5) + (40 - 5); totals 100 + 40 and (10 + 20) + 20, as key_averages() sums.
  expectRow(torch, "aten::mm", {2, 90, 140, 30, 50});
  EXPECT_FALSE(torch.recursionCountedOnce);
  const OpTable once = buildOpTable(trace, launches, {wholeTraceWindow(trace), false, true});
  expectRow(once, "aten::mm", {2, 90, 100, 30, 30});
  EXPECT_TRUE(once.recursionCountedOnce);
  EXPECT_NE(opTableText(once).find("Totals count an op nested in an op of its own name once"),
            std::string::npos);
  EXPECT_EQ(opTableJson(once)["recursion_counted_once"], true);
  // The only-child merge (twoStepFixture's aten::add) is the same either way.
  const Trace two = test::twoStepFixture();
  const LaunchIndex twoLaunches = LaunchIndex::build(two);
  for (bool countOnce : {false, true})
    expectRow(buildOpTable(two, twoLaunches, {wholeTraceWindow(two), false, countOnce}),
              "aten::add", {1, 90, 100, 50, 50});
}

// Two steps; k0 was launched before the trace (no call in it) and runs in step 1; k1, launched in
// step 1, runs into step 2.
Trace launchedBeforeTrace() {
  TraceBuilder b("before.json");
  const LaneId host = b.lane("1", "1");
  const LaneId stream = b.lane("0", "7");
  test::addFixtureEvent(b, host, "ProfilerStep#1", 0, 100, "user_annotation");
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 10, 5, "cuda_runtime", 1);
  test::addFixtureEvent(b, host, "ProfilerStep#2", 100, 100, "user_annotation");
  test::addFixtureEvent(b, host, "cudaLaunchKernel", 110, 5, "cuda_runtime", 2);
  test::addFixtureEvent(b, stream, "k0", 5, 50, "kernel", 99);
  test::addFixtureEvent(b, stream, "k1", 60, 60, "kernel", 1);
  test::addFixtureEvent(b, stream, "k2", 130, 20, "kernel", 2);
  return b.finish();
}

TEST(OpTable, DeviceWorkBelongsToTheStepThatLaunchedIt) {
  const Trace trace = launchedBeforeTrace();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const auto steps = findSteps(trace, launches);
  auto tableOf = [&](WindowSpec spec) {
    auto window = resolveWindow(trace, steps, spec);
    EXPECT_TRUE(window.ok());
    return buildOpTable(trace, launches, {*window});
  };
  const OpTable one = tableOf({.step = 1});
  EXPECT_EQ(findRow(one, "k0", true), nullptr);  // launched before the trace: in no step
  expectRow(one, "k1", {1, 0, 0, 60, 60}, true);
  EXPECT_EQ(one.selfDeviceTotal, 60);
  EXPECT_EQ(one.launchedBefore.ops, 1u);
  EXPECT_EQ(one.launchedBefore.time, 50);
  EXPECT_FALSE(one.launchedBefore.inRows);
  EXPECT_NE(opTableText(one).find("Launched before the trace (in no step, not in the rows): 1 "
                                  "device ops, 0.050us"),
            std::string::npos);
  EXPECT_EQ(opTableJson(one)["launched_before_trace"]["time_ns"], 50);
  const OpTable two = tableOf({.step = 2});
  EXPECT_EQ(findRow(two, "k1", true), nullptr);  // runs in step 2, launched in step 1
  expectRow(two, "k2", {1, 0, 0, 20, 20}, true);
  EXPECT_EQ(two.launchedBefore.ops, 0u);
  // A compare of the two steps says it apart; it inflates neither side.
  const std::string compared = comparisonText(compareOpTables(one, two, "step 1", "step 2"));
  EXPECT_NE(compared.find("Self CUDA total: 60 ns -> 20 ns (3.00x less)"), std::string::npos)
      << compared;
  EXPECT_NE(compared.find("Launched before the trace (in no step, not in the rows): A 1 device "
                          "ops, 50 ns; B 0 device ops, 0 ns"),
            std::string::npos)
      << compared;
  // The whole trace lists it, as torch does.
  const OpTable whole = tableOf({});
  expectRow(whole, "k0", {1, 0, 0, 50, 50}, true);
  EXPECT_TRUE(whole.launchedBefore.inRows);
  EXPECT_EQ(whole.selfDeviceTotal, 130);
}

}  // namespace
}  // namespace sutra
