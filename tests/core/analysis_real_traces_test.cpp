// SPDX-License-Identifier: MIT
// The analyses on the real traces in ../shared/traces, checked against numbers computed
// independently of Sutra's code: tests/data/analysis/*.json are written by
// tests/tools/op_table_expected.py (python3 op_table_expected.py TRACE [--step N] > FILE), which
// reads the Chrome-trace JSON itself and follows torch's profiler semantics.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "analysis/chain.h"
#include "analysis/compare.h"
#include "analysis/critical_path.h"
#include "analysis/op_table.h"
#include "io/readers.h"
#include "link/launch_index.h"
#include "link/linked_trace.h"
#include "link/sync_dependencies.h"
#include "test_support.h"

namespace sutra {
namespace {

struct Loaded {
  Trace trace;
  LaunchIndex launches;
  std::vector<Step> steps;
};

Loaded load(const std::string& relative) {
  auto trace = readKinetoTrace(test::sharedTrace(relative));
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().message);
  Loaded out{std::move(trace).value(), {}, {}};
  out.launches = LaunchIndex::build(out.trace);
  out.steps = findSteps(out.trace, out.launches);
  return out;
}

nlohmann::json expected(const std::string& name) {
  std::ifstream in(test::fixture("analysis/" + name));
  EXPECT_TRUE(in.good()) << name;
  return nlohmann::json::parse(in);
}

OpTable tableOf(const Loaded& l, std::optional<std::int64_t> step) {
  auto window = resolveWindow(l.trace, l.steps, {.step = step});
  EXPECT_TRUE(window.ok());
  return buildOpTable(l.trace, l.launches, {*window, false});
}

void expectTableMatches(const std::string& trace, const std::string& file,
                        std::optional<std::int64_t> step = std::nullopt) {
  SCOPED_TRACE(trace);
  const Loaded l = load(trace);
  const OpTable t = tableOf(l, step);
  const auto want = expected(file);
  std::map<std::pair<std::string, bool>, const OpRow*> rows;
  for (const auto& r : t.rows) rows[{r.name, r.onDevice}] = &r;
  ASSERT_EQ(t.rows.size(), want["rows"].size());
  for (const auto& w : want["rows"]) {
    auto it = rows.find({w["name"].get<std::string>(), w["on_device"].get<bool>()});
    ASSERT_NE(it, rows.end()) << w["name"];
    const OpRow& r = *it->second;
    EXPECT_EQ(r.calls, w["calls"].get<std::uint64_t>()) << r.name;
    EXPECT_EQ(r.selfCpu, w["self_cpu_ns"].get<TimeNs>()) << r.name;
    EXPECT_EQ(r.cpuTotal, w["cpu_total_ns"].get<TimeNs>()) << r.name;
    EXPECT_EQ(r.selfDevice, w["self_device_ns"].get<TimeNs>()) << r.name;
    EXPECT_EQ(r.deviceTotal, w["device_total_ns"].get<TimeNs>()) << r.name;
  }
  EXPECT_EQ(t.selfCpuTotal, want["self_cpu_total_ns"].get<TimeNs>());
  EXPECT_EQ(t.selfDeviceTotal, want["self_device_total_ns"].get<TimeNs>());
  // The parts add up: shares of Self CPU over all rows, of Self <DEV> over the device rows.
  double cpu = 0, device = 0;
  TimeNs deviceRows = 0;
  for (const auto& r : t.rows) {
    cpu += t.selfCpuPercent(r);
    if (r.onDevice) {
      device += t.selfDevicePercent(r);
      deviceRows += r.selfDevice;
    }
  }
  EXPECT_NEAR(cpu, 100.0, 1e-6);
  if (t.selfDeviceTotal > 0) {
    EXPECT_NEAR(device, 100.0, 1e-6);
  }
  EXPECT_EQ(deviceRows, t.selfDeviceTotal);
}

TEST(AnalysisRealTraces, OpTablesMatchAnIndependentComputation) {
  SUTRA_REQUIRE_SHARED_TRACES();
  expectTableMatches("param/linear_kineto.json.gz", "linear_kineto.table.json");
  expectTableMatches("hta/critical_path/alexnet.json.gz", "alexnet.table.json");
  expectTableMatches("hta/critical_path/cuda_event_sync.json.gz", "cuda_event_sync.table.json");
  expectTableMatches("hta/amd/mi250_minitoy_train_rocm6.2.json.gz", "mi250.table.json");
  expectTableMatches("hta/mtia/mtia_inference_rank_0.json.gz", "mtia.table.json");
  expectTableMatches("hta/triton/triton_example.json.gz", "triton.table.json");
  expectTableMatches("hta/trace_compare/base.json.gz", "trace_compare_base.step1009.json", 1009);
  expectTableMatches("hta/trace_compare/test.json.gz", "trace_compare_test.step1009.json", 1009);
}

TEST(AnalysisRealTraces, CorrectedCountOfNestedOpsMatchesItsOwnComputation) {
  SUTRA_REQUIRE_SHARED_TRACES();
  // alexnet's warmup/measure forward annotations nest in annotations of their own name: torch
  // counts their totals twice (alexnet.table.json), the corrected count once
  // (alexnet.once.table.json, op_table_expected.py --count-recursion-once).
  const Loaded l = load("hta/critical_path/alexnet.json.gz");
  const auto want = expected("alexnet.once.table.json");
  const OpTable t = buildOpTable(l.trace, l.launches, {wholeTraceWindow(l.trace), false, true});
  std::map<std::pair<std::string, bool>, const OpRow*> rows;
  for (const auto& r : t.rows) rows[{r.name, r.onDevice}] = &r;
  ASSERT_EQ(t.rows.size(), want["rows"].size());
  for (const auto& w : want["rows"]) {
    auto it = rows.find({w["name"].get<std::string>(), w["on_device"].get<bool>()});
    ASSERT_NE(it, rows.end()) << w["name"];
    EXPECT_EQ(it->second->cpuTotal, w["cpu_total_ns"].get<TimeNs>()) << it->first.first;
    EXPECT_EQ(it->second->deviceTotal, w["device_total_ns"].get<TimeNs>()) << it->first.first;
  }
  const OpTable torch = tableOf(l, std::nullopt);
  const OpRow* measured = nullptr;
  for (const auto& r : torch.rows)
    if (r.name == "[param|pytorch.model.alex_net|0|0|0|warmup|forward]") measured = &r;
  ASSERT_NE(measured, nullptr);
  EXPECT_EQ(measured->cpuTotal, 25'500'733'000);
  EXPECT_EQ(rows.at({measured->name, false})->cpuTotal, 12'757'093'000);
}

TEST(AnalysisRealTraces, TopOperatorsOfTheLinearTrace) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const Loaded l = load("param/linear_kineto.json.gz");
  OpTable t = tableOf(l, std::nullopt);
  EXPECT_EQ(t.device, "CUDA");
  sortOpRows(t.rows, OpSort::SelfDevice);
  // From op_table_expected.py: aten::mm launches 47.43% of the device time.
  EXPECT_EQ(t.rows[0].name, "aten::mm");
  EXPECT_EQ(t.rows[0].calls, 1640u);
  EXPECT_EQ(t.rows[0].selfDevice, 175'954'000);
  EXPECT_EQ(t.rows[1].name, "aten::addmm");
  EXPECT_EQ(t.rows[1].cpuTotal, 1'111'896'000);
  // No ProfilerStep: the iterations run between the 40 Optimizer.zero_grad instances (the
  // outermost repeating annotation that starts first), not over one Optimizer.step (0.7 ms).
  ASSERT_EQ(l.steps.size(), 39u);
  EXPECT_EQ(l.steps[0].name, "Optimizer.zero_grad#SGD.zero_grad");
  EXPECT_EQ(l.steps[0].source, StepSource::RepeatingAnnotation);
  EXPECT_EQ(l.steps[0].start, 1'689'180'448'559'574'000);
  EXPECT_EQ(l.steps[0].end, 1'689'180'448'585'360'000);  // the second zero_grad
}

TEST(AnalysisRealTraces, MtiaColumnsAreNamedAfterTheBackend) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const Loaded l = load("hta/mtia/mtia_inference_rank_0.json.gz");
  EXPECT_EQ(tableOf(l, std::nullopt).device, "MTIA");
}

TEST(AnalysisRealTraces, CompareTheHtaPair) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const Loaded base = load("hta/trace_compare/base.json.gz");
  const Loaded test = load("hta/trace_compare/test.json.gz");
  const OpComparison c =
      compareOpTables(tableOf(base, std::nullopt), tableOf(test, std::nullopt), "base", "test");
  // Totals and rows from op_table_expected.py on each file.
  EXPECT_EQ(c.selfCpuTotalA, 223'188'000);
  EXPECT_EQ(c.selfCpuTotalB, 223'339'000);
  EXPECT_EQ(c.selfDeviceTotalA, 1'694'000);
  EXPECT_EQ(c.selfDeviceTotalB, 1'690'000);
  EXPECT_EQ(totalLine("Self CUDA total", c.selfDeviceTotalA, c.selfDeviceTotalB),
            "Self CUDA total: 1.694 ms -> 1.690 ms (1.00x less)");
  EXPECT_EQ(c.rows.size(), 18u);  // 15 in base, 18 in test, 15 shared
  EXPECT_EQ(c.onlyInA(), 0u);
  EXPECT_EQ(c.onlyInB(), 3u);
  auto find = [&](const std::string& name) -> const OpDelta& {
    for (const auto& d : c.rows)
      if (d.name == name) return d;
    ADD_FAILURE() << name;
    return c.rows.front();
  };
  EXPECT_EQ(find("nccl:all_reduce").callsDelta(), -1);
  EXPECT_EQ(find("nccl:all_reduce").selfCpuDelta(), 66'000 - 133'000);
  EXPECT_EQ(find("ProfilerStep*").selfCpuDelta(), 222'112'000 - 222'423'000);
  EXPECT_FALSE(find("AddmmBackward0").inA);
  EXPECT_EQ(find("AddmmBackward0").b.selfCpu, 207'000);
}

TEST(AnalysisRealTraces, CompareTwoStepsOfOneTrace) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const Loaded base = load("hta/trace_compare/base.json.gz");
  ASSERT_EQ(base.steps.size(), 2u);
  const OpComparison c =
      compareOpTables(tableOf(base, 1009), tableOf(base, 1010), "step 1009", "step 1010");
  // op_table_expected.py base.json.gz --step 1009 / --step 1010. The file keeps the launches of
  // only 2 of its 18 device ops: the other 16 (9 in step 1009) belong to no step (HTA gives them
  // iteration -1), where they were charged by their start before (727 us and 959 us).
  EXPECT_EQ(c.selfCpuTotalA, 100'364'000);
  EXPECT_EQ(c.selfCpuTotalB, 122'216'000);
  EXPECT_EQ(c.selfDeviceTotalA, 4'000);
  EXPECT_EQ(c.selfDeviceTotalB, 4'000);
  const OpTable a = tableOf(base, 1009);
  EXPECT_EQ(a.launchedBefore.ops, 9u);
  EXPECT_EQ(a.launchedBefore.time, 723'000);
  EXPECT_FALSE(a.launchedBefore.inRows);
}

TEST(AnalysisRealTraces, ChainOfTheCopyThatAStreamSyncWaitedOn) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const Loaded l = load("hta/critical_path/cuda_event_sync.json.gz");
  const auto syncs = findSyncDependencies(l.trace, l.launches);
  const EventId copy = findEventByName(l.trace, "Memcpy DtoH (Device -> Pageable)");
  ASSERT_NE(copy, kNoEvent);
  const DependencyChain chain = dependencyChain(l.trace, l.launches, syncs, copy);
  // Read off the trace: aten::_local_scalar_dense at 512249 us, cudaMemcpyAsync at 512252 (29 us),
  // the copy at 512270 (2 us), cudaStreamSynchronize at 512282 (6 us), its Stream Sync on stream 7.
  const std::vector<std::string> names = {
      "ProfilerStep#100",          "aten::is_nonzero", "aten::item",
      "aten::_local_scalar_dense", "cudaMemcpyAsync",  "Memcpy DtoH (Device -> Pageable)",
      "cudaStreamSynchronize"};
  ASSERT_EQ(chain.hops.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(chain.hops[i].name, names[i]);
  EXPECT_EQ(chain.hops[4].gapKind, GapKind::DispatchToLaunch);
  EXPECT_EQ(chain.hops[4].gap, 3'000);
  EXPECT_EQ(chain.hops[5].gapKind, GapKind::LaunchToStart);
  EXPECT_EQ(chain.hops[5].gap, -11'000);  // the copy started before the call returned
  EXPECT_EQ(chain.hops[6].gapKind, GapKind::SyncWait);
  EXPECT_EQ(chain.hops[6].gap, 16'000);
  EXPECT_TRUE(chain.hops[5].focus);
}

TEST(AnalysisRealTraces, ChainWithTheEtDataDependencies) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto kineto = readKinetoTrace(test::sharedTrace("param/linear_kineto.json.gz"));
  auto et = readPytorchEt(test::sharedTrace("param/linear_et.json.gz"));
  ASSERT_TRUE(kineto.ok() && et.ok());
  auto trace = std::make_shared<const Trace>(std::move(kineto).value());
  auto linked = linkTraces(std::make_shared<const EtTrace>(std::move(et).value()), trace);
  ASSERT_TRUE(linked.ok());
  const LaunchIndex launches = LaunchIndex::build(*trace);
  // ET node 32 is an aten::addmm; the Kineto op the linker matched to it is the focus.
  EventId focus = kNoEvent;
  for (const auto& op : linked->ops)
    if (const EtNode* n = linked->etNode(op); n && n->id == 32) focus = op.kinetoEvent;
  ASSERT_NE(focus, kNoEvent);
  const DependencyChain chain = dependencyChain(*trace, launches, {}, focus, &*linked);
  std::vector<std::int64_t> producers, consumers;
  for (const auto& h : chain.hops) {
    if (h.kind == HopKind::DataProducer) producers.push_back(h.etNode);
    if (h.kind == HopKind::DataConsumer) consumers.push_back(h.etNode);
    if (h.focus) {
      EXPECT_EQ(h.etNode, 32);
    }
  }
  // tests/tools/et_data_deps_expected.py linear_et.json.gz 32
  EXPECT_EQ(producers, (std::vector<std::int64_t>{21, 31}));
  EXPECT_EQ(consumers, (std::vector<std::int64_t>{36, 37}));
}

void expectPathInvariants(const Trace& trace, const CriticalPath& path, const TimeWindow& w) {
  EXPECT_EQ(path.breakdown.total(), path.length);
  EXPECT_LE(path.length, path.end - path.start);
  EXPECT_GE(path.start, w.start);
  TimeNs at = path.start, sum = 0;
  for (const auto& s : path.segments) {
    EXPECT_EQ(s.start, at);
    EXPECT_LE(s.weight, s.end - s.start);
    EXPECT_GE(s.weight, 0);
    at = s.end;
    sum += s.weight;
  }
  EXPECT_EQ(sum, path.length);
  EXPECT_EQ(at, path.end);
  (void)trace;
}

TEST(AnalysisRealTraces, CriticalPathOfTheEventSyncTrace) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const Loaded l = load("hta/critical_path/cuda_event_sync.json.gz");
  const auto syncs = findSyncDependencies(l.trace, l.launches);
  ASSERT_EQ(l.steps.size(), 1u);
  const TimeWindow w = stepWindow(l.steps[0]);
  const CriticalPath path = criticalPath(l.trace, l.launches, syncs, w);
  expectPathInvariants(l.trace, path, w);
  // ProfilerStep#100 spans 3154 us, its 11 top-level ops 2428 us of it (2577 us from the first's
  // start to the last's end): the 726 us of the annotation outside them is no CPU work, as in HTA
  // (before: the path ran from the step's start to its end, 3137 us). The path runs from the
  // first op to the last and drops the gaps between top-level ops (zero-weight dependencies).
  EXPECT_EQ(path.start, 1'707'417'525'509'905'000);  // the first top-level op
  EXPECT_EQ(path.end, 1'707'417'525'512'482'000);    // the last one's end
  EXPECT_GT(path.start, l.steps[0].start);
  EXPECT_EQ(path.length, 2'419'000);
  // The spin kernel bounds the middle: launched by cudaLaunchKernel at 512362 us, it starts at
  // 512372 (10 us launch delay), runs 36 us, and cudaEventSynchronize returns at 512416 (8 us).
  EXPECT_EQ(path.breakdown.deviceCompute, 36'000);
  EXPECT_EQ(path.breakdown.launchDelay, 10'000);
  EXPECT_EQ(path.breakdown.syncWait, 8'000);
  EXPECT_EQ(path.breakdown.cpu, 2'419'000 - 36'000 - 10'000 - 8'000);
}

TEST(AnalysisRealTraces, CriticalPathOfAlexnetHoldsTogether) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const Loaded l = load("hta/critical_path/alexnet.json.gz");
  const auto syncs = findSyncDependencies(l.trace, l.launches);
  const TimeWindow w = wholeTraceWindow(l.trace);
  const CriticalPath path = criticalPath(l.trace, l.launches, syncs, w);
  expectPathInvariants(l.trace, path, w);
  EXPECT_GT(path.breakdown.deviceCompute, 0);
  EXPECT_GT(path.segments.size(), 10u);
}

}  // namespace
}  // namespace sutra
