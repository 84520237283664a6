// SPDX-License-Identifier: MIT
// Faults of ET node ids and parent links are recoverable: the reader counts each kind in the
// ProblemLog (severity, count, first example) and reads on. tests/data/et/bad_ids.json has one of
// each.
#include <gtest/gtest.h>

#include <string>

#include "io/readers.h"
#include "test_support.h"

namespace sutra {
namespace {

const Problem* problem(const EtTrace& et, const std::string& what) {
  for (const auto& p : et.problems.all())
    if (p.what == what) return &p;
  return nullptr;
}

void expectProblem(const EtTrace& et, const std::string& what, std::uint64_t count,
                   const std::string& example) {
  const Problem* p = problem(et, what);
  ASSERT_NE(p, nullptr) << what;
  EXPECT_EQ(p->severity, Severity::Warning) << what;
  EXPECT_EQ(p->count, count) << what;
  EXPECT_EQ(p->example, example) << what;
}

TEST(EtProblems, BadIdsAndParentLinksAreCounted) {
  auto et = readPytorchEt(test::fixture("et/bad_ids.json"));
  ASSERT_TRUE(et.ok()) << et.error().message;
  // Nodes with an id that is no id are skipped; the others are read.
  EXPECT_EQ(et->nodes.size(), 8u);
  EXPECT_EQ(et->find(3), nullptr);
  ASSERT_NE(et->find(15), nullptr);
  expectProblem(*et, "ET node id that is a string, node skipped", 1, "id \"3\" (aten::string_id)");
  expectProblem(*et, "ET node id that is not a whole number, node skipped", 1,
                "id 4.5 (aten::fraction_id)");
  expectProblem(*et, "ET node id that is negative, node skipped", 1, "id -7 (aten::negative_id)");
  expectProblem(*et, "ET node id that is beyond 2^63, node skipped", 1,
                "id 18446744073709551617 (aten::huge_id)");
  expectProblem(*et, "ET node parent id that is a string, taken as none", 1,
                "node 14 (aten::string_parent): parent \"2\"");
  EXPECT_EQ(et->find(14)->parent, -1);
  expectProblem(*et, "ET node that is its own parent (not the process root)", 1,
                "node 10 (aten::self_parent)");
  expectProblem(*et, "ET nodes on a cycle of parents", 2, "ids 11 -> 12 -> 11");
  expectProblem(*et, "ET node whose parent is not in the file", 1,
                "node 13 (aten::orphan): parent 99");
  EXPECT_EQ(et->problems.all().size(), 8u);
}

// Top-level numbers that no int64 holds (a fuzzer's "pid": 1.021e68 once reached a float-to-int
// conversion, undefined behaviour) read as absent; a fraction is no whole number either.
TEST(EtProblems, TopLevelNumbersBeyondInt64ReadAsAbsent) {
  auto et = readPytorchEt(std::string(SUTRA_SOURCE_DIR) +
                          "/tests/fuzz/corpus/et/float_out_of_range.json");
  ASSERT_TRUE(et.ok()) << et.error().message;
  EXPECT_EQ(et->pid, 0);
  EXPECT_EQ(et->startTs, 0);
  EXPECT_EQ(et->finishTs, 0);
  EXPECT_EQ(et->nodes.size(), 1u);
}

TEST(EtProblems, WellFormedFilesHaveNone) {
  for (const char* file : {"et/flat_1.0.1.json", "et/attrs_1.1.0.json"}) {
    auto et = readPytorchEt(test::fixture(file));
    ASSERT_TRUE(et.ok()) << file;
    EXPECT_TRUE(et->problems.empty()) << file << ": " << et->problems.all().front().what;
  }
}

TEST(EtProblems, RealEtsHaveNoneOfThese) {
  SUTRA_REQUIRE_SHARED_TRACES();
  // Their process roots are their own parents, as torch writes them: no problem.
  for (const char* file :
       {"param/linear_et.json.gz", "param/resnet_1gpu_et.1.0.3-chakra.0.0.4.json.gz",
        "chakra/et_1.0.2-chakra.0.0.4.json.gz"}) {
    auto et = readPytorchEt(test::sharedTrace(file));
    ASSERT_TRUE(et.ok()) << file;
    for (const auto& p : et->problems.all())
      EXPECT_EQ(p.what.find("parent"), std::string::npos) << file << ": " << p.what;
  }
}

}  // namespace
}  // namespace sutra
