// SPDX-License-Identifier: MIT
// readLinkedEt builds its ops as the ET reader merges each node (issue 21: no list of every node's
// ET+ fields is held, device nodes are not kept in the ET model): ops, report and problems, and the
// ops' texts, which are views into the trace's storage and must outlive the reader's locals.
#include "link/et_plus_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "test_support.h"

namespace sutra {
namespace {

std::string writeFile(const std::string& name, const std::string& text) {
  const std::string path = test::tempPath("et_plus_reader_" + name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(EtPlusReader, BuildsCpuAndDeviceOpsInIdOrderWithTheirFields) {
  // Two CPU ops (one unmatched: no ts), a kernel launched by the first, a sync dependency and an
  // inter-thread dependency; the kernel comes before its launcher in the file.
  const std::string path = writeFile("basic.json", R"({"schema":"1.0.1","nodes":[
    {"id":3,"name":"ncclDevKernel_AllReduce","parent":1,"cat":"kernel","stream":7,"pg_name":"0",
     "ts":12.5,"inclusive_dur":4,"exclusive_dur":4},
    {"id":0,"name":"[pytorch|profiler|execution_trace|process]","parent":0,"tid":1},
    {"id":1,"name":"aten::all_reduce_something_long","parent":0,"tid":1,"ts":10,
     "inclusive_dur":8,"exclusive_dur":6,"inter_thread_dep":0},
    {"id":2,"name":"aten::mm","parent":0,"tid":2,"sync_dep":[3]}]})");
  auto linked = readLinkedEt(path);
  ASSERT_TRUE(linked.ok()) << linked.error().message;
  // Copies share what the views point into: read the copy after the original is gone.
  const LinkedTrace copy = [&] { return LinkedTrace(*linked); }();
  linked = Error{};
  ASSERT_EQ(copy.ops.size(), 4u);
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(copy.ops[i].id, static_cast<std::int64_t>(i));
  const LinkedOp& mm = copy.ops[2];
  EXPECT_EQ(mm.name, "aten::mm");
  EXPECT_TRUE(mm.isCpu());
  EXPECT_EQ(mm.syncDeps, std::vector<std::int64_t>{3});
  ASSERT_NE(copy.etNode(mm), nullptr);
  EXPECT_EQ(copy.etNode(mm)->id, 2);
  const LinkedOp& comm = copy.ops[1];
  EXPECT_EQ(comm.name, "aten::all_reduce_something_long");
  EXPECT_EQ(comm.ts, 10'000);
  EXPECT_EQ(comm.exclusiveDur, 6'000);
  EXPECT_EQ(comm.interThreadDeps, std::vector<std::int64_t>{0});
  const LinkedOp& kernel = copy.ops[3];
  EXPECT_TRUE(kernel.isDevice());
  EXPECT_EQ(kernel.etIndex, -1);
  EXPECT_EQ(kernel.name, "ncclDevKernel_AllReduce");
  EXPECT_EQ(kernel.category, "kernel");
  EXPECT_EQ(kernel.pgName, "0");
  EXPECT_EQ(kernel.stream, 7);
  EXPECT_EQ(kernel.ts, 12'500);
  EXPECT_EQ(kernel.tid, 1);  // its launcher's thread
  // The ET model keeps the CPU nodes only.
  EXPECT_EQ(copy.et->nodes.size(), 3u);
  EXPECT_EQ(copy.et->find(3), nullptr);
  EXPECT_EQ(copy.report.etOps, 2u);
  EXPECT_EQ(copy.report.matchedEtOps, 1u);
  EXPECT_EQ(copy.report.deviceOps, 1u);
  EXPECT_EQ(copy.report.syncDeps, 1u);
  EXPECT_EQ(copy.report.interThreadDeps, 1u);
  EXPECT_EQ(copy.report.streams, std::vector<std::int64_t>{7});
  EXPECT_TRUE(copy.problems.all().empty());
}

TEST(EtPlusReader, WarnsOfDeviceNodesWithoutALaunchingCpuOp) {
  const std::string loop = writeFile("loop.json", R"({"schema":"1.0.1","nodes":[
    {"id":1,"name":"k","parent":2,"cat":"kernel","ts":1,"inclusive_dur":1},
    {"id":2,"name":"k2","parent":1,"cat":"kernel","ts":1,"inclusive_dur":1}]})");
  auto linked = readLinkedEt(loop);
  ASSERT_TRUE(linked.ok()) << linked.error().message;
  EXPECT_EQ(linked->ops.size(), 2u);
  EXPECT_EQ(linked->problems.count("ET+ device node whose parent is a device node, not the CPU "
                                   "op that launched it"),
            2u);
  const std::string orphan = writeFile("orphan.json", R"({"schema":"1.0.1","nodes":[
    {"id":1,"name":"k","parent":9,"cat":"kernel","ts":1,"inclusive_dur":1}]})");
  linked = readLinkedEt(orphan);
  ASSERT_TRUE(linked.ok()) << linked.error().message;
  EXPECT_EQ(linked->problems.count("ET node whose parent is not in the file"), 1u);
}

TEST(EtPlusReader, KeepsTheLaterOfTwoNodesWithOneId) {
  const std::string path = writeFile("twice.json", R"({"schema":"1.0.1","nodes":[
    {"id":1,"name":"a","parent":1,"ts":1,"inclusive_dur":1},
    {"id":1,"name":"b","parent":1,"cat":"kernel","ts":1,"inclusive_dur":1},
    {"id":2,"name":"c","parent":1,"ts":1,"inclusive_dur":1},
    {"id":2,"name":"d","parent":1,"ts":1,"inclusive_dur":1}]})");
  auto linked = readLinkedEt(path);
  ASSERT_TRUE(linked.ok()) << linked.error().message;
  ASSERT_EQ(linked->ops.size(), 2u);
  EXPECT_EQ(linked->ops[0].name, "b");
  EXPECT_TRUE(linked->ops[0].isDevice());
  EXPECT_EQ(linked->ops[1].name, "d");
  EXPECT_EQ(linked->etNode(linked->ops[1])->name, "d");
  EXPECT_EQ(linked->problems.count("ET+ device node id used twice (the later is kept)"), 1u);
  EXPECT_EQ(linked->problems.count("ET node id used twice (the later node is kept)"), 1u);
}

}  // namespace
}  // namespace sutra
