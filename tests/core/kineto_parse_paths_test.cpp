// SPDX-License-Identifier: MIT
// The Kineto reader's two parse paths give the same model: every file read with the fast scanner
// where it can (the default) and with simdjson alone (KinetoReadOptions::fastScanner off) must give
// the same trace, problems and their examples included, or the same error. The files: every
// Kineto fixture, bad input and fuzz seed, the real traces in ../shared where present, and files
// in small chunks, where a small input takes a large one's paths.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "io/kineto_reader.h"
#include "support/trace_digest.h"
#include "test_support.h"

namespace sutra {
namespace {

namespace fs = std::filesystem;

// The model's digest, or the error message.
std::string outcome(const std::string& path, bool fastScanner, std::size_t chunkBytes) {
  KinetoReadOptions options;
  options.fastScanner = fastScanner;
  options.chunkBytes = chunkBytes;
  auto trace = readKinetoTrace(path, options);
  if (!trace) return "error: " + trace.error().message;
  char digest[20];
  std::snprintf(digest, sizeof digest, "%016llx",
                static_cast<unsigned long long>(test::traceDigest(*trace)));
  return digest;
}

std::vector<std::string> filesIn(const fs::path& dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(dir)) files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(KinetoParsePaths, FixturesBadInputsAndFuzzSeedsGiveTheSameModel) {
  std::vector<std::string> files = filesIn(test::fixture("kineto"));
  for (const auto& dir :
       {fs::path(test::fixture("bad")), fs::path(SUTRA_SOURCE_DIR) / "tests/fuzz/corpus/kineto"})
    for (auto& f : filesIn(dir)) files.push_back(std::move(f));
  ASSERT_GE(files.size(), 62u);
  for (const auto& file : files)
    for (const std::size_t chunk : {std::size_t{512} << 10, std::size_t{64}}) {
      const std::string fast = outcome(file, true, chunk);
      EXPECT_EQ(fast, outcome(file, false, chunk)) << file << " in chunks of " << chunk;
    }
}

// Read without the events' args (compare's tables need none), a file gives the same model but for
// them, the same error, and no complete event keeps args; instants keep theirs (memory events).
void expectSameModelWithoutEventArgs(const std::string& path) {
  auto full = readKinetoTrace(path, KinetoReadOptions{});
  KinetoReadOptions noArgs;
  noArgs.eventArgs = false;
  auto lean = readKinetoTrace(path, noArgs);
  ASSERT_EQ(full.ok(), lean.ok()) << path;
  if (!full) {
    EXPECT_EQ(full.error().message, lean.error().message) << path;
    return;
  }
  EXPECT_TRUE(full->eventArgsRead);
  EXPECT_FALSE(lean->eventArgsRead);
  EXPECT_EQ(test::traceDigest(*full, true, false), test::traceDigest(*lean, true, false)) << path;
  for (const Event& e : lean->events) ASSERT_EQ(e.args, kNoArgs) << path;
  std::size_t instantArgs = 0;
  for (const Instant& i : full->instants) instantArgs += i.args != kNoArgs;
  EXPECT_EQ(lean->args.size(), instantArgs) << path;
}

TEST(KinetoParsePaths, WithoutEventArgsTheSameModelButThem) {
  std::vector<std::string> files = filesIn(test::fixture("kineto"));
  for (const auto& dir :
       {fs::path(test::fixture("bad")), fs::path(SUTRA_SOURCE_DIR) / "tests/fuzz/corpus/kineto"})
    for (auto& f : filesIn(dir)) files.push_back(std::move(f));
  std::size_t withArgs = 0;
  for (const auto& file : files) {
    expectSameModelWithoutEventArgs(file);
    auto full = readKinetoTrace(file, KinetoReadOptions{});
    if (full && full->args.size() > full->instants.size()) ++withArgs;
  }
  EXPECT_GE(withArgs, 12u);  // fixtures with args to leave out (15 today)
}

TEST(KinetoParsePaths, RealTracesGiveTheSameModel) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const char* files[] = {
      "hta/amd/mi250_minitoy_train_rocm6.2.json.gz",
      "hta/critical_path/alexnet.json.gz",
      "hta/mtia/mtia_inference_rank_0.json.gz",
      "hta/triton/triton_example.json.gz",
      "kineto/h100_before_fix_trace.json",
      "kineto/resnet50_2020_top_level_array.pt.trace.json.gz",
      "param/linear_kineto.json.gz",
  };
  for (const char* file : files) {
    const std::string path = test::sharedTrace(file);
    const std::string fast = outcome(path, true, 512 << 10);
    EXPECT_EQ(fast.rfind("error", 0), std::string::npos) << file << ": " << fast;
    EXPECT_EQ(fast, outcome(path, false, 512 << 10)) << file;
    expectSameModelWithoutEventArgs(path);
  }
}

}  // namespace
}  // namespace sutra
