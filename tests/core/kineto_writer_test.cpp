// SPDX-License-Identifier: MIT
// The measured timeline written back as Kineto JSON reads back as the same trace, whole or cut to
// a window; real traces of every backend round-trip.
#include "io/kineto_writer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "io/readers.h"
#include "test_support.h"

namespace sutra {
namespace {
namespace fs = std::filesystem;

std::string tempPath(const std::string& name) {
  return (fs::temp_directory_path() / ("sutra_kw_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

// Everything a reader gives, compared field by field (args as parsed JSON: the writer keeps the
// raw text, the reader may have trimmed its whitespace).
void expectSameTrace(const Trace& a, const Trace& b) {
  ASSERT_EQ(a.lanes.size(), b.lanes.size());
  for (std::size_t l = 0; l < a.lanes.size(); ++l) {
    SCOPED_TRACE("lane " + std::to_string(l));
    EXPECT_EQ(a.lanes[l].pid, b.lanes[l].pid);
    EXPECT_EQ(a.lanes[l].tid, b.lanes[l].tid);
    EXPECT_EQ(a.lanes[l].processName, b.lanes[l].processName);
    EXPECT_EQ(a.lanes[l].threadName, b.lanes[l].threadName);
    EXPECT_EQ(a.lanes[l].processSortIndex, b.lanes[l].processSortIndex);
    EXPECT_EQ(a.lanes[l].threadSortIndex, b.lanes[l].threadSortIndex);
    EXPECT_EQ(a.lanes[l].kind, b.lanes[l].kind);
    EXPECT_EQ(a.lanes[l].stream, b.lanes[l].stream);
  }
  ASSERT_EQ(a.events.size(), b.events.size());
  for (EventId e = 0; e < a.events.size(); ++e) {
    const Event &x = a.events[e], &y = b.events[e];
    ASSERT_EQ(a.name(x), b.name(y)) << "event " << e;
    ASSERT_EQ(a.category(x), b.category(y)) << "event " << e;
    ASSERT_EQ(x.start, y.start) << "event " << e;
    ASSERT_EQ(x.dur, y.dur) << "event " << e;
    ASSERT_EQ(x.lane, y.lane) << "event " << e;
    ASSERT_EQ(x.depth, y.depth) << "event " << e;
    ASSERT_EQ(x.correlation, y.correlation) << "event " << e;
    ASSERT_EQ(x.externalId, y.externalId) << "event " << e;
    const auto ja = nlohmann::json::parse(a.argsJson(x).empty() ? "null" : a.argsJson(x));
    const auto jb = nlohmann::json::parse(b.argsJson(y).empty() ? "null" : b.argsJson(y));
    ASSERT_EQ(ja, jb) << "event " << e;
  }
  ASSERT_EQ(a.flows.size(), b.flows.size());
  for (std::size_t f = 0; f < a.flows.size(); ++f) {
    EXPECT_EQ(a.flows[f].from, b.flows[f].from);
    EXPECT_EQ(a.flows[f].to, b.flows[f].to);
    EXPECT_EQ(a.flows[f].id, b.flows[f].id);
  }
  ASSERT_EQ(a.instants.size(), b.instants.size());
  for (std::size_t i = 0; i < a.instants.size(); ++i) {
    EXPECT_EQ(a.instants[i].time, b.instants[i].time);
    EXPECT_EQ(a.names.view(a.instants[i].name), b.names.view(b.instants[i].name));
    EXPECT_EQ(a.instants[i].scope, b.instants[i].scope);
  }
  ASSERT_EQ(a.counters.size(), b.counters.size());
  for (std::size_t c = 0; c < a.counters.size(); ++c) {
    EXPECT_EQ(a.counters[c].name, b.counters[c].name);
    EXPECT_EQ(a.counters[c].pid, b.counters[c].pid);
    EXPECT_EQ(a.counters[c].samples, b.counters[c].samples);
  }
  EXPECT_EQ(a.meta.rank, b.meta.rank);
  EXPECT_EQ(a.meta.worldSize, b.meta.worldSize);
  EXPECT_EQ(a.meta.baseTimeNanoseconds, b.meta.baseTimeNanoseconds);
  EXPECT_EQ(a.meta.deviceBackend, b.meta.deviceBackend);
  EXPECT_EQ(a.meta.devices.size(), b.meta.devices.size());
  EXPECT_EQ(a.startNs, b.startNs);
  EXPECT_EQ(a.endNs, b.endNs);
}

TEST(KinetoWriter, TheFixtureRoundTripsWithEveryKindOfEvent) {
  auto original = readKinetoTrace(test::fixture("export/small_kineto.json"));
  ASSERT_TRUE(original) << original.error().message;
  // What the hand-made fixture holds: 7 complete events (the B/E pair becomes one), 1 flow,
  // 2 instants, 3 counter series (Memory/allocated, Memory/reserved, util).
  ASSERT_EQ(original->events.size(), 7u);
  ASSERT_EQ(original->flows.size(), 1u);
  ASSERT_EQ(original->instants.size(), 2u);
  ASSERT_EQ(original->counters.size(), 3u);
  const std::string out = tempPath("fixture.json");
  ASSERT_TRUE(writeKinetoTrace(*original, out));
  auto back = readKinetoTrace(out);
  ASSERT_TRUE(back) << back.error().message;
  expectSameTrace(*original, *back);
  EXPECT_EQ(back->meta.traceName, "small export fixture");
  bool customKept = false;
  for (const auto& [key, raw] : back->meta.other)
    if (key == "customKey")
      customKept = nlohmann::json::parse(raw) == nlohmann::json::parse(R"({"kept":[1,2,3]})");
  EXPECT_TRUE(customKept);
  fs::remove(out);
}

TEST(KinetoWriter, AWindowKeepsWhatOverlapsIt) {
  auto original = readKinetoTrace(test::fixture("export/small_kineto.json"));
  ASSERT_TRUE(original);
  const TimeNs base = 1'700'000'000'000'000'000LL;  // the fixture's first ts in ns
  KinetoWriteOptions options;
  options.window = TimeWindow{base, base + 150'000};  // the first 150 us: step 1 only
  const std::string out = tempPath("window.json.gz");
  ASSERT_TRUE(writeKinetoTrace(*original, out, options));
  auto cut = readKinetoTrace(out);
  ASSERT_TRUE(cut) << cut.error().message;
  // Worked out by hand from the fixture: ProfilerStep#1, aten::mm, cudaLaunchKernel and the gemm
  // kernel overlap [0, 150) us; forward, ProfilerStep#2 and aten::relu start at 200 us or later.
  std::multiset<std::string> names;
  for (const auto& e : cut->events) names.insert(std::string(cut->name(e)));
  EXPECT_EQ(names, (std::multiset<std::string>{"ProfilerStep#1", "aten::mm", "cudaLaunchKernel",
                                               "gemm \"quoted\" \u00e9"}));
  EXPECT_EQ(cut->flows.size(), 1u);     // launch -> gemm, both ends kept
  EXPECT_EQ(cut->instants.size(), 1u);  // "marker" at 20 us; "late marker" is at 250 us
  std::size_t samples = 0;
  for (const auto& c : cut->counters) samples += c.samples.size();
  EXPECT_EQ(samples, 3u);  // Memory at 5 us (two series) and util at 70 us
  fs::remove(out);
}

TEST(KinetoWriter, RefusesAnEmptyWindowAndItsOwnInput) {
  const std::string in = tempPath("input.json");
  fs::copy_file(test::fixture("export/small_kineto.json"), in,
                fs::copy_options::overwrite_existing);
  auto trace = readKinetoTrace(in);
  ASSERT_TRUE(trace);
  KinetoWriteOptions options;
  options.protectedPaths = {in};
  auto refused = writeKinetoTrace(*trace, in, options);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message, in + ": refusing to overwrite an input (" + in + ")");
  options.window = TimeWindow{10, 10};
  auto empty = writeKinetoTrace(*trace, tempPath("empty.json"), options);
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message, tempPath("empty.json") + ": the time window to export is empty");
  fs::remove(in);
}

class KinetoWriterRealTrace : public ::testing::TestWithParam<const char*> {};

TEST_P(KinetoWriterRealTrace, RoundTripsExactly) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto original = readKinetoTrace(test::sharedTrace(GetParam()));
  ASSERT_TRUE(original) << original.error().message;
  const std::string out = tempPath(fs::path(GetParam()).filename().string());
  ASSERT_TRUE(writeKinetoTrace(*original, out));
  auto back = readKinetoTrace(out);
  ASSERT_TRUE(back) << back.error().message;
  expectSameTrace(*original, *back);
  fs::remove(out);
}

INSTANTIATE_TEST_SUITE_P(EveryBackend, KinetoWriterRealTrace,
                         ::testing::Values("param/linear_kineto.json.gz",
                                           "hta/amd/mi250_minitoy_train_rocm6.2.json.gz",
                                           "hta/mtia/mtia_inference_rank_0.json.gz",
                                           "hta/critical_path/cuda_event_sync.json.gz",
                                           "hta/cpu_only/rank-34.pt.trace.json.gz"));

}  // namespace
}  // namespace sutra

namespace sutra {
namespace {

// JSON members come in any order: a counter whose "args" precede its "ph" (as in key-sorted files)
// keeps its values.
TEST(KinetoReader, CounterArgsBeforePhAreKept) {
  const std::string path = tempPath("counter_order.json");
  {
    std::ofstream out(path);
    out << R"({"traceEvents":[
      {"args":{"allocated":10.5,"reserved":64},"name":"Memory","ph":"C","pid":1,"ts":5},
      {"ph":"C","name":"Memory","pid":1,"ts":7,"args":{"allocated":12,"reserved":64}}]})";
  }
  auto trace = readKinetoTrace(path);
  ASSERT_TRUE(trace) << trace.error().message;
  ASSERT_EQ(trace->counters.size(), 2u);
  for (const auto& c : trace->counters) {
    ASSERT_EQ(c.samples.size(), 2u) << c.name;
    if (c.name == "Memory/allocated") {
      EXPECT_EQ(c.samples[0], (std::pair<TimeNs, double>{5000, 10.5}));
      EXPECT_EQ(c.samples[1], (std::pair<TimeNs, double>{7000, 12.0}));
    } else {
      EXPECT_EQ(c.name, "Memory/reserved");
      EXPECT_EQ(c.samples[0].second, 64.0);
    }
  }
  fs::remove(path);
}

}  // namespace
}  // namespace sutra
