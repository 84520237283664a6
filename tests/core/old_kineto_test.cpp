// SPDX-License-Identifier: MIT
// Traces of PyTorch <= 1.12: the categories Operator, Runtime, Kernel, Memcpy and Memset, and
// ProfilerStep#N recorded as an Operator. tests/data/analysis/old_categories_kineto.json is a
// small one of our own; ../shared/traces/kineto holds two real ones (PyTorch 1.8, 1.9).
#include <gtest/gtest.h>

#include <string>

#include "analysis/critical_path.h"
#include "analysis/op_table.h"
#include "analysis/trace_summary.h"
#include "io/readers.h"
#include "link/launch_index.h"
#include "link/steps.h"
#include "model/trace_builder.h"
#include "test_support.h"

namespace sutra {
namespace {

TEST(OldKinetoCategories, AreTheClassesOfTheirNewNames) {
  EXPECT_EQ(classifyCategory("Operator"), CategoryClass::CpuOp);
  EXPECT_EQ(classifyCategory("Runtime"), CategoryClass::Runtime);
  EXPECT_EQ(classifyCategory("Kernel"), CategoryClass::Kernel);
  EXPECT_EQ(classifyCategory("Memcpy"), CategoryClass::Memcpy);
  EXPECT_EQ(classifyCategory("Memset"), CategoryClass::Memset);
  EXPECT_TRUE(isKnownCategory("Operator"));
  EXPECT_FALSE(isKnownCategory("Operators"));
}

const OpRow* rowNamed(const OpTable& t, const std::string& name, bool onDevice = false) {
  for (const auto& r : t.rows)
    if (r.name == name && r.onDevice == onDevice) return &r;
  return nullptr;
}

TEST(OldKinetoCategories, FixtureIsAnalysedLikeANewTrace) {
  auto trace = readKinetoTrace(test::fixture("analysis/old_categories_kineto.json"));
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  const LaunchIndex launches = LaunchIndex::build(*trace);
  EXPECT_EQ(launches.linkedCount(), 4u);  // every device op has its Runtime launch
  std::size_t hosts = 0, streams = 0;
  for (const auto& lane : trace->lanes) {
    hosts += lane.kind == LaneKind::HostThread && lane.firstEvent != lane.endEvent;
    streams += lane.kind == LaneKind::DeviceStream;
  }
  EXPECT_EQ(hosts, 1u);
  EXPECT_EQ(streams, 1u);

  // ProfilerStep#N as an Operator is a step.
  const auto steps = findSteps(*trace, launches);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(steps[0].number, 1);
  EXPECT_EQ(steps[0].source, StepSource::ProfilerStep);
  EXPECT_EQ(steps[1].number, 2);

  // Before: 2 rows (Memcpy, Memset), Self CPU total 0 ("Self CPU % NaN").
  const OpTable t = buildOpTable(*trace, launches, {wholeTraceWindow(*trace)});
  EXPECT_EQ(t.rows.size(), 9u);
  EXPECT_EQ(t.selfCpuTotal, 200'000);  // the two steps' 100 us
  const OpRow* mm = rowNamed(t, "aten::mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->calls, 2u);
  EXPECT_EQ(mm->selfCpu, 60'000);
  EXPECT_EQ(mm->selfDevice, 100'000);
  ASSERT_NE(rowNamed(t, "ProfilerStep*"), nullptr);
  EXPECT_EQ(rowNamed(t, "ProfilerStep*")->calls, 2u);
  ASSERT_NE(rowNamed(t, "gemm", true), nullptr);
  EXPECT_EQ(rowNamed(t, "gemm", true)->calls, 2u);
  EXPECT_EQ(t.selfDeviceTotal, 107'000);

  // Before: no host ops, the path was all kernel-to-kernel gaps.
  const CriticalPath path = criticalPath(*trace, launches, {}, stepWindow(steps[0]));
  EXPECT_GT(path.breakdown.cpu, 0);
  EXPECT_GT(path.breakdown.deviceCompute, path.breakdown.kernelGap);

  // No category left unknown.
  for (const auto& p : summarizeTrace(*trace).problems)
    EXPECT_EQ(p.what.find("category Sutra does not know"), std::string::npos) << p.what;
}

TEST(OldKinetoCategories, UnknownCategoriesAreAProblemInTheSummary) {
  TraceBuilder b("odd.json");
  const LaneId host = b.lane("1", "1");
  Event e;
  e.name = b.trace().names.intern("mystery");
  e.category = static_cast<std::uint16_t>(b.trace().categories.intern("OperatorX"));
  e.klass = classifyCategory("OperatorX");
  e.lane = host;
  e.dur = 5;
  b.addEvent(e, {});
  const TraceSummary s = summarizeTrace(b.finish());
  ASSERT_EQ(s.problems.size(), 1u);
  EXPECT_EQ(s.problems[0].count, 1u);
  EXPECT_EQ(s.problems[0].example, "OperatorX (1)");
}

struct RealOld {
  std::string file;
  std::size_t steps;  // ProfilerStep#N in it
};

void checkRealOldTrace(const RealOld& want) {
  SCOPED_TRACE(want.file);
  auto trace = readKinetoTrace(test::sharedTrace("kineto/" + want.file));
  if (!trace.ok()) {
    // The 2020 file is a bare top-level array, which the reader is learning to accept.
    if (trace.error().message.find("array") != std::string::npos)
      GTEST_SKIP() << "the Kineto reader refuses a bare top-level array yet: "
                   << trace.error().message;
    FAIL() << trace.error().message;
  }
  const LaunchIndex launches = LaunchIndex::build(*trace);
  const auto steps = findSteps(*trace, launches);
  if (want.steps > 0) {
    ASSERT_EQ(steps.size(), want.steps);
    EXPECT_EQ(steps[0].source, StepSource::ProfilerStep);
  }
  const OpTable t = buildOpTable(*trace, launches, {wholeTraceWindow(*trace)});
  EXPECT_GT(t.rows.size(), 50u);  // was 2: Memcpy and Memset
  EXPECT_GT(t.selfCpuTotal, 0);   // was 0: "Self CPU % NaN"
  EXPECT_NE(rowNamed(t, "aten::conv2d"), nullptr);
  EXPECT_GT(launches.linkedCount(), 0u);
  std::size_t hosts = 0;
  for (const auto& lane : trace->lanes)
    hosts += lane.kind == LaneKind::HostThread && lane.firstEvent != lane.endEvent;
  EXPECT_GE(hosts, 1u);
  const CriticalPath path = criticalPath(*trace, launches, {}, stepWindow(steps.front()));
  EXPECT_LT(path.breakdown.kernelGap * 2, path.length);  // was 98.8 % kernel-to-kernel gap
  for (const auto& p : summarizeTrace(*trace).problems)
    EXPECT_EQ(p.what.find("category Sutra does not know"), std::string::npos) << p.what;
}

TEST(OldKinetoCategories, RealTraceOfPyTorch19) {
  SUTRA_REQUIRE_SHARED_TRACES();
  checkRealOldTrace({"resnet50_2021_autograd_api.pt.trace.json.gz", 0});
}

TEST(OldKinetoCategories, RealTraceOfPyTorch18WithProfilerSteps) {
  SUTRA_REQUIRE_SHARED_TRACES();
  checkRealOldTrace({"resnet50_2020_top_level_array.pt.trace.json.gz", 6});
}

}  // namespace
}  // namespace sutra
