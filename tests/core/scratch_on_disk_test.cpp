// SPDX-License-Identifier: MIT
// Working arrays on disk (util/scratch_array.h): an operator table built with its per-event arrays
// in files, and SQL that groups through SQLite's temporary files, answer as in memory.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "analysis/op_table.h"
#include "session/run.h"
#include "sql/query_session.h"
#include "test_support.h"
#include "util/scratch_array.h"

namespace sutra {
namespace {

struct Answers {
  std::vector<std::string> names;
  std::vector<TimeNs> selfCpu, deviceTotal;
  std::vector<std::uint64_t> calls;
  std::vector<std::vector<sql::Value>> groupBy;
};

Answers answersOf(const std::string& path) {
  Answers a;
  auto run = openRun({path}, RunOptions::upTo(RunStage::Analyse));
  EXPECT_TRUE(run.ok()) << (run ? "" : run.error().message);
  if (!run) return a;
  for (const auto& rank : run->ranks)
    for (const OpRow& row : rank->opTable()->rows) {
      a.names.push_back(row.name);
      a.selfCpu.push_back(row.selfCpu);
      a.deviceTotal.push_back(row.deviceTotal);
      a.calls.push_back(row.calls);
    }
  auto session = sql::QuerySession::open(*run);
  EXPECT_TRUE(session.ok());
  if (session) {
    auto result = (*session)->run(
        "SELECT name, count(*), sum(dur), max(depth) FROM slice GROUP BY name ORDER BY 3 DESC, 1");
    EXPECT_TRUE(result.ok()) << (result ? "" : result.error().message);
    if (result) a.groupBy = result->rows;
  }
  return a;
}

TEST(ScratchOnDisk, OperatorTableAndSqlAnswerAsInMemory) {
  test::TempDir dir;
  ::setenv("SUTRA_CACHE", "0", 1);
  ::setenv("SUTRA_CACHE_DIR", dir.file("cache").c_str(), 1);
  const std::string path =
      std::string(SUTRA_SOURCE_DIR) + "/tests/data/synthetic_samples/transformer_two_streams";
  const Answers inMemory = answersOf(path);
  ::setenv("SUTRA_SCRATCH_ON_DISK_FROM", "0", 1);  // every working array in a file
  EXPECT_TRUE(scratchArray<int>(10, 0).isFileBacked());
  const Answers onDisk = answersOf(path);
  ::unsetenv("SUTRA_SCRATCH_ON_DISK_FROM");
  EXPECT_FALSE(inMemory.names.empty());
  EXPECT_FALSE(inMemory.groupBy.empty());
  EXPECT_EQ(onDisk.names, inMemory.names);
  EXPECT_EQ(onDisk.selfCpu, inMemory.selfCpu);
  EXPECT_EQ(onDisk.deviceTotal, inMemory.deviceTotal);
  EXPECT_EQ(onDisk.calls, inMemory.calls);
  EXPECT_EQ(onDisk.groupBy, inMemory.groupBy);
}

}  // namespace
}  // namespace sutra
