// SPDX-License-Identifier: MIT
#include "util/mapped_array.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "test_support.h"

namespace sutra {
namespace {

struct Pair {
  std::uint64_t key;
  std::uint32_t value;
};

TEST(MappedArray, GrowsPastSeveralRemapsKeepingEveryValue) {
  MappedArray<Pair> values;
  EXPECT_TRUE(values.empty());
  constexpr std::uint32_t kCount = 300'000;  // 4.8 MB: the 1 MB first mapping grows three times
  for (std::uint32_t i = 0; i < kCount; ++i) values.push_back({kCount - i, i});
  const Pair more[] = {{0, 7}, {0, 8}};
  values.append(more, 2);
  ASSERT_EQ(values.size(), kCount + 2);
  for (std::uint32_t i = 0; i < kCount; i += 997) EXPECT_EQ(values[i].value, i);
  EXPECT_EQ(values[kCount + 1].value, 8u);
  // begin() and end() make it a range for the standard algorithms (the flow ends are sorted so).
  std::sort(values.begin(), values.end(),
            [](const Pair& a, const Pair& b) { return a.key < b.key; });
  EXPECT_EQ(values[2].key, 1u);
  EXPECT_EQ(values[2].value, kCount - 1);
}

TEST(MappedArray, MovesAndDrainsIntoAVector) {
  MappedArray<Pair> source;
  for (std::uint32_t i = 0; i < 100'000; ++i) source.push_back({i, i * 2});
  MappedArray<Pair> moved(std::move(source));
  EXPECT_TRUE(source.empty());  // NOLINT(bugprone-use-after-move): moved-from is empty
  ASSERT_EQ(moved.size(), 100'000u);
  MappedArray<Pair> assigned;
  assigned.push_back({1, 1});
  assigned = std::move(moved);
  ASSERT_EQ(assigned.size(), 100'000u);

  std::vector<Pair> out = {{9, 9}};
  assigned.drainInto(out);
  EXPECT_TRUE(assigned.empty());
  ASSERT_EQ(out.size(), 100'001u);
  EXPECT_EQ(out[1].value, 0u);
  EXPECT_EQ(out.back().value, 2u * 99'999);

  assigned.push_back({3, 3});  // usable again after a drain, and after clear()
  assigned.clear();
  EXPECT_TRUE(assigned.empty());
  assigned.push_back({4, 4});
  EXPECT_EQ(assigned[0].key, 4u);
}

// The file-backed array a streaming load spills to: its values survive having their pages
// unmapped (they come back from the file), and it leaves no file behind in its folder.
TEST(MappedArray, AFileBackedArrayKeepsItsValuesThroughDroppedPagesAndLeavesNoFile) {
  // A folder of its own: other tests write to the temp directory meanwhile.
  const sutra::test::TempDir dir;  // removed with what is left in it
  const std::string folder = dir.path().string();
  const auto filesBefore = std::distance(std::filesystem::directory_iterator(folder),
                                         std::filesystem::directory_iterator());
  {
    auto values = MappedArray<Pair>::fileBacked(folder);
    EXPECT_TRUE(values.isFileBacked());
    constexpr std::uint32_t kCount = 200'000;
    for (std::uint32_t i = 0; i < kCount; ++i) {
      values.push_back({i, i + 1});
      if (i % 10'000 == 0) values.dropResidentBefore(values.size());
    }
    values.dropResident(0, values.size());
    for (std::uint32_t i = 0; i < kCount; i += 331) EXPECT_EQ(values[i].value, i + 1);
    std::vector<Pair> out;
    values.drainInto(out);
    ASSERT_EQ(out.size(), kCount);
    EXPECT_EQ(out.back().key, kCount - 1);
  }
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder),
                          std::filesystem::directory_iterator()),
            filesBefore);
  EXPECT_THROW(MappedArray<Pair>::fileBacked("/dev/full/none"), std::runtime_error);
}

// A trace cache being written lends regions of its file to a streaming load's arrays: each grows
// in its own region, from its page boundary, and none truncates or closes the file it shares.
TEST(MappedArray, ArraysInRegionsOfAFileTheyShareKeepTheirValuesThereAndLeaveTheFile) {
  const sutra::test::TempDir dir;  // removed with what is left in it
  const std::string folder = dir.path().string();
  const std::string path = folder + "/shared";
  const int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  constexpr std::uint32_t kCount = 100'000;  // grown several times past the first megabyte
  const std::uint64_t secondOffset = page + ((kCount * sizeof(Pair) + page - 1) / page) * page;
  {
    auto first = MappedArray<Pair>::inFile({fd, page});
    for (std::uint32_t i = 0; i < kCount; ++i) first.push_back({i, 2 * i});
    auto second = MappedArray<Pair>::inFile({fd, secondOffset});
    for (std::uint32_t i = 0; i < 10; ++i) second.push_back({i, 3 * i});
    first.dropResident(0, first.size());  // back from the file when read
    EXPECT_EQ(first[kCount - 1].value, 2 * (kCount - 1));
    EXPECT_EQ(second[9].value, 27u);
  }
  struct stat st {};
  ASSERT_EQ(::fstat(fd, &st), 0);  // still open, and not cut short
  EXPECT_GE(static_cast<std::uint64_t>(st.st_size), secondOffset + 10 * sizeof(Pair));
  Pair read{};
  ASSERT_EQ(::pread(fd, &read, sizeof read, static_cast<off_t>(page + 7 * sizeof(Pair))),
            static_cast<ssize_t>(sizeof read));
  EXPECT_EQ(read.value, 14u);
  ASSERT_EQ(::pread(fd, &read, sizeof read, static_cast<off_t>(secondOffset + 9 * sizeof(Pair))),
            static_cast<ssize_t>(sizeof read));
  EXPECT_EQ(read.value, 27u);
  EXPECT_THROW(MappedArray<Pair>::inFile({fd, 100}), std::runtime_error);  // not a page boundary
  EXPECT_THROW(MappedArray<Pair>::inFile({-1, 0}), std::runtime_error);
  ::close(fd);
}

// A file-backed array's pages are written into its file before any value is (never faulted in as
// holes of the file): the file holds the whole capacity, its blocks claimed, and values moved in
// from another array are written there, in order, with the mapping left where it was.
TEST(MappedArray, AFileBackedArrayIsWrittenIntoItsFileAheadOfItsValuesAndAppendsMovedValues) {
  const sutra::test::TempDir dir;  // removed with what is left in it
  const std::string folder = dir.path().string();
  const std::string path = folder + "/region";
  const int fd = ::open(path.c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0600);
  ASSERT_GE(fd, 0);
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  {
    auto grown = MappedArray<Pair>::inFile({fd, page});
    for (std::uint32_t i = 0; i < 70'000; ++i) grown.push_back({i, i});
    struct stat st {};
    ASSERT_EQ(::fstat(fd, &st), 0);
    EXPECT_GE(static_cast<std::uint64_t>(st.st_size), page + grown.capacity() * sizeof(Pair));
    EXPECT_GE(static_cast<std::uint64_t>(st.st_blocks) * 512, grown.capacity() * sizeof(Pair));

    auto spilled = MappedArray<Pair>::fileBacked(folder);
    auto inMemory = MappedArray<Pair>();
    for (std::uint32_t i = 0; i < 50'000; ++i) spilled.push_back({i, 3 * i});
    spilled.dropResidentBefore(spilled.size());  // read back from its file
    for (std::uint32_t i = 0; i < 20'000; ++i) inMemory.push_back({i, 5 * i});
    const std::uint64_t movedOffset = page + (grown.size() * sizeof(Pair) + page - 1) / page * page;
    auto moved = MappedArray<Pair>::inFile({fd, movedOffset});
    moved.mapAhead(70'000);
    const Pair* at = moved.data();
    moved.appendMovedFrom(spilled);
    moved.appendMovedFrom(inMemory);
    EXPECT_EQ(moved.data(), at);
    EXPECT_TRUE(spilled.empty());
    EXPECT_TRUE(inMemory.empty());
    ASSERT_EQ(moved.size(), 70'000u);
    moved.prefault(0, moved.size());
    EXPECT_EQ(moved[49'999].value, 3u * 49'999);
    EXPECT_EQ(moved[50'000].value, 0u);
    EXPECT_EQ(moved[69'999].value, 5u * 19'999);
    moved.push_back({1, 7});  // grows past what was moved, in the file
    moved.dropResident(0, moved.size());
    EXPECT_EQ(moved[70'000].value, 7u);
    Pair read{};
    ASSERT_EQ(
        ::pread(fd, &read, sizeof read, static_cast<off_t>(movedOffset + 60'000 * sizeof(Pair))),
        static_cast<ssize_t>(sizeof read));
    EXPECT_EQ(read.value, 5u * 10'000);
    EXPECT_EQ(grown[69'999].value, 69'999u);  // the first region untouched by the second
  }
  ::close(fd);
}

// Where the file can take no more (a full disk; here a file size limit), growing a file-backed
// array throws, before any value is written to a page the file does not have: never a SIGBUS.
TEST(MappedArray, AFileBackedArrayThatCannotGrowThrowsInsteadOfDyingAtAWrite) {
  const sutra::test::TempDir dir;  // removed with what is left in it
  const std::string folder = dir.path().string();
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {  // the limit is the child's alone
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{rlim_t{4} << 20, rlim_t{4} << 20};
    if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(3);
    auto values = MappedArray<Pair>::fileBacked(folder);
    try {
      for (std::uint32_t i = 0; i < 1'000'000; ++i) values.push_back({i, i});
    } catch (const std::runtime_error& e) {
      ::_exit(std::string(e.what()).find("cannot grow") != std::string::npos ? 0 : 4);
    }
    ::_exit(5);  // 16 MB went into a file limited to 4 MB
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace sutra
