// SPDX-License-Identifier: MIT
// The trace cache (io/trace_cache.h): the model it gives back is the parse's, field by field, on
// every fixture and real trace; a cache of another version or another file, a truncated or damaged
// one, and one whose writer was killed halfway are never trusted; a folder that cannot be written
// leaves the trace in memory with a note.
#include "io/trace_cache.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "io/readers.h"
#include "support/trace_digest.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using sutra::CachedTraceRead;
using sutra::KinetoReadOptions;
using sutra::TraceCacheOptions;

TraceCacheOptions cacheIn(const sutra::test::TempDir& dir) {
  TraceCacheOptions options;
  options.minFileBytes = 0;  // the fixtures are small
  options.folder = dir.file("cache");
  return options;
}

CachedTraceRead openCached(const std::string& path, const TraceCacheOptions& cache) {
  return sutra::readKinetoTraceCached(path, KinetoReadOptions{}, {}, cache);
}

std::uint64_t parsedDigest(const std::string& path) {
  auto trace = sutra::readKinetoTrace(path);
  EXPECT_TRUE(trace) << path << ": " << trace.error().message;
  return trace ? sutra::test::traceDigest(*trace) : 0;
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

enum class Load { InMemory, Streaming };

// Parses `path` and writes its cache (in memory, or by the streaming load straight into the
// cache), then reads the cache back: every model must be the parse's. A reopen copies no column
// out of the mapping.
void expectCacheEqualsParse(const std::string& path, const sutra::test::TempDir& dir,
                            Load load = Load::InMemory) {
  TraceCacheOptions cache = cacheIn(dir);
  cache.streamFromBytes = load == Load::Streaming ? 0 : UINT64_MAX;
  const std::uint64_t parsed = parsedDigest(path);
  auto first = openCached(path, cache);
  ASSERT_TRUE(first.trace) << path << ": " << first.trace.error().message;
  EXPECT_FALSE(first.fromCache) << path;
  EXPECT_EQ(first.note, "") << path;
  EXPECT_EQ(sutra::test::traceDigest(*first.trace), parsed) << path;
  EXPECT_EQ(first.trace->events.isMapped(), load == Load::Streaming) << path;
  const auto copiesBefore = sutra::mappedColumnCopies();
  auto again = openCached(path, cache);
  ASSERT_TRUE(again.trace) << path;
  EXPECT_TRUE(again.fromCache) << path;
  EXPECT_EQ(again.trace->path, path);
  EXPECT_EQ(sutra::test::traceDigest(std::as_const(*again.trace)), parsed) << path;
  EXPECT_TRUE(again.trace->events.isMapped() || again.trace->events.empty()) << path;
  EXPECT_EQ(sutra::mappedColumnCopies().values, copiesBefore.values) << path;
}

TEST(TraceCache, ModelFromTheCacheIsTheParsedModelOnEveryFixture) {
  sutra::test::TempDir dir;
  int files = 0;
  for (const auto& entry : fs::directory_iterator(sutra::test::fixture("kineto"))) {
    expectCacheEqualsParse(entry.path().string(), dir);
    ++files;
  }
  EXPECT_GE(files, 7);
}

// Every Kineto trace of ../shared/traces: CUDA, ROCm, MTIA, CPU only, Triton, param's.
constexpr const char* kRealTraces[] = {"hta/amd/mi250_minitoy_train_rocm6.2.json.gz",
                                       "hta/cpu_only/rank-34.pt.trace.json.gz",
                                       "hta/critical_path/alexnet.json.gz",
                                       "hta/critical_path/cuda_event_sync.json.gz",
                                       "hta/critical_path/cuda_event_sync_multi_stream.json.gz",
                                       "hta/critical_path/simple_add.json.gz",
                                       "hta/execution_trace/simple_add_kineto.json.gz",
                                       "hta/mtia/mtia_inference_rank_0.json.gz",
                                       "hta/trace_compare/base.json.gz",
                                       "hta/trace_compare/test.json.gz",
                                       "hta/triton/triton_example.json.gz",
                                       "param/linear_kineto.json.gz"};

TEST(TraceCache, ModelFromTheCacheIsTheParsedModelOnEveryRealTrace) {
  SUTRA_REQUIRE_SHARED_TRACES();
  sutra::test::TempDir dir;
  for (const char* file : kRealTraces) expectCacheEqualsParse(sutra::test::sharedTrace(file), dir);
}

TEST(TraceCache, TheStreamingLoadGivesTheParsedModelOnEveryFixture) {
  sutra::test::TempDir dir;
  for (const auto& entry : fs::directory_iterator(sutra::test::fixture("kineto")))
    expectCacheEqualsParse(entry.path().string(), dir, Load::Streaming);
  // Its temporary files were unnamed: nothing but the caches is left in the folder.
  for (const auto& entry : fs::directory_iterator(dir.file("cache")))
    EXPECT_EQ(entry.path().extension(), ".sutracache") << entry.path();
}

TEST(TraceCache, TheStreamingLoadGivesTheParsedModelOnEveryRealTrace) {
  SUTRA_REQUIRE_SHARED_TRACES();
  sutra::test::TempDir dir;
  for (const char* file : kRealTraces)
    expectCacheEqualsParse(sutra::test::sharedTrace(file), dir, Load::Streaming);
}

TEST(TraceCache, AStreamingLoadWithoutRoomReadsIntoMemoryWithANote) {
  sutra::test::TempDir dir;
  TraceCacheOptions cache = cacheIn(dir);
  cache.streamFromBytes = 0;
  // /dev/full takes no file; a folder under it cannot be made: the load falls back to memory.
  cache.folder = "/dev/full/cache";
  const std::string path = sutra::test::fixture("kineto/basic.json");
  auto read = openCached(path, cache);
  ASSERT_TRUE(read.trace) << read.trace.error().message;
  EXPECT_FALSE(read.trace->events.isMapped());
  EXPECT_NE(read.note.find("read into memory instead"), std::string::npos) << read.note;
  EXPECT_EQ(sutra::test::traceDigest(*read.trace), parsedDigest(path));
}

TEST(TraceCache, AnInputTheReaderRefusesWritesNoCache) {
  sutra::test::TempDir dir;
  TraceCacheOptions cache = cacheIn(dir);
  for (const std::uint64_t streamFrom : {UINT64_MAX, std::uint64_t{0}}) {
    cache.streamFromBytes = streamFrom;
    for (const auto& entry : fs::directory_iterator(sutra::test::fixture("bad"))) {
      if (!entry.is_regular_file()) continue;
      auto read = openCached(entry.path().string(), cache);
      if (read.trace) continue;  // some bad inputs load with problems
      EXPECT_EQ(read.note, "") << entry.path() << ": the file's own error, not the cache's";
      EXPECT_FALSE(fs::exists(sutra::traceCachePath(entry.path().string(), cache.folder)))
          << entry.path();
    }
  }
}

TEST(TraceCache, ACacheOfAnotherFormatVersionIsRefusedAndRebuilt) {
  sutra::test::TempDir dir;
  const std::string source = dir.file("basic.json");
  fs::copy_file(sutra::test::fixture("kineto/basic.json"), source);
  const TraceCacheOptions cache = cacheIn(dir);
  ASSERT_TRUE(openCached(source, cache).trace);
  const std::string cachePath = sutra::traceCachePath(source, cache.folder);
  std::string bytes = readAll(cachePath);
  ASSERT_GT(bytes.size(), 12u);
  const std::uint32_t older = sutra::kTraceCacheFormatVersion - 1;
  std::memcpy(bytes.data() + 8, &older, sizeof older);  // the header's version field
  writeAll(cachePath, bytes);
  auto identity = sutra::sourceIdentity(source);
  ASSERT_TRUE(identity);
  auto refused = sutra::readTraceCache(cachePath, *identity, source);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("format version"), std::string::npos)
      << refused.error().message;
  auto rebuilt = openCached(source, cache);
  ASSERT_TRUE(rebuilt.trace);
  EXPECT_FALSE(rebuilt.fromCache);
  auto reopened = openCached(source, cache);
  EXPECT_TRUE(reopened.fromCache);
  EXPECT_EQ(sutra::test::traceDigest(*reopened.trace), parsedDigest(source));
}

TEST(TraceCache, ACacheOfAnotherFileUnderTheSameNameIsRefused) {
  sutra::test::TempDir dir;
  const std::string source = dir.file("trace.json");
  fs::copy_file(sutra::test::fixture("kineto/basic.json"), source);
  const TraceCacheOptions cache = cacheIn(dir);
  ASSERT_TRUE(openCached(source, cache).trace);
  ASSERT_TRUE(openCached(source, cache).fromCache);

  // Other content under the same name: refused, and the new file's model comes back.
  fs::copy_file(sutra::test::fixture("kineto/memory_events.json"), source,
                fs::copy_options::overwrite_existing);
  auto other = openCached(source, cache);
  ASSERT_TRUE(other.trace);
  EXPECT_FALSE(other.fromCache);
  EXPECT_EQ(sutra::test::traceDigest(*other.trace), parsedDigest(source));
  ASSERT_TRUE(openCached(source, cache).fromCache);

  // The same bytes with another mtime: refused too (the identity is size, mtime and content).
  fs::last_write_time(source, fs::last_write_time(source) + std::chrono::seconds(5));
  auto identity = sutra::sourceIdentity(source);
  ASSERT_TRUE(identity);
  auto refused =
      sutra::readTraceCache(sutra::traceCachePath(source, cache.folder), *identity, source);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("another version"), std::string::npos)
      << refused.error().message;
  EXPECT_FALSE(openCached(source, cache).fromCache);
}

TEST(TraceCache, ATruncatedOrDamagedCacheIsDetected) {
  sutra::test::TempDir dir;
  const std::string source = sutra::test::fixture("kineto/memory_events.json");
  const TraceCacheOptions cache = cacheIn(dir);
  ASSERT_TRUE(openCached(source, cache).trace);
  const std::string cachePath = sutra::traceCachePath(source, cache.folder);
  const std::string good = readAll(cachePath);
  auto identity = sutra::sourceIdentity(source);
  ASSERT_TRUE(identity);
  ASSERT_TRUE(sutra::readTraceCache(cachePath, *identity, source));
  // Cut anywhere: at the end, in the middle, just after the header.
  for (std::size_t keep : {good.size() - 1, good.size() / 2, std::size_t{64}, std::size_t{0}}) {
    writeAll(cachePath, good.substr(0, keep));
    EXPECT_FALSE(sutra::readTraceCache(cachePath, *identity, source)) << "kept " << keep;
  }
  // One byte changed, anywhere past the header (blocks, the padding between them, directory,
  // footer).
  std::size_t refusedFlips = 0, flips = 0;
  for (std::size_t at = 64; at < good.size(); at += 7) {
    std::string bad = good;
    bad[at] = static_cast<char>(bad[at] ^ 0x20);
    writeAll(cachePath, bad);
    ++flips;
    if (!sutra::readTraceCache(cachePath, *identity, source)) ++refusedFlips;
  }
  // The padding between blocks is checked too (zeros): no flip goes unnoticed.
  EXPECT_EQ(refusedFlips, flips);
  writeAll(cachePath, good);
  EXPECT_TRUE(sutra::readTraceCache(cachePath, *identity, source));
}

// `write` writes the cache of kineto/basic.json to the path it is given, calling its second
// argument after each of the 6 blocks; a child doing so is killed before it starts and after each
// block: no cache is left that would be trusted, and the next open rebuilds it.
void expectAKilledWriterLeavesNoTrustedCache(
    const std::function<void(const std::string&, const std::function<void(int)>&)>& write) {
  sutra::test::TempDir dir;
  const std::string source = sutra::test::fixture("kineto/basic.json");
  const TraceCacheOptions cache = cacheIn(dir);
  fs::create_directories(cache.folder);
  const std::string cachePath = sutra::traceCachePath(source, cache.folder);
  auto identity = sutra::sourceIdentity(source);
  ASSERT_TRUE(identity);
  for (int killAfter = 0; killAfter <= 6; ++killAfter) {
    const pid_t child = ::fork();
    if (child == 0) {
      if (killAfter == 0) ::raise(SIGKILL);
      write(cachePath, [&](int blocks) {
        if (blocks == killAfter) ::raise(SIGKILL);
      });
      ::_exit(0);  // not reached: every block count up to 6 kills
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "killed after block " << killAfter;
    EXPECT_FALSE(fs::exists(cachePath)) << "killed after block " << killAfter;
    EXPECT_FALSE(sutra::readTraceCache(cachePath, *identity, source));
    // Nor a temporary file, where the folder makes unnamed ones (util/atomic_file.h).
    if (const int probe = ::open(cache.folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
        probe >= 0) {
      ::close(probe);
      EXPECT_TRUE(fs::is_empty(cache.folder)) << "killed after block " << killAfter;
    }
    auto read = openCached(source, cache);
    ASSERT_TRUE(read.trace);
    EXPECT_FALSE(read.fromCache);
    EXPECT_EQ(read.note, "");
    fs::remove(cachePath);
  }
}

TEST(TraceCache, AWriterKilledHalfwayLeavesNoCacheThatIsTrusted) {
  const std::string source = sutra::test::fixture("kineto/basic.json");
  auto trace = sutra::readKinetoTrace(source);
  ASSERT_TRUE(trace);
  auto identity = sutra::sourceIdentity(source);
  ASSERT_TRUE(identity);
  expectAKilledWriterLeavesNoTrustedCache(
      [&](const std::string& cachePath, const std::function<void(int)>& afterBlock) {
        (void)sutra::writeTraceCache(*trace, *identity, cachePath, afterBlock);
      });
}

// The streaming load into a cache being written (TraceCacheDraft): `afterBlock` as finish() takes
// it.
sutra::Status streamIntoDraft(const std::string& source, const std::string& cachePath,
                              const std::function<void(int)>& afterBlock = {},
                              KinetoReadOptions::InPlaceColumns* placed = nullptr,
                              std::uint64_t* argsBytes = nullptr,
                              std::optional<sutra::FileId>* writtenFile = nullptr) {
  auto identity = sutra::sourceIdentity(source);
  if (!identity) return identity.error();
  auto draft = sutra::TraceCacheDraft::create(cachePath);
  if (!draft) return draft.error();
  KinetoReadOptions options;
  options.spillFolder = fs::path(cachePath).parent_path().string();
  options.inPlace = (*draft)->columns();
  auto trace = sutra::readKinetoTrace(source, options);
  if (!trace) return trace.error();
  if (argsBytes) *argsBytes = trace->args.bytes();
  auto finished = (*draft)->finish(*trace, *identity, afterBlock);
  if (placed) *placed = *(*draft)->columns();
  if (writtenFile) *writtenFile = (*draft)->written();
  return finished;
}

// The args text and the events are written once, where the cache keeps them: from the second
// page, the events after the text; the cache read back is the parse's model.
TEST(TraceCache, TheStreamingLoadLaysTheArgsTextAndEventsWhereTheCacheKeepsThem) {
  sutra::test::TempDir dir;
  const std::string source = sutra::test::fixture("kineto/basic.json");
  fs::create_directories(dir.file("cache"));
  const std::string cachePath = sutra::traceCachePath(source, dir.file("cache"));
  KinetoReadOptions::InPlaceColumns placed;
  std::uint64_t argsBytes = 0;
  auto written = streamIntoDraft(source, cachePath, {}, &placed, &argsBytes);
  ASSERT_TRUE(written) << written.error().message;
  const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  EXPECT_EQ(placed.text.offset, page);
  EXPECT_GT(placed.textBytes, 0u);
  EXPECT_EQ(placed.textBytes, argsBytes);
  EXPECT_EQ(placed.eventsOffset % page, 0u);
  EXPECT_GE(placed.eventsOffset, placed.text.offset + placed.textBytes);
  auto identity = sutra::sourceIdentity(source);
  ASSERT_TRUE(identity);
  auto cached = sutra::readTraceCache(cachePath, *identity, source);
  ASSERT_TRUE(cached) << cached.error().message;
  EXPECT_EQ(placed.eventBytes, cached->events.size() * sizeof(sutra::Event));
  EXPECT_EQ(sutra::test::traceDigest(std::as_const(*cached)), parsedDigest(source));
  // The events block lies where the load placed it: the cache's bytes there are the events'.
  const std::string bytes = readAll(cachePath);
  ASSERT_GE(bytes.size(), placed.eventsOffset + placed.eventBytes);
  EXPECT_EQ(
      std::memcmp(bytes.data() + placed.eventsOffset, cached->events.data(), placed.eventBytes), 0);
  // Only the cache is left: the draft's temporary file was renamed into place.
  for (const auto& entry : fs::directory_iterator(dir.file("cache")))
    EXPECT_EQ(entry.path().string(), cachePath);
}

// A trace without any args: the empty args text and the events start at the same page.
TEST(TraceCache, AStreamedTraceWithoutArgsIsCachedAndReadBack) {
  sutra::test::TempDir dir;
  const std::string source = dir.file("no-args.json");
  writeAll(source, R"({"traceEvents": [
    {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 5},
    {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2, "dur": 1}]})");
  fs::create_directories(dir.file("cache"));
  const std::string cachePath = sutra::traceCachePath(source, dir.file("cache"));
  KinetoReadOptions::InPlaceColumns placed;
  auto written = streamIntoDraft(source, cachePath, {}, &placed);
  ASSERT_TRUE(written) << written.error().message;
  EXPECT_EQ(placed.textBytes, 0u);
  EXPECT_EQ(placed.eventsOffset, placed.text.offset);
  auto identity = sutra::sourceIdentity(source);
  ASSERT_TRUE(identity);
  auto cached = sutra::readTraceCache(cachePath, *identity, source);
  ASSERT_TRUE(cached) << cached.error().message;
  EXPECT_EQ(cached->events.size(), 2u);
  EXPECT_EQ(sutra::test::traceDigest(std::as_const(*cached)), parsedDigest(source));
}

// The file a streaming load has just written is opened without hashing its columns again, and
// only that file: another one put under its name (here with a byte of its args text changed) is
// checked as ever, and refused.
TEST(TraceCache, OnlyTheCacheFileJustWrittenIsOpenedWithoutHashingItsColumnsAgain) {
  sutra::test::TempDir dir;
  const std::string source = sutra::test::fixture("kineto/basic.json");
  fs::create_directories(dir.file("cache"));
  const std::string cachePath = sutra::traceCachePath(source, dir.file("cache"));
  KinetoReadOptions::InPlaceColumns placed;
  std::optional<sutra::FileId> writtenFile;
  auto written = streamIntoDraft(source, cachePath, {}, &placed, nullptr, &writtenFile);
  ASSERT_TRUE(written) << written.error().message;
  ASSERT_TRUE(writtenFile);
  auto identity = sutra::sourceIdentity(source);
  ASSERT_TRUE(identity);
  auto cached = sutra::readTraceCache(cachePath, *identity, source, writtenFile);
  ASSERT_TRUE(cached) << cached.error().message;
  EXPECT_EQ(sutra::test::traceDigest(std::as_const(*cached)), parsedDigest(source));
  cached = sutra::makeError(cachePath, "released");  // the mapping let go before the file changes

  ASSERT_GT(placed.textBytes, 2u);
  std::string bytes = readAll(cachePath);
  bytes[placed.text.offset + placed.textBytes / 2] ^= 0x20;
  const std::string other = dir.file("cache/other");
  writeAll(other, bytes);
  fs::rename(other, cachePath);  // a new file under the name
  auto refused = sutra::readTraceCache(cachePath, *identity, source, writtenFile);
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message.find("args"), std::string::npos) << refused.error().message;
}

TEST(TraceCache, AStreamingWriterKilledHalfwayLeavesNoCacheThatIsTrusted) {
  expectAKilledWriterLeavesNoTrustedCache(
      [](const std::string& cachePath, const std::function<void(int)>& afterBlock) {
        (void)streamIntoDraft(sutra::test::fixture("kineto/basic.json"), cachePath, afterBlock);
      });
}

TEST(TraceCache, AFolderThatCannotBeWrittenKeepsTheTraceInMemoryWithANote) {
  sutra::test::TempDir dir;
  const std::string source = sutra::test::fixture("kineto/basic.json");
  TraceCacheOptions cache;
  cache.minFileBytes = 0;
  // A regular file where the folder should be: no cache can be written under it, even as root.
  writeAll(dir.file("not-a-folder"), "x");
  cache.folder = dir.file("not-a-folder");
  auto read = openCached(source, cache);
  ASSERT_TRUE(read.trace);
  EXPECT_FALSE(read.fromCache);
  EXPECT_NE(read.note.find("trace cache not written"), std::string::npos) << read.note;
  EXPECT_EQ(sutra::test::traceDigest(*read.trace), parsedDigest(source));
}

TEST(TraceCache, SmallFilesAndADisabledCacheAreParsedAndNotCached) {
  sutra::test::TempDir dir;
  const std::string source = sutra::test::fixture("kineto/basic.json");
  TraceCacheOptions cache = cacheIn(dir);
  cache.minFileBytes = 1 << 30;
  EXPECT_FALSE(openCached(source, cache).fromCache);
  cache.minFileBytes = 0;
  cache.enabled = false;
  EXPECT_FALSE(openCached(source, cache).fromCache);
  EXPECT_FALSE(fs::exists(sutra::traceCachePath(source, cache.folder)));
}

TEST(TraceCache, TheFolderStaysUnderItsLimitLeastRecentlyUsedFirst) {
  sutra::test::TempDir dir;
  const std::string traces[] = {sutra::test::fixture("kineto/basic.json"),
                                sutra::test::fixture("kineto/memory_events.json"),
                                sutra::test::fixture("kineto/string_ids.json")};
  TraceCacheOptions cache = cacheIn(dir);
  std::string cached[3];
  std::uintmax_t bytes[3];
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(openCached(traces[i], cache).trace);
    cached[i] = sutra::traceCachePath(traces[i], cache.folder);
    bytes[i] = fs::file_size(cached[i]);
  }
  const auto now = fs::file_time_type::clock::now();
  fs::last_write_time(cached[0], now - std::chrono::seconds(30));
  fs::last_write_time(cached[1], now - std::chrono::seconds(20));
  // Reopening the oldest makes it the most recently used: the second is the oldest now.
  ASSERT_TRUE(openCached(traces[0], cache).fromCache);
  fs::remove(cached[2]);
  cache.maxFolderBytes = bytes[0] + bytes[2];
  auto rebuilt = openCached(traces[2], cache);
  ASSERT_TRUE(rebuilt.trace);
  EXPECT_EQ(rebuilt.note, "");
  EXPECT_TRUE(fs::exists(cached[0]));
  EXPECT_FALSE(fs::exists(cached[1]));
  EXPECT_TRUE(fs::exists(cached[2]));
  // A cache larger than the whole limit is not kept, and the trace is still read.
  cache.maxFolderBytes = 1;
  auto tooBig = openCached(traces[1], cache);
  ASSERT_TRUE(tooBig.trace);
  EXPECT_NE(tooBig.note.find("limit"), std::string::npos) << tooBig.note;
  EXPECT_FALSE(fs::exists(cached[1]));
  EXPECT_TRUE(fs::exists(cached[0]));  // the others are not removed for one that cannot fit
  EXPECT_TRUE(fs::exists(cached[2]));
}

TEST(TraceCache, MappedArgsServeTheirEntriesAndGrowAfterThem) {
  const std::string text = "{\"a\":1}{}{\"b\":[2]}";
  const std::vector<std::uint64_t> offsets = {0, 7, 9, 18};
  auto store = sutra::ArgsStore::mapped(nullptr, text.data(), offsets.data(), 3);
  ASSERT_EQ(store.size(), 3u);
  EXPECT_EQ(store.get(0), "{\"a\":1}");
  EXPECT_EQ(store.get(1), "{}");
  EXPECT_EQ(store.get(2), "{\"b\":[2]}");
  EXPECT_EQ(store.add("{\"c\":3}"), 3u);
  EXPECT_EQ(store.get(3), "{\"c\":3}");
  EXPECT_EQ(store.get(2), "{\"b\":[2]}");
  EXPECT_EQ(store.bytes(), 18u + 7u);
  sutra::ArgsStore merged;
  merged.add("{}");
  EXPECT_EQ(merged.adopt(std::move(store)), 1u);
  ASSERT_EQ(merged.size(), 5u);
  EXPECT_EQ(merged.get(1), "{\"a\":1}");
  EXPECT_EQ(merged.get(4), "{\"c\":3}");
  EXPECT_EQ(merged.bytes(), 2u + 25u);
}

// A spilled store (a streaming load's): batches adopted in whole blocks keep every entry where
// it was, the text is seen in order by whoever watches it being written, and the offsets come out
// in pieces of a few megabytes that together are the entries' offsets from 0.
TEST(TraceCache, ASpilledArgsStoreAdoptsBatchesWholeAndHandsItsOffsetsOnInPieces) {
  sutra::test::TempDir dir;
  std::string watched;
  auto spilled = sutra::ArgsStore::spilling(dir.path().string(), std::nullopt,
                                            [&](std::string_view text) { watched += text; });
  std::vector<std::string> entries;
  constexpr int kBatches = 30, kPerBatch = 25'000;  // 750 000 offsets: more than one 4 MB piece
  for (int b = 0; b < kBatches; ++b) {
    sutra::ArgsStore batch;
    for (int i = 0; i < kPerBatch; ++i) {
      entries.push_back("{\"n\":" + std::to_string(b * kPerBatch + i) + "}");
      batch.add(entries.back());
    }
    EXPECT_EQ(spilled.adopt(std::move(batch)), static_cast<std::uint32_t>(b * kPerBatch));
  }
  spilled.add("{\"last\":true}");  // one by one after whole blocks
  entries.push_back("{\"last\":true}");
  ASSERT_EQ(spilled.size(), entries.size());
  std::string all;
  for (const std::string& e : entries) all += e;
  EXPECT_EQ(watched, all);
  EXPECT_EQ(spilled.bytes(), all.size());
  for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{524'287}, std::size_t{524'288},
                        entries.size() - 2, entries.size() - 1})
    EXPECT_EQ(spilled.get(static_cast<std::uint32_t>(i)), entries[i]) << i;
  std::vector<std::uint64_t> offsets;
  int pieces = 0;
  spilled.forEachOffsetPiece([&](std::span<const std::uint64_t> piece) {
    offsets.insert(offsets.end(), piece.begin(), piece.end());
    ++pieces;
    return true;
  });
  EXPECT_GE(pieces, 2);
  ASSERT_EQ(offsets.size(), entries.size() + 1);
  std::uint64_t at = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    ASSERT_EQ(offsets[i], at) << i;
    at += entries[i].size();
  }
  EXPECT_EQ(offsets.back(), all.size());
  std::string text;
  spilled.forEachTextPiece([&](std::string_view piece) {
    text += piece;
    return true;
  });
  EXPECT_EQ(text, all);
}

}  // namespace
