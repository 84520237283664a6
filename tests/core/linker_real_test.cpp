// SPDX-License-Identifier: MIT
// The linker on the real pairs in ../shared/traces. Expected numbers come from
// tests/tools/link_counts.py and tests/tools/sync_edges.py, which read the JSON directly:
//   python3 tests/tools/link_counts.py param/linear_et.json.gz param/linear_kineto.json.gz 24248
//     -> et_ops 928, iterations 40, edits [210, 0, 0, ...] equal_best 39 chosen 1,
//        device_ops 261 linked 261 streams [7] (220 kernels, 41 memsets)
//   python3 tests/tools/link_counts.py hta/execution_trace/simple_add_et.json.gz
//     hta/execution_trace/simple_add_kineto.json.gz 563677
//     -> et_ops 36, iterations 1, edits [0], device_ops 4 linked 4 streams [7]
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "io/readers.h"
#include "link/et_plus_reader.h"
#include "link/et_plus_writer.h"
#include "link/launch_index.h"
#include "link/linked_trace.h"
#include "link/sync_dependencies.h"
#include "test_support.h"

namespace sutra {
namespace {

struct Pair {
  std::shared_ptr<const EtTrace> et;
  std::shared_ptr<const Trace> kineto;
};

Pair load(const std::string& et, const std::string& kineto) {
  auto e = readPytorchEt(test::sharedTrace(et));
  auto k = readKinetoTrace(test::sharedTrace(kineto));
  EXPECT_TRUE(e.ok()) << (e.ok() ? "" : e.error().message);
  EXPECT_TRUE(k.ok()) << (k.ok() ? "" : k.error().message);
  if (!e.ok() || !k.ok()) return {};
  return {std::make_shared<const EtTrace>(std::move(e).value()),
          std::make_shared<const Trace>(std::move(k).value())};
}

std::size_t countCategory(const LinkedTrace& linked, const std::string& cat) {
  std::size_t n = 0;
  for (const auto& op : linked.ops) n += op.isDevice() && op.category == cat;
  return n;
}

TEST(LinkerReal, ParamLinearPair) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto pair = load("param/linear_et.json.gz", "param/linear_kineto.json.gz");
  ASSERT_TRUE(pair.et && pair.kineto);
  auto linked = linkTraces(pair.et, pair.kineto);
  ASSERT_TRUE(linked.ok()) << linked.error().message;
  const auto& r = linked->report;
  EXPECT_EQ(r.matching, "alignment");
  EXPECT_EQ(r.etOps, 928u);
  EXPECT_EQ(r.matchedEtOps, 928u);
  EXPECT_EQ(r.iterationCount, 40);
  EXPECT_EQ(r.iteration, 1);
  EXPECT_EQ(r.candidateIterations, 39);
  EXPECT_EQ(r.iterationEdits, 0u);
  EXPECT_EQ(r.windowStart, 1689180448582147000);
  EXPECT_EQ(r.windowEnd, 1689180448598867000);
  EXPECT_EQ(r.deviceOps, 261u);
  EXPECT_EQ(r.linkedDeviceOps, 261u);
  EXPECT_EQ(countCategory(*linked, "kernel"), 220u);
  EXPECT_EQ(countCategory(*linked, "gpu_memset"), 41u);
  EXPECT_EQ(r.streams, std::vector<std::int64_t>{7});
  for (const auto& p : r.unlinked.all())
    ADD_FAILURE() << p.what << " x" << p.count << ": " << p.example;
  ASSERT_EQ(r.threads.size(), 2u);
  EXPECT_EQ(pair.kineto->lanes[r.threads[0].second].tid, "24248");  // ET thread 1: main
  EXPECT_EQ(pair.kineto->lanes[r.threads[1].second].tid, "24270");  // ET thread 2: autograd
  EXPECT_EQ(linked->ops.size(), 931u + 261u);
}

TEST(LinkerReal, HtaSimpleAddPair) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto pair = load("hta/execution_trace/simple_add_et.json.gz",
                   "hta/execution_trace/simple_add_kineto.json.gz");
  ASSERT_TRUE(pair.et && pair.kineto);
  auto linked = linkTraces(pair.et, pair.kineto);
  ASSERT_TRUE(linked.ok()) << linked.error().message;
  const auto& r = linked->report;
  EXPECT_EQ(r.matching, "alignment");
  EXPECT_EQ(r.etOps, 36u);
  EXPECT_EQ(r.matchedEtOps, 36u);
  EXPECT_EQ(r.iterationCount, 1);
  EXPECT_EQ(r.iterationEdits, 0u);
  EXPECT_EQ(r.deviceOps, 4u);
  EXPECT_EQ(r.linkedDeviceOps, 4u);
  EXPECT_EQ(r.streams, std::vector<std::int64_t>{7});
  // The last cudaDeviceSynchronize (ts 1689360808307970 us) runs outside every cpu_op and
  // user_annotation (checked in the JSON): its sync edge has no linked waiter.
  ASSERT_EQ(r.unlinked.all().size(), 1u);
  EXPECT_EQ(r.unlinked.count("synchronization whose waiter or waited-on op is not linked"), 1u);
  EXPECT_EQ(r.syncDeps, 4u);
}

TEST(LinkerReal, MismatchedPairIsRefusedAndForcedFallsBackWithAReport) {
  SUTRA_REQUIRE_SHARED_TRACES();
  // The simple_add ET against the linear Kineto trace: different programs, different pids.
  auto pair = load("hta/execution_trace/simple_add_et.json.gz", "param/linear_kineto.json.gz");
  ASSERT_TRUE(pair.et && pair.kineto);
  auto refused = linkTraces(pair.et, pair.kineto);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("they are from different runs"), std::string::npos);
  EXPECT_NE(refused.error().message.find("pid 563677"), std::string::npos);
  LinkOptions force;
  force.force = true;
  auto linked = linkTraces(pair.et, pair.kineto, force);
  ASSERT_TRUE(linked.ok()) << linked.error().message;
  EXPECT_LT(linked->report.matchedEtOps, linked->report.etOps / 2);
  EXPECT_FALSE(linked->report.unlinked.empty());
}

TEST(LinkerReal, RunsAYearApartAreRefusedNamingEachReason) {
  SUTRA_REQUIRE_SHARED_TRACES();
  // Before: linked with a warning and exit 0. pid 3233936, 2024-04-17 against pid 24248,
  // 2023-07-12.
  auto pair =
      load("param/resnet_1gpu_et.1.0.3-chakra.0.0.4.json.gz", "param/linear_kineto.json.gz");
  ASSERT_TRUE(pair.et && pair.kineto);
  auto refused = linkTraces(pair.et, pair.kineto);
  ASSERT_FALSE(refused.ok());
  const std::string& m = refused.error().message;
  EXPECT_NE(m.find("resnet_1gpu_et.1.0.3-chakra.0.0.4.json.gz: not linked with the Kineto trace "),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("linear_kineto.json.gz: they are from different runs"), std::string::npos) << m;
  EXPECT_NE(m.find("recorded by pid 3233936, the Kineto trace's host threads belong to pid 24248"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("the ET was recorded at 2024-04-17 16:29:57, the Kineto trace starts at "
                   "2023-07-12"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("their op sequences differ: 44 of 14388 ET ops matched a Kineto op"),
            std::string::npos)
      << m;
  // The pair of one run is not refused.
  auto same = load("param/linear_et.json.gz", "param/linear_kineto.json.gz");
  EXPECT_TRUE(linkTraces(same.et, same.kineto).ok());
}

using Edge = std::tuple<SyncKind, std::string, TimeNs, std::string, TimeNs>;

std::vector<Edge> syncEdges(const std::string& trace) {
  auto k = readKinetoTrace(test::sharedTrace(trace));
  EXPECT_TRUE(k.ok());
  if (!k.ok()) return {};
  const Trace& t = k.value();
  auto deps = findSyncDependencies(t, LaunchIndex::build(t));
  std::vector<Edge> out;
  for (const auto& d : deps)
    out.emplace_back(d.kind, std::string(t.name(t.events[d.waiter])), t.events[d.waiter].start,
                     std::string(t.name(t.events[d.waitedOn])), t.events[d.waitedOn].start);
  std::sort(out.begin(), out.end());
  return out;
}

constexpr TimeNs us(std::int64_t micros) { return micros * 1000; }

TEST(LinkerReal, SyncEdgesOfCudaEventSync) {
  SUTRA_REQUIRE_SHARED_TRACES();
  // python3 tests/tools/sync_edges.py hta/critical_path/cuda_event_sync.json.gz
  const std::string spin = "at::cuda::(anonymous namespace)::spin_kernel(long)";
  std::vector<Edge> expected = {
      {SyncKind::StreamSync, "cudaStreamSynchronize", us(1707417525512282),
       "Memcpy DtoH (Device -> Pageable)", us(1707417525512270)},
      {SyncKind::EventSync, "cudaEventSynchronize", us(1707417525512382), spin,
       us(1707417525512372)},
      {SyncKind::EventSync, "cudaEventQuery", us(1707417525512419), spin, us(1707417525512372)},
      {SyncKind::ContextSync, "cudaDeviceSynchronize", us(1707417525512474), spin,
       us(1707417525512372)},
  };
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(syncEdges("hta/critical_path/cuda_event_sync.json.gz"), expected);
}

TEST(LinkerReal, SyncEdgesOfCudaEventSyncMultiStream) {
  SUTRA_REQUIRE_SHARED_TRACES();
  // python3 tests/tools/sync_edges.py hta/critical_path/cuda_event_sync_multi_stream.json.gz
  const std::string sgemm = "ampere_sgemm_128x64_nn";
  std::vector<Edge> expected = {
      {SyncKind::EventSync, "cudaEventQuery", us(1712867402349056), sgemm, us(1712867402348700)},
      {SyncKind::StreamWaitEvent, "Memset (Device)", us(1712867402368034), sgemm,
       us(1712867402348700)},
      {SyncKind::EventSync, "cudaEventQuery", us(1712867402368008), sgemm, us(1712867402349097)},
      {SyncKind::ContextSync, "cudaDeviceSynchronize", us(1712867402368166), sgemm,
       us(1712867402348700)},
      {SyncKind::ContextSync, "cudaDeviceSynchronize", us(1712867402368166), sgemm,
       us(1712867402368050)},
      {SyncKind::ContextSync, "cudaDeviceSynchronize", us(1712867402368166), sgemm,
       us(1712867402349097)},
  };
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(syncEdges("hta/critical_path/cuda_event_sync_multi_stream.json.gz"), expected);
}

TEST(LinkerReal, EtPlusRoundTripOnTheLinearPair) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto pair = load("param/linear_et.json.gz", "param/linear_kineto.json.gz");
  ASSERT_TRUE(pair.et && pair.kineto);
  auto linked = linkTraces(pair.et, pair.kineto);
  ASSERT_TRUE(linked.ok());
  const std::string path = test::tempPath("linear_et_plus.json");
  ASSERT_TRUE(writeEtPlus(*linked, path).ok());
  auto back = readLinkedEt(path);
  ASSERT_TRUE(back.ok()) << back.error().message;
  ASSERT_EQ(back->ops.size(), linked->ops.size());
  for (std::size_t i = 0; i < linked->ops.size(); ++i) {
    const auto& a = linked->ops[i];
    const auto& b = back->ops[i];
    ASSERT_EQ(a.id, b.id);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.parent, b.parent) << a.id;
    EXPECT_EQ(a.ts, b.ts) << a.id;
    EXPECT_EQ(a.inclusiveDur, b.inclusiveDur) << a.id;
    EXPECT_EQ(a.exclusiveDur, b.exclusiveDur) << a.id;
    EXPECT_EQ(a.stream, b.stream) << a.id;
    EXPECT_EQ(a.category, b.category) << a.id;
    EXPECT_EQ(a.syncDeps, b.syncDeps) << a.id;
    EXPECT_EQ(a.interThreadDeps, b.interThreadDeps) << a.id;
    if (a.isCpu()) {
      EXPECT_EQ(a.tid, b.tid) << a.id;
    }
  }
  EXPECT_EQ(back->report.etOps, 928u);
  EXPECT_EQ(back->report.matchedEtOps, 928u);
  EXPECT_EQ(back->report.deviceOps, 261u);
}

}  // namespace
}  // namespace sutra
