// SPDX-License-Identifier: MIT
// What a run is called (session/run_naming.h): the window's title and save dialogs, the compare
// window's panes and sutra-cli compare's story share it.
#include "session/run_naming.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.h"

namespace sutra {
namespace {
namespace fs = std::filesystem;

// naive/rank0.kineto.json.gz, fused/rank0.kineto.json.gz, fused/rank0.et.json in `root`, a folder
// of the test's own (one folder shared by the three tests was removed under one by another when
// ctest ran them at once: "cannot remove all: No such file or directory").
fs::path makeRuns(const test::TempDir& dir) {
  const fs::path root = dir.path();
  for (const char* run : {"naive", "fused"}) {
    fs::create_directories(root / run);
    std::ofstream(root / run / "rank0.kineto.json.gz") << "x";
  }
  std::ofstream(root / "fused" / "rank0.et.json") << "x";
  return root;
}

TEST(RunNaming, AFolderByItsNameAFileByItsOwn) {
  const test::TempDir dir;
  const fs::path root = makeRuns(dir);
  EXPECT_EQ(runName({(root / "naive").string()}), "naive");
  EXPECT_EQ(runName({(root / "naive").string() + "/"}), "naive");  // a trailing slash
  EXPECT_EQ(runName({(root / "naive" / "rank0.kineto.json.gz").string()}), "rank0.kineto.json.gz");
  // Files from one folder are that folder's run; from several, the first and a count.
  EXPECT_EQ(runName({(root / "fused" / "rank0.kineto.json.gz").string(),
                     (root / "fused" / "rank0.et.json").string()}),
            "fused");
  EXPECT_EQ(runName({(root / "fused" / "rank0.et.json").string(),
                     (root / "naive" / "rank0.kineto.json.gz").string()}),
            "rank0.et.json (+1 more)");
  EXPECT_EQ(runName({}), "");
}

TEST(RunNaming, StemAndFolder) {
  const test::TempDir dir;
  const fs::path root = makeRuns(dir);
  const std::string file = (root / "naive" / "rank0.kineto.json.gz").string();
  EXPECT_EQ(runStem({file}), "rank0.kineto");
  EXPECT_EQ(runStem({(root / "fused" / "rank0.et.json").string()}), "rank0");  // .json, then .et
  EXPECT_EQ(runStem({(root / "fused").string()}), "fused");
  EXPECT_EQ(runFolder({file}), fs::absolute(root / "naive").lexically_normal().string());
  EXPECT_EQ(runFolder({(root / "fused").string() + "/"}),
            fs::absolute(root / "fused").lexically_normal().string());
  EXPECT_EQ(runFolder({}), "");
}

TEST(RunNaming, RunsSideBySideAreToldApartByTheirFolderWhereTheirFilesAreNamedAlike) {
  const test::TempDir dir;
  const fs::path root = makeRuns(dir);
  const std::string naive = (root / "naive" / "rank0.kineto.json.gz").string();
  const std::string fused = (root / "fused" / "rank0.kineto.json.gz").string();
  EXPECT_EQ(runLabels({naive, fused}),
            (std::vector<std::string>{"naive/rank0.kineto.json.gz", "fused/rank0.kineto.json.gz"}));
  // Run folders are named by themselves; one file twice (two steps of a run) keeps its name.
  EXPECT_EQ(runLabels({(root / "naive").string(), (root / "fused").string()}),
            (std::vector<std::string>{"naive", "fused"}));
  EXPECT_EQ(runLabels({naive, naive}),
            (std::vector<std::string>{"rank0.kineto.json.gz", "rank0.kineto.json.gz"}));
  EXPECT_EQ(runLabels({naive, (root / "fused" / "rank0.et.json").string()}),
            (std::vector<std::string>{"rank0.kineto.json.gz", "rank0.et.json"}));
}

}  // namespace
}  // namespace sutra
