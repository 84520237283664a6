// SPDX-License-Identifier: MIT
// A run opened from its trace caches works from the mapped columns: linked, analysed, simulated
// and queried with SQL, it copies no column out of the mapping, and every answer is the answer of
// the same run read into memory.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "analysis/op_table.h"
#include "model/column.h"
#include "session/run.h"
#include "session/run_simulation.h"
#include "sql/query_session.h"
#include "test_support.h"

namespace sutra {
namespace {

std::string sample(const std::string& name) {
  return std::string(SUTRA_SOURCE_DIR) + "/tests/data/synthetic_samples/" + name;
}

struct Answers {
  std::vector<std::size_t> opRows;
  std::vector<TimeNs> simulatedNs;
  std::vector<std::vector<sql::Value>> groupBy;
};

Answers answersOf(const Run& run) {
  Answers a;
  for (const auto& rank : run.ranks) {
    EXPECT_TRUE(rank->opTable());
    a.opRows.push_back(rank->opTable() ? rank->opTable()->rows.size() : 0);
  }
  auto simulated = simulateRun(run);
  EXPECT_TRUE(simulated.ok()) << (simulated ? "" : simulated.error().message);
  if (simulated)
    for (const auto& rank : simulated->ranks) a.simulatedNs.push_back(rank.projection.simulatedNs);
  auto session = sql::QuerySession::open(run);
  EXPECT_TRUE(session.ok());
  if (session) {
    auto result = (*session)->run(
        "SELECT name, count(*) AS n, sum(dur) AS total FROM slice GROUP BY name ORDER BY name");
    EXPECT_TRUE(result.ok()) << (result ? "" : result.error().message);
    if (result) a.groupBy = result->rows;
  }
  return a;
}

TEST(MappedRun, ARunFromItsTraceCachesCopiesNoColumnAndAnswersAsInMemory) {
  test::TempDir dir;
  ::setenv("SUTRA_CACHE_DIR", dir.file("cache").c_str(), 1);
  ::setenv("SUTRA_CACHE", "always", 1);
  ::setenv("SUTRA_CACHE_STREAM", "1", 1);  // the first open streams straight into the caches
  const std::string path = sample("allreduce_2ranks");
  auto first = openRun({path});
  ASSERT_TRUE(first.ok()) << first.error().message;

  const ColumnCopies before = mappedColumnCopies();
  auto mapped = openRun({path});  // from the caches
  ASSERT_TRUE(mapped.ok()) << mapped.error().message;
  ASSERT_EQ(mapped->ranks.size(), 2u);
  for (const auto& rank : mapped->ranks) EXPECT_TRUE(rank->trace->events.isMapped());
  const Answers fromCache = answersOf(*mapped);
  EXPECT_EQ(mappedColumnCopies().values, before.values) << "a stage copied a mapped column";

  ::setenv("SUTRA_CACHE", "0", 1);
  auto inMemory = openRun({path});
  ASSERT_TRUE(inMemory.ok());
  EXPECT_FALSE(inMemory->ranks[0]->trace->events.isMapped());
  const Answers parsed = answersOf(*inMemory);
  EXPECT_EQ(fromCache.opRows, parsed.opRows);
  EXPECT_EQ(fromCache.simulatedNs, parsed.simulatedNs);
  EXPECT_EQ(fromCache.groupBy, parsed.groupBy);
  EXPECT_FALSE(parsed.groupBy.empty());
}

}  // namespace
}  // namespace sutra
