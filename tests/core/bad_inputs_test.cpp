// SPDX-License-Identifier: MIT
// Bad input never crashes, hangs, misleads or harms (issue 16): outputs never replace a device, a
// FIFO or a link; non-regular inputs are refused at once; zeros and gzip bombs are told early and
// read in bounded memory; what-if knobs stay in a sane range. Big inputs are made here, at run
// time, in a temporary directory; the inputs' checksums are compared after every read.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "chakra/et_file.h"
#include "io/byte_source.h"
#include "io/discover.h"
#include "io/readers.h"
#include "simulate/sim_knobs.h"
#include "test_support.h"
#include "util/atomic_file.h"

namespace sutra {
namespace {
namespace fs = std::filesystem;

class BadInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sutra_bad_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_ / "locked", fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static void spit(const std::string& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
  }
  static std::string slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  // Files in the directory (a temporary file left behind shows here).
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(dir_)) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  // gzip of `head`, then `count` copies of `fill`, then `tail`, streamed (never held whole).
  static void writeGzip(const std::string& p, const std::string& head, char fill, std::size_t count,
                        const std::string& tail) {
    gzFile gz = gzopen(p.c_str(), "wb9");
    ASSERT_NE(gz, nullptr);
    gzwrite(gz, head.data(), static_cast<unsigned>(head.size()));
    const std::string block(1 << 20, fill);
    for (std::size_t left = count; left > 0;) {
      const std::size_t n = std::min(left, block.size());
      gzwrite(gz, block.data(), static_cast<unsigned>(n));
      left -= n;
    }
    gzwrite(gz, tail.data(), static_cast<unsigned>(tail.size()));
    gzclose(gz);
  }
  fs::path dir_;
};

// Runs `body` in a child process (with a time limit) and returns its exit status, and its peak
// resident memory in MB through `peakMb`: memory bounds are measured where nothing else counts.
int inChild(const std::function<int()>& body, long* peakMb = nullptr, unsigned seconds = 60) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::alarm(seconds);  // a hang ends the child with SIGALRM, a failure below
    std::_Exit(body());
  }
  int status = 0;
  struct rusage usage {};
  ::wait4(pid, &status, 0, &usage);
  if (peakMb) *peakMb = usage.ru_maxrss / 1024;
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

// --- Outputs (item 8) ---------------------------------------------------------------------------

TEST_F(BadInputs, AnOutputNeverReplacesADeviceAndDevNullStaysACharacterDevice) {
  struct stat before {};
  ASSERT_EQ(::stat("/dev/null", &before), 0);
  ASSERT_TRUE(S_ISCHR(before.st_mode));
  auto refused = AtomicFile::create("/dev/null");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().message,
            "/dev/null: is a character device, not a regular file: refusing to replace it");
  struct stat after {};
  ASSERT_EQ(::stat("/dev/null", &after), 0);
  EXPECT_TRUE(S_ISCHR(after.st_mode));
  EXPECT_EQ(after.st_rdev, before.st_rdev);
}

TEST_F(BadInputs, AnOutputNeverReplacesAFifoOrASymbolicLink) {
  ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
  auto fifo = writeFileAtomically(path("pipe"), "x");
  ASSERT_FALSE(fifo);
  EXPECT_EQ(fifo.error().message,
            path("pipe") + ": is a FIFO (named pipe), not a regular file: refusing to replace it");
  struct stat st {};
  ASSERT_EQ(::lstat(path("pipe").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));

  spit(path("target.json"), "the target");
  fs::create_symlink(path("target.json"), path("link.json"));
  auto link = writeFileAtomically(path("link.json"), "new");
  ASSERT_FALSE(link);
  EXPECT_EQ(link.error().message,
            path("link.json") +
                ": is a symbolic link: refusing to replace it (name the file it points to)");
  EXPECT_TRUE(fs::is_symlink(path("link.json")));
  EXPECT_EQ(slurp(path("target.json")), "the target");
  // A dangling link is refused the same way (nothing is created where it points).
  fs::create_symlink(path("nowhere.json"), path("dangling.json"));
  EXPECT_FALSE(writeFileAtomically(path("dangling.json"), "new"));
  EXPECT_FALSE(fs::exists(path("nowhere.json")));
  EXPECT_EQ(entries(),
            (std::vector<std::string>{"dangling.json", "link.json", "pipe", "target.json"}));
}

TEST_F(BadInputs, AnOutputInAMissingFolderCreatesTheFolder) {
  const std::string out = path("out/deeper/trace.json");
  ASSERT_TRUE(writeFileAtomically(out, "{}")) << out;
  EXPECT_EQ(slurp(out), "{}");
  // A parent that is a file is an error naming it, not a crash.
  spit(path("plain"), "x");
  auto underFile = writeFileAtomically(path("plain/trace.json"), "{}");
  ASSERT_FALSE(underFile);
  EXPECT_EQ(underFile.error().message.rfind(path("plain/trace.json") + ": ", 0), 0u);
}

TEST_F(BadInputs, CtrlCWhileWritingLeavesNoTemporaryFileAndTheOldOutput) {
  spit(path("out.json"), "old");
  const int status = inChild([&] {
    auto file = AtomicFile::create(path("out.json"));
    if (!file || !file->write(std::string(1 << 20, 'x'))) return 3;
    ::raise(SIGINT);  // as Ctrl-C would, halfway through
    return 4;
  });
  EXPECT_EQ(status, 128 + SIGINT);
  EXPECT_EQ(entries(), std::vector<std::string>{"out.json"});
  EXPECT_EQ(slurp(path("out.json")), "old");
}

// --- Inputs that are no regular file (item 12) -------------------------------------------------

TEST_F(BadInputs, AFifoWithoutAWriterIsRefusedAtOnceNotWaitedFor) {
  ASSERT_EQ(::mkfifo(path("trace.json").c_str(), 0600), 0);
  const std::string fifo = path("trace.json");
  const int status = inChild(
      [&] {
        auto sniffed = sniffTraceFile(fifo);
        if (sniffed) return 3;
        return sniffed.error().message ==
                       fifo +
                           ": is a FIFO (named pipe), not a regular file: traces are read from "
                           "regular files only"
                   ? 0
                   : 4;
      },
      nullptr, 10);
  EXPECT_EQ(status, 0) << "142 = SIGALRM: the read hung";
}

TEST_F(BadInputs, DevZeroIsACharacterDeviceNotAnEmptyFile) {
  auto zero = ByteSource::open("/dev/zero");
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().message,
            "/dev/zero: is a character device, not a regular file: traces are read from regular "
            "files only");
}

TEST_F(BadInputs, ASymbolicLinkLoopIsSaidAsSuch) {
  fs::create_symlink(path("b.json"), path("a.json"));
  fs::create_symlink(path("a.json"), path("b.json"));
  auto found = discoverTraces({path("a.json")});
  ASSERT_FALSE(found);
  EXPECT_EQ(found.error().message,
            path("a.json") + ": too many levels of symbolic links (a symbolic link loop)");
}

TEST_F(BadInputs, OtherCompressionFormatsAreNamed) {
  for (const auto& [file, format] :
       {std::pair<std::string, std::string>{"kineto.json.bz2", "bzip2"},
        {"kineto.json.xz", "xz"},
        {"kineto.json.zst", "zstd"}}) {
    const std::string p = test::fixture("bad/" + file);
    auto sniffed = sniffTraceFile(p);
    ASSERT_FALSE(sniffed) << file;
    EXPECT_EQ(sniffed.error().message,
              p + ": compressed with " + format +
                  ", which Sutra does not read: decompress it first (Sutra reads plain and gzip "
                  "files)");
  }
}

TEST_F(BadInputs, ControlCharactersInANameAreEscapedInMessages) {
  const std::string name = path("\x1b[31mred\n.json");
  spit(name, "");
  auto read = readKinetoTrace(name);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().message, path("\\x1b[31mred\\x0a.json") + ": empty file");
}

TEST_F(BadInputs, AnUnreadableSubfolderIsNamedAndTheRestIsRead) {
  fs::create_directories(dir_ / "locked");
  fs::copy_file(test::fixture("kineto/basic.json"), dir_ / "basic.json");
  spit(path("locked/hidden.json"), "{}");
  ASSERT_EQ(::mkfifo(path("pipe.json").c_str(), 0644), 0);
  fs::permissions(dir_ / "locked", fs::perms::none);
  fs::permissions(dir_, fs::perms::all);
  const std::string root = dir_.string();
  // Root reads any folder: the check runs as an unprivileged user then.
  const int status = inChild([&] {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) return 5;
    auto found = discoverTraces({root});
    if (!found) return 3;
    if (found->files.size() != 1 || found->files[0].kind != FileKind::KinetoTrace) return 4;
    const std::vector<std::string> expected = {
        root + "/locked: not read: permission denied",
        root + "/pipe.json: skipped: a FIFO (named pipe), not a regular file"};
    return found->unreadable == expected ? 0 : 6;
  });
  EXPECT_EQ(status, 0);
  // Nothing readable at all: the error names what was not read.
  fs::remove(dir_ / "basic.json");
  fs::remove(dir_ / "pipe.json");
  const int none = inChild([&] {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) return 5;
    auto found = discoverTraces({root});
    if (found) return 3;
    return found.error().message == root + ": no readable files in it or below; " + root +
                                        "/locked: not read: permission denied"
               ? 0
               : 4;
  });
  EXPECT_EQ(none, 0);
}

// --- Zeros and bombs (items 10, 11) -------------------------------------------------------------

TEST_F(BadInputs, TenMegabytesOfZerosAreNoChakraTraceAndAreToldAtOnce) {
  const std::string zeros = path("zeros.et");
  spit(zeros, std::string(10 << 20, '\0'));
  auto sniffed = sniffTraceFile(zeros);
  ASSERT_TRUE(sniffed);
  EXPECT_EQ(sniffed->kind, FileKind::Unknown);
  EXPECT_EQ(sniffed->reason, "not a trace: found 0x00 at byte 0 (all 65536 bytes read are zeros)");
  long peakMb = 0;
  const int status = inChild(
      [&] {
        auto read = chakra::readChakraTrace(zeros);
        return !read && read.error().message ==
                            zeros +
                                ": not a Chakra trace: found 0x00 at byte 0 (all 65536 bytes "
                                "read are zeros)"
                   ? 0
                   : 3;
      },
      &peakMb);
  EXPECT_EQ(status, 0);
  EXPECT_LT(peakMb, 100) << "zeros were read as nodes";
  // Bytes in memory (no sniffing): the parser itself stops at the first two zeros.
  auto parsed = chakra::parseChakraTrace(std::string(1 << 20, '\0'), "z.et");
  ASSERT_FALSE(parsed);
  EXPECT_EQ(parsed.error().message,
            "z.et: not a Chakra trace: found 0x00 at bytes 0 and 1 (an empty GlobalMetadata and an "
            "empty node: zeros, not a trace)");
  // Blanks are no Chakra trace either (they read as node fields 4, over and over).
  spit(path("blanks.et"), std::string(1 << 20, ' '));
  auto blanks = chakra::readChakraTrace(path("blanks.et"));
  ASSERT_FALSE(blanks);
  EXPECT_EQ(blanks.error().message,
            path("blanks.et") + ": not a Chakra trace: neither JSON nor a Chakra protobuf trace");
  // JSON is named as what it is.
  auto json = chakra::readChakraTrace(test::fixture("kineto/basic.json"));
  ASSERT_FALSE(json);
  EXPECT_EQ(json.error().message,
            test::fixture("kineto/basic.json") + ": is a Kineto trace, not a Chakra trace");
  // Zeros after real nodes: the first empty message ends the read.
  chakra::ChakraTrace metadataOnly;
  metadataOnly.meta.set_version("0.0.4");
  std::string bytes = chakra::serializeChakraTrace(metadataOnly);
  ASSERT_EQ(bytes.size(), 8u);
  bytes += std::string(1000, '\0');
  auto tail = chakra::parseChakraTrace(bytes, "t.et");
  ASSERT_FALSE(tail);
  EXPECT_EQ(tail.error().message,
            "t.et: message 1 at byte 8 is empty: found 0x00 where a Chakra Node's length should be "
            "(zeros or another format)");
}

TEST_F(BadInputs, AGzipBombOfBlanksIsReadInBoundedMemory) {
  // 300 MB of blanks between two events, in about 300 KB of gzip.
  const std::string ev =
      R"({"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":10,"dur":5})";
  const std::string bomb = path("bomb.json.gz");
  writeGzip(bomb, "{\"traceEvents\":[" + ev + ",", ' ', std::size_t{300} << 20, ev + "]}");
  ASSERT_LT(fs::file_size(bomb), std::uintmax_t{2} << 20);
  const std::string before = slurp(bomb);
  long peakMb = 0;
  const int status = inChild(
      [&] {
        auto trace = readKinetoTrace(bomb);
        if (!trace) return 3;
        return trace->events.size() == 2 ? 0 : 4;
      },
      &peakMb, 120);
  EXPECT_EQ(status, 0);
  EXPECT_LT(peakMb, 150) << "the blanks were held in memory";
  EXPECT_EQ(slurp(bomb), before);  // the input is never modified
}

TEST_F(BadInputs, ZerosAfterAHeaderAreToldAtTheirFirstByte) {
  const std::string bomb = path("zeros.json.gz");
  writeGzip(bomb, "{\"traceEvents\":[", '\0', std::size_t{200} << 20, "");
  long peakMb = 0;
  const int status = inChild(
      [&] {
        auto trace = readKinetoTrace(bomb);
        if (trace) return 3;
        return trace.error().message ==
                       bomb + ": malformed JSON at byte 16: found 0x00 (zero bytes are no JSON)"
                   ? 0
                   : 4;
      },
      &peakMb, 120);
  EXPECT_EQ(status, 0);
  EXPECT_LT(peakMb, 150);
  // A small file: the same words, not "truncated".
  auto small = readKinetoTrace(test::fixture("bad/zeros_after_header.json"));
  ASSERT_FALSE(small);
  EXPECT_EQ(small.error().message, test::fixture("bad/zeros_after_header.json") +
                                       ": malformed JSON at byte 16: found 0x00 (zero bytes are "
                                       "no JSON)");
}

TEST_F(BadInputs, AUtf8ByteOrderMarkIsSkipped) {
  auto plain = readKinetoTrace(test::fixture("kineto/basic.json"));
  auto bom = readKinetoTrace(test::fixture("bad/bom.json"));
  ASSERT_TRUE(plain) << plain.error().message;
  ASSERT_TRUE(bom) << bom.error().message;
  EXPECT_EQ(bom->events.size(), plain->events.size());
}

// --- Chakra files (items 7, 15) ------------------------------------------------------------------

TEST_F(BadInputs, AChakraFileOf2023WithoutGlobalMetadataIsAChakraTrace) {
  const std::string p = test::fixture("bad/chakra_2023_no_metadata.et");
  auto sniffed = sniffTraceFile(p);
  ASSERT_TRUE(sniffed) << sniffed.error().message;
  EXPECT_EQ(sniffed->kind, FileKind::ChakraEt);
  auto read = chakra::readChakraTrace(p);
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->nodes.size(), 2u);
}

TEST_F(BadInputs, NodeTypesOutsideTheSchemaAreCountedProblems) {
  auto read = chakra::readChakraTrace(test::fixture("bad/chakra_unknown_node_type.et"));
  ASSERT_TRUE(read) << read.error().message;
  EXPECT_EQ(read->problems.count("node type outside the Chakra schema (NodeType)"), 1u);
  bool found = false;
  for (const auto& p : read->problems.all())
    if (p.what == "node type outside the Chakra schema (NodeType)") {
      found = true;
      EXPECT_EQ(p.severity, Severity::Warning);
      EXPECT_EQ(p.example, "node 2 type 42");
    }
  EXPECT_TRUE(found);
}

TEST_F(BadInputs, PerRankEtPlusFilesKeepTheirRanks) {
  EXPECT_EQ(rankFromFileName("run/dlrm_eg_3_plus.json"), 3);
  EXPECT_EQ(rankFromFileName("run/dlrm_eg_12_plus.json.gz"), 12);
  auto found = discoverTraces({test::fixture("discover/et_plus_ranks")});
  ASSERT_TRUE(found) << found.error().message;
  ASSERT_EQ(found->ranks.size(), 3u);
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(found->ranks[static_cast<std::size_t>(r)].rank, r);
    EXPECT_TRUE(found->ranks[static_cast<std::size_t>(r)].linked.has_value());
  }
}

TEST_F(BadInputs, ACommandThatNeedsAKinetoTraceSaysSoForAChakraFile) {
  const std::string p = test::fixture("discover/two_ranks/model.0.et");
  auto at = kinetoTraceAt(p);
  ASSERT_FALSE(at);
  EXPECT_EQ(at.error().message, p + ": a Chakra ET, not a Kineto trace (torch.profiler JSON)");
  const std::string plus = test::fixture("discover/et_plus_ranks/dlrm_eg_1_plus.json");
  auto atPlus = kinetoTraceAt(plus);
  ASSERT_FALSE(atPlus);
  EXPECT_EQ(atPlus.error().message,
            plus + ": an ET+ (linked), not a Kineto trace (torch.profiler JSON)");
  EXPECT_TRUE(kinetoTraceAt(test::fixture("kineto/basic.json")));
}

// --- What-if knobs (item 14) ---------------------------------------------------------------------

TEST_F(BadInputs, KnobsOutsideASaneRangeAreRefused) {
  auto huge = parseDurationScale(".*=1e18");
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error().message,
            "--scale '.*=1e18': the factor '1e18' is out of range: it must be between 1e-06 and "
            "1e+06");
  EXPECT_TRUE(parseDurationScale("gemm=1e6"));
  EXPECT_FALSE(parseDurationScale("gemm=1e-7"));

  SimKnobs slowCpu;
  slowCpu.cpuSpeed = 1e-300;
  auto cpu = validateKnobs(slowCpu);
  ASSERT_FALSE(cpu);
  EXPECT_EQ(cpu.error().message,
            "CPU speed factor 1e-300 is out of range: it must be between 0.001 and 1000");

  auto latency = launchLatencyFromMicros(1e20);
  ASSERT_FALSE(latency);
  EXPECT_EQ(latency.error().message,
            "launch latency 1e+20 us is out of range: it must be between 0 and 1e+06 "
            "microseconds");
  ASSERT_TRUE(launchLatencyFromMicros(4.5));
  EXPECT_EQ(launchLatencyFromMicros(4.5).value(), 4500);

  SimKnobs scales;
  scales.scales.push_back({"a", 1e15});
  EXPECT_FALSE(validateKnobs(scales));
  SimKnobs latencyScale;
  latencyScale.launchLatencyScale = 1e12;
  EXPECT_FALSE(validateKnobs(latencyScale));
  EXPECT_TRUE(validateKnobs(SimKnobs{}));
}

TEST_F(BadInputs, ScaledDurationsSaturateInsteadOfOverflowing) {
  // Several patterns' factors multiply: the product may pass any one knob's range.
  EXPECT_EQ(scaleDuration(1'000'000'000'000, 1e6 * 1e6), kMaxScaledNs);
  EXPECT_EQ(scaleDuration(-1'000'000'000'000, 1e12), -kMaxScaledNs);
  EXPECT_EQ(scaleDuration(1000, 0.5), 500);
  EXPECT_GT(scaleDuration(1'000'000'000'000, 1e6), scaleDuration(1'000'000'000'000, 1e5));
}

}  // namespace
}  // namespace sutra
