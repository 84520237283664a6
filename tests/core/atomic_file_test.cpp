// SPDX-License-Identifier: MIT
// Every export goes through AtomicFile: whole files or nothing, never over an input.
#include "util/atomic_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace sutra {
namespace {
namespace fs = std::filesystem;

class AtomicFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sutra_atomic_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  std::size_t entries() const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(dir_), fs::directory_iterator()));
  }
  fs::path dir_;
};

TEST_F(AtomicFileTest, WritesTheWholeFileOnlyAtCommit) {
  auto file = AtomicFile::create(path("out.json"));
  ASSERT_TRUE(file) << file.error().message;
  ASSERT_TRUE(file->write("{\"a\":"));
  ASSERT_TRUE(file->write("1}"));
  EXPECT_FALSE(fs::exists(path("out.json")));  // only the temporary file so far
  ASSERT_TRUE(file->commit());
  EXPECT_EQ(slurp(path("out.json")), "{\"a\":1}");
  EXPECT_EQ(entries(), 1u);  // no temporary file left
}

// A file that proves itself when read (the trace cache) is not synced to the disk, and is still
// all or nothing: the old target until commit, then the whole new file and no temporary.
TEST_F(AtomicFileTest, ANonDurableFileIsStillReplacedWholeAtCommit) {
  ASSERT_TRUE(writeFileAtomically(path("cache.bin"), "old"));
  AtomicFileOptions options;
  options.durable = false;
  auto file = AtomicFile::create(path("cache.bin"), options);
  ASSERT_TRUE(file) << file.error().message;
  ASSERT_TRUE(file->write("new "));
  ASSERT_TRUE(file->write("bytes"));
  EXPECT_EQ(slurp(path("cache.bin")), "old");
  ASSERT_TRUE(file->commit());
  EXPECT_EQ(slurp(path("cache.bin")), "new bytes");
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicFileTest, AnUncommittedFileLeavesTheOldTargetAndNoTemporary) {
  ASSERT_TRUE(writeFileAtomically(path("out.json"), "old"));
  {
    auto file = AtomicFile::create(path("out.json"));
    ASSERT_TRUE(file);
    ASSERT_TRUE(file->write("half of the new"));
  }  // dropped without commit, as after an error or a cancel
  EXPECT_EQ(slurp(path("out.json")), "old");
  EXPECT_EQ(entries(), 1u);
}

// A writer killed outright (SIGKILL: a crash, an out-of-memory kill during a long streaming load)
// runs no cleanup: where the file system makes unnamed files, its temporary never had a name.
TEST_F(AtomicFileTest, AWriterKilledBeforeItsCommitLeavesNothingWhereFilesCanBeUnnamed) {
  const int probe = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (probe < 0) GTEST_SKIP() << dir_ << " makes no unnamed files (O_TMPFILE)";
  ::close(probe);
  ASSERT_TRUE(writeFileAtomically(path("out.json"), "old"));
  const pid_t child = ::fork();
  if (child == 0) {
    auto file = AtomicFile::create(path("out.json"));
    if (file && file->write("half of the new")) ::raise(SIGKILL);
    ::_exit(1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(slurp(path("out.json")), "old");
  EXPECT_EQ(entries(), 1u);
  // And a committed one is whole, under its name, with the usual permissions.
  ASSERT_TRUE(writeFileAtomically(path("out.json"), "new"));
  EXPECT_EQ(slurp(path("out.json")), "new");
  EXPECT_EQ(fs::status(path("out.json")).permissions() & fs::perms::all,
            fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read |
                fs::perms::others_read);
  EXPECT_EQ(entries(), 1u);
}

TEST_F(AtomicFileTest, RefusesToOverwriteAnInputEvenByAnotherName) {
  ASSERT_TRUE(writeFileAtomically(path("input.json"), "the input"));
  fs::create_hard_link(path("input.json"), path("alias.json"));
  AtomicFileOptions options;
  options.protectedPaths = {path("input.json")};
  auto refused = writeFileAtomically(path("alias.json"), "oops", options);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            path("alias.json") + ": refusing to overwrite an input (" + path("input.json") + ")");
  EXPECT_EQ(slurp(path("input.json")), "the input");
  EXPECT_TRUE(writeFileAtomically(path("other.json"), "fine", options));
}

TEST_F(AtomicFileTest, NamesTheProblemForADirectoryAndCreatesAMissingFolder) {
  auto dirTarget = writeFileAtomically(dir_.string(), "x");
  ASSERT_FALSE(dirTarget);
  EXPECT_EQ(dirTarget.error().message, dir_.string() + ": is a directory");
  const std::string missing = path("no/such/folder/out.json");
  ASSERT_TRUE(writeFileAtomically(missing, "x"));
  EXPECT_EQ(slurp(missing), "x");
}

TEST_F(AtomicFileTest, GzipStreamsInflateToWhatWasWritten) {
  AtomicFileOptions options;
  options.gzip = hasGzipSuffix(path("out.json.gz"));
  ASSERT_TRUE(options.gzip);
  EXPECT_FALSE(hasGzipSuffix("trace.json"));
  std::string expected;
  auto file = AtomicFile::create(path("out.json.gz"), options);
  ASSERT_TRUE(file);
  for (int i = 0; i < 10000; ++i) {
    const std::string line = "line " + std::to_string(i) + "\n";
    expected += line;
    ASSERT_TRUE(file->write(line));
  }
  ASSERT_TRUE(file->commit());
  gzFile in = gzopen(path("out.json.gz").c_str(), "rb");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(gzdirect(in), 0);  // really compressed
  std::string got(expected.size() + 16, '\0');
  const int n = gzread(in, got.data(), static_cast<unsigned>(got.size()));
  gzclose(in);
  got.resize(static_cast<std::size_t>(n));
  EXPECT_EQ(got, expected);
}

}  // namespace
}  // namespace sutra
