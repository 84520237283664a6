// SPDX-License-Identifier: MIT
// Every Kineto trace and PyTorch ET in ../shared/traces loads with the exact counts computed
// independently by tests/tools/trace_counts.py (standard-library Python, decimal timestamps):
//   python3 tests/tools/trace_counts.py ../shared/traces/*/*.json.gz ../shared/traces/*/*/*.json.gz
// The traces are read the way `sutra-cli info` reads them: discovery, then the reader for the
// kind, then the summary.
#include <gtest/gtest.h>

#include <map>

#include "analysis/trace_summary.h"
#include "io/discover.h"
#include "io/readers.h"
#include "test_support.h"

namespace sutra {
namespace {

using Counts = std::map<std::string, std::uint64_t>;

struct KinetoExpect {
  const char* path;
  std::uint64_t events;
  Counts byCategory;
  std::uint64_t lanes, flows, instants;
  TimeNs spanNs;
};

const KinetoExpect kKineto[] = {
    {"hta/amd/mi250_minitoy_train_rocm6.2.json.gz",
     113,
     {{"Trace", 1},
      {"cpu_op", 70},
      {"cuda_runtime", 21},
      {"gpu_memcpy", 2},
      {"gpu_user_annotation", 2},
      {"kernel", 14},
      {"user_annotation", 3}},
     6,
     20,
     2,
     9761878},
    {"hta/cpu_only/rank-34.pt.trace.json.gz",
     16,
     {{"Trace", 1}, {"cpu_op", 4}, {"user_annotation", 11}},
     6,
     0,
     2,
     1289526102},
    {"hta/critical_path/alexnet.json.gz",
     868,
     {{"Trace", 1},
      {"cpu_op", 359},
      {"cuda_runtime", 361},
      {"cuda_sync", 41},
      {"gpu_memcpy", 16},
      {"gpu_memset", 3},
      {"kernel", 79},
      {"user_annotation", 8}},
     7,
     139,
     2,
     43458523000},
    {"hta/critical_path/cuda_event_sync.json.gz",
     33,
     {{"Trace", 1},
      {"cpu_op", 10},
      {"cuda_runtime", 12},
      {"cuda_sync", 4},
      {"gpu_memcpy", 1},
      {"kernel", 4},
      {"user_annotation", 1}},
     6,
     7,
     2,
     3154000},
    {"hta/critical_path/cuda_event_sync_multi_stream.json.gz",
     57,
     {{"Trace", 1},
      {"cpu_op", 6},
      {"cuda_runtime", 39},
      {"cuda_sync", 5},
      {"gpu_memset", 3},
      {"kernel", 3}},
     8,
     8,
     2,
     62477000},
    {"hta/critical_path/simple_add.json.gz",
     838,
     {{"Trace", 1},
      {"cpu_op", 359},
      {"cuda_runtime", 331},
      {"cuda_sync", 41},
      {"gpu_memcpy", 16},
      {"gpu_memset", 3},
      {"kernel", 79},
      {"user_annotation", 8}},
     7,
     139,
     2,
     41602354000},
    {"hta/execution_trace/simple_add_kineto.json.gz",
     56,
     {{"Trace", 1}, {"cpu_op", 28}, {"cuda_runtime", 15}, {"kernel", 4}, {"user_annotation", 8}},
     5,
     4,
     2,
     19848330000},
    {"hta/mtia/mtia_inference_rank_0.json.gz",
     14179,
     {{"Trace", 1},
      {"cpu_op", 10346},
      {"mtia_ccp_events", 1313},
      {"mtia_runtime", 823},
      {"user_annotation", 1696}},
     62,
     619,
     2,
     459666360},
    {"hta/trace_compare/base.json.gz",
     33,
     {{"cpu_op", 6},
      {"cuda_runtime", 5},
      {"gpu_memcpy", 6},
      {"gpu_memset", 6},
      {"kernel", 6},
      {"user_annotation", 4}},
     4,
     0,
     0,
     745341000},
    {"hta/trace_compare/test.json.gz",
     34,
     {{"cpu_op", 9},
      {"cuda_runtime", 5},
      {"gpu_memcpy", 6},
      {"gpu_memset", 6},
      {"kernel", 5},
      {"user_annotation", 3}},
     4,
     0,
     0,
     745341000},
    {"hta/triton/triton_example.json.gz",
     8,
     {{"Trace", 1},
      {"cpu_op", 3},
      {"cuda_driver", 1},
      {"cuda_runtime", 1},
      {"kernel", 1},
      {"user_annotation", 1}},
     6,
     1,
     2,
     13690136806},
    {"kineto/h100_before_fix_trace.json",
     9,
     {{"Trace", 1}, {"cpu_op", 4}, {"cuda_runtime", 1}, {"cuda_sync", 2}, {"kernel", 1}},
     5,
     1,
     2,
     300},
    // PyTorch ~1.8 wrote a bare top-level array of events, without "traceEvents".
    {"kineto/resnet50_2020_top_level_array.pt.trace.json.gz",
     63166,
     {{"Kernel", 9538},
      {"Memcpy", 12},
      {"Memset", 377},
      {"Operator", 42438},
      {"Runtime", 10800},
      {"Trace", 1}},
     5,
     9162,
     1,
     1292265000},
    {"kineto/resnet50_2021_autograd_api.pt.trace.json.gz",
     59423,
     {{"Kernel", 9329},
      {"Memcpy", 338},
      {"Memset", 466},
      {"Operator", 33535},
      {"Runtime", 15754},
      {"Trace", 1}},
     18,
     10133,
     2,
     5295600000},
    {"param/linear_kineto.json.gz",
     61950,
     {{"Trace", 1},
      {"cpu_op", 36998},
      {"cuda_runtime", 14515},
      {"gpu_memset", 1640},
      {"kernel", 8716},
      {"user_annotation", 80}},
     6,
     10356,
     2,
     2004074000},
};

struct EtExpect {
  const char* path;
  const char* schema;
  std::uint64_t nodes, operators, threads;
  std::vector<std::string> devices;
};

const EtExpect kEt[] = {
    {"chakra/et_1.0.2-chakra.0.0.4.json.gz", "1.0.2-chakra.0.0.4", 263, 261, 1, {"cpu", "cuda:0"}},
    {"hta/execution_trace/simple_add_et.json.gz", "1.0.1", 38, 36, 1, {"cpu", "cuda:0"}},
    {"param/linear_et.json.gz", "1.0.1", 931, 928, 2, {"cuda:0"}},
    {"param/resnet_1gpu_et.1.0.3-chakra.0.0.4.json.gz",
     "1.0.3-chakra.0.0.4",
     14391,
     14388,
     2,
     {"cpu", "cuda:0"}},
    {"param/resnet_2gpu_et.1.1.0-chakra.0.0.4.json.gz",
     "1.1.0-chakra.0.0.4",
     14392,
     14389,
     2,
     {"cpu", "cuda:1"}},
};

Counts asMap(const std::vector<std::pair<std::string, std::uint64_t>>& counts) {
  return Counts(counts.begin(), counts.end());
}

TEST(RealTraces, KinetoTracesLoadWithExactCounts) {
  SUTRA_REQUIRE_SHARED_TRACES();
  for (const auto& e : kKineto) {
    SCOPED_TRACE(e.path);
    auto file = sniffTraceFile(test::sharedTrace(e.path));
    ASSERT_TRUE(file.ok()) << file.error().message;
    ASSERT_EQ(file->kind, FileKind::KinetoTrace);
    auto trace = readKinetoTrace(file->path);
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    const TraceSummary s = summarizeTrace(*trace);
    EXPECT_EQ(s.events, e.events);
    EXPECT_EQ(asMap(s.byCategory), e.byCategory);
    EXPECT_EQ(s.lanes, e.lanes);
    EXPECT_EQ(s.flows, e.flows);
    EXPECT_EQ(trace->instants.size(), e.instants);
    EXPECT_EQ(s.spanNs, e.spanNs);
  }
}

TEST(RealTraces, ExecutionTracesLoadWithExactCounts) {
  SUTRA_REQUIRE_SHARED_TRACES();
  for (const auto& e : kEt) {
    SCOPED_TRACE(e.path);
    auto file = sniffTraceFile(test::sharedTrace(e.path));
    ASSERT_TRUE(file.ok()) << file.error().message;
    ASSERT_EQ(file->kind, FileKind::PytorchEt);
    auto s = summarizeTraceFile(*file);
    ASSERT_TRUE(s.ok()) << s.error().message;
    EXPECT_EQ(s->schema, e.schema);
    EXPECT_EQ(s->events, e.nodes);
    const Counts cats = asMap(s->byCategory);
    EXPECT_EQ(cats.at("operator"), e.operators);
    EXPECT_EQ(cats.at("process root") + cats.at("thread root"), e.nodes - e.operators);
    EXPECT_EQ(s->lanes, e.threads);
    std::vector<std::string> devices;
    for (const auto& d : s->devices) devices.push_back(d.id);
    EXPECT_EQ(devices, e.devices);
  }
}

}  // namespace
}  // namespace sutra
