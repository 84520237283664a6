// SPDX-License-Identifier: MIT
// ASTRA-sim as an engine: its log read (a sample log written for the test), the binary found or a
// message saying how to point Sutra at it, a run that never lets a silent failure pass (stand-in
// scripts play ASTRA-sim), and, where ASTRA-sim is installed, the figures of
// ../shared/traces/astra-sim/README.md reproduced with the README's configurations.
#include "simulate/astra_sim_engine.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

#include "test_support.h"

namespace sutra {
namespace {
namespace fs = std::filesystem;

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Sets an environment variable for one test, restoring it afterwards.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

class AstraSimEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sutra_astra_engine_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }
  // A stand-in for ASTRA-sim: a shell script (the engine itself starts it with no shell).
  std::string script(const std::string& name, const std::string& body) const {
    const std::string p = write(name, "#!/bin/sh\n" + body);
    ::chmod(p.c_str(), 0755);
    return p;
  }
  AstraSimInputs inputs(int npus) const {
    return {path("w"), path("s.json"), path("n.yml"), path("m.json"), npus};
  }
  fs::path dir_;
};

TEST(AstraSimLog, ReadsEachRanksFinishTimeFromASampleLog) {
  const auto ranks = parseAstraSimLog(slurp(test::fixture("astra_sim/finished_3_of_4.log")));
  ASSERT_EQ(ranks.size(), 3u);  // rank 2 never finished
  EXPECT_EQ(ranks[0].rank, 0);
  EXPECT_EQ(ranks[0].cycles, 64744);
  EXPECT_EQ(ranks[1].rank, 1);
  EXPECT_EQ(ranks[2].rank, 3);
  EXPECT_EQ(ranks[2].cycles, 90174);
  ASSERT_TRUE(ranks[2].exposedComm);
  EXPECT_EQ(*ranks[2].exposedComm, 41174);
}

TEST(AstraSimLog, IgnoresColourCodesAndReadsTheLastLineOfARank) {
  const auto ranks = parseAstraSimLog(
      "\x1b[32m[info]\x1b[m sys[0] finished, 10 cycles, exposed communication 4 cycles.\n"
      "sys[0] finished, 12 cycles.\nsys[99999999999999999999] finished, 1 cycles\n");
  ASSERT_EQ(ranks.size(), 1u);
  EXPECT_EQ(ranks[0].cycles, 12);
  EXPECT_FALSE(ranks[0].exposedComm);
}

TEST_F(AstraSimEngine, AbsentBinarySaysHowToPointSutraAtIt) {
  {
    ScopedEnv env(kAstraSimEnvironment, std::nullopt);
    ScopedEnv path("PATH", dir_.string());
    auto found = findAstraSimBinary();
    ASSERT_FALSE(found);
    EXPECT_NE(found.error().message.find("ASTRA_SIM="), std::string::npos);
    EXPECT_NE(found.error().message.find("on PATH"), std::string::npos);
    const std::string onPath = script(kAstraSimBinaryName, "exit 0\n");
    auto again = findAstraSimBinary();
    ASSERT_TRUE(again) << again.error().message;
    EXPECT_EQ(*again, onPath);
  }
  ScopedEnv env(kAstraSimEnvironment, write("not_executable", "x"));
  auto found = findAstraSimBinary();
  ASSERT_FALSE(found);
  EXPECT_NE(found.error().message.find("not an executable"), std::string::npos);
}

TEST_F(AstraSimEngine, PassesItsFilesAndReadsEveryRank) {
  const std::string fake =
      script("astra", "echo \"$@\" > " + path("args") +
                          "\necho 'sys[1] finished, 20 cycles, exposed communication 5 cycles.'"
                          "\necho 'sys[0] finished, 10 cycles, exposed communication 5 cycles.' "
                          ">&2\n");
  auto run = runAstraSim(fake, inputs(2));
  ASSERT_TRUE(run) << run.error().message;
  ASSERT_EQ(run->ranks.size(), 2u);
  EXPECT_EQ(run->ranks[0].cycles, 10);
  EXPECT_EQ(run->ranks[1].cycles, 20);
  const std::string args = slurp(path("args"));
  const std::vector<std::string> flags = {
      "--workload-configuration=" + path("w"), "--system-configuration=" + path("s.json"),
      "--network-configuration=" + path("n.yml"), "--remote-memory-configuration=" + path("m.json"),
      "--logging-folder="};
  for (const auto& flag : flags)
    EXPECT_NE(args.find(flag), std::string::npos) << flag << " in " << args;
}

TEST_F(AstraSimEngine, ARankThatNeverFinishesIsAnErrorNamingIt) {
  const std::string fake =
      script("astra", "cat " + test::fixture("astra_sim/finished_3_of_4.log") + "\nexit 0\n");
  auto run = runAstraSim(fake, inputs(4));
  ASSERT_FALSE(run);
  EXPECT_NE(run.error().message.find("rank 2 never finished"), std::string::npos)
      << run.error().message;
  EXPECT_NE(run.error().message.find("num_ops not found"), std::string::npos);
}

TEST_F(AstraSimEngine, FailureAndTimeoutAreErrors) {
  auto failed = runAstraSim(script("fails", "echo 'bad network file' >&2\nexit 3\n"), inputs(2));
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().message.find("status 3"), std::string::npos);
  EXPECT_NE(failed.error().message.find("bad network file"), std::string::npos);

  AstraSimRunOptions quick;
  quick.timeout = std::chrono::milliseconds(300);
  auto slow = runAstraSim(script("slow", "exec sleep 30\n"), inputs(2), quick);
  ASSERT_FALSE(slow);
  EXPECT_NE(slow.error().message.find("time limit"), std::string::npos);

  auto missing = runAstraSim(path("no_such_binary"), inputs(2));
  ASSERT_FALSE(missing);
}

TEST_F(AstraSimEngine, CancellingStopsTheRun) {
  AstraSimRunOptions options;
  const auto start = std::chrono::steady_clock::now();
  options.keepGoing = [start] {
    return std::chrono::steady_clock::now() - start < std::chrono::milliseconds(200);
  };
  auto canceled = runAstraSim(script("slow", "exec sleep 30\n"), inputs(2), options);
  ASSERT_FALSE(canceled);
  EXPECT_NE(canceled.error().message.find("cancelled"), std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

TEST_F(AstraSimEngine, FindsAnExportByItsPrefixOrItsFolder) {
  for (const char* name : {"run.0.et", "run.1.et", "run.network.yml", "run.system.json"})
    write(name, "x");
  auto noMemory = astraSimInputsForExport(path("run"));
  ASSERT_FALSE(noMemory);
  EXPECT_NE(noMemory.error().message.find("run.memory.json"), std::string::npos);
  write("run.memory.json", "{}");
  write("other.0.et", "x");  // no configurations: the configured export is the folder's
  auto byFolder = astraSimInputsForExport(dir_.string());
  ASSERT_TRUE(byFolder) << byFolder.error().message;
  EXPECT_EQ(byFolder->workload, path("run"));
  EXPECT_EQ(byFolder->npus, 2);
  EXPECT_EQ(byFolder->network, path("run.network.yml"));
  EXPECT_FALSE(astraSimInputsForExport(path("nothing")));
}

// The configurations of ../shared/traces/astra-sim/README.md.
void writeReadmeConfigs(AstraSimInputs& in, int npus, const std::string& dir) {
  in.network = dir + "/network.yml";
  in.system = dir + "/system.json";
  in.memory = dir + "/memory.json";
  in.npus = npus;
  std::ofstream(in.network) << "topology: [ Ring ]\nnpus_count: [ " << npus
                            << " ]\nbandwidth: [ 50.0 ]\nlatency: [ 500.0 ]\n";
  std::ofstream(in.system)
      << R"({"scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
 "preferred-dataset-splits": 4, "all-reduce-implementation": ["ring"],
 "all-gather-implementation": ["ring"], "reduce-scatter-implementation": ["ring"],
 "all-to-all-implementation": ["ring"], "collective-optimization": "localBWAware",
 "local-mem-bw": 1600, "boost-mode": 0, "roofline-enabled": 0, "peak-perf": 900})";
  std::ofstream(in.memory) << R"({"memory-type": "NO_MEMORY_EXPANSION"})";
}

TEST_F(AstraSimEngine, ReproducesTheReadmesFiguresOnTheSharedTraces) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto binary = findAstraSimBinary();
  if (!binary) GTEST_SKIP() << "ASTRA-sim is absent (" << binary.error().message << ")";
  struct Case {
    const char* workload;
    int npus;
    std::int64_t cycles;
    std::int64_t exposed;
  };
  for (const Case& c :
       {Case{"astra-sim/all_gather_4npus/all_gather", 4, 64744, 64744},
        Case{"astra-sim/custom_allreduce_8npus/custom_allreduce", 8, 90174, 41174}}) {
    SCOPED_TRACE(c.workload);
    AstraSimInputs in;
    in.workload = test::sharedTrace(c.workload);
    writeReadmeConfigs(in, c.npus, dir_.string());
    auto run = runAstraSim(*binary, in);
    ASSERT_TRUE(run) << run.error().message;
    ASSERT_EQ(run->ranks.size(), static_cast<std::size_t>(c.npus));
    for (const auto& rank : run->ranks) {
      EXPECT_EQ(rank.cycles, c.cycles) << "rank " << rank.rank;
      ASSERT_TRUE(rank.exposedComm);
      EXPECT_EQ(*rank.exposedComm, c.exposed) << "rank " << rank.rank;
    }
  }
}

}  // namespace
}  // namespace sutra
