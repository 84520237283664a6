// SPDX-License-Identifier: MIT
// Reading and writing Chakra .et files. Expected numbers come from tests/tools/et_counts.py, an
// independent standard-library decoder: `python3 tests/tools/et_counts.py ../shared/traces/...`.
#include <google/protobuf/util/message_differencer.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "chakra/et_file.h"
#include "test_support.h"

namespace sutra::chakra {
namespace {

namespace fs = std::filesystem;
using google::protobuf::util::MessageDifferencer;

struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("sutra_et_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
  std::vector<std::string> entries() const {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(path)) out.push_back(e.path().filename());
    std::sort(out.begin(), out.end());
    return out;
  }
};

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void spit(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::map<int, int> countByType(const ChakraTrace& t) {
  std::map<int, int> out;
  for (const auto& n : t.nodes) ++out[n.type()];
  return out;
}

// Field-by-field equality of two traces' messages (nodes compared in id order).
void expectSameMessages(const ChakraTrace& a, const ChakraTrace& b) {
  std::string diff;
  MessageDifferencer md;
  md.ReportDifferencesToString(&diff);
  EXPECT_TRUE(md.Compare(a.meta, b.meta)) << diff;
  ASSERT_EQ(a.nodes.size(), b.nodes.size());
  auto sorted = [](const ChakraTrace& t) {
    std::vector<const ChakraProtoMsg::Node*> v;
    for (const auto& n : t.nodes) v.push_back(&n);
    std::stable_sort(v.begin(), v.end(), [](auto* x, auto* y) { return x->id() < y->id(); });
    return v;
  };
  const auto sa = sorted(a), sb = sorted(b);
  for (std::size_t i = 0; i < sa.size(); ++i) {
    diff.clear();
    ASSERT_TRUE(md.Compare(*sa[i], *sb[i])) << "node " << sa[i]->id() << ": " << diff;
  }
}

struct RealEt {
  const char* file;
  std::size_t nodes;
  std::map<int, int> byType;
  int ctrlDeps, dataDeps;
};

// From et_counts.py over every .et in ../shared/traces.
const RealEt kRealEts[] = {
    {"chakra/feeder_chakra.0.et", 3664, {{4, 3643}, {7, 21}}, 3664, 181878},
    {"astra-sim/all_gather_4npus/all_gather.0.et", 1, {{7, 1}}, 0, 0},
    {"astra-sim/all_gather_4npus/all_gather.1.et", 1, {{7, 1}}, 0, 0},
    {"astra-sim/all_gather_4npus/all_gather.2.et", 1, {{7, 1}}, 0, 0},
    {"astra-sim/all_gather_4npus/all_gather.3.et", 1, {{7, 1}}, 0, 0},
    {"astra-sim/custom_allreduce_8npus/custom_allreduce.0.et",
     35,
     {{4, 7}, {5, 14}, {6, 14}},
     0,
     34},
    {"astra-sim/custom_allreduce_8npus/custom_allreduce.1.et",
     35,
     {{4, 7}, {5, 14}, {6, 14}},
     0,
     34},
    {"astra-sim/custom_allreduce_8npus/custom_allreduce.2.et",
     35,
     {{4, 7}, {5, 14}, {6, 14}},
     0,
     34},
    {"astra-sim/custom_allreduce_8npus/custom_allreduce.3.et",
     35,
     {{4, 7}, {5, 14}, {6, 14}},
     0,
     34},
    {"astra-sim/custom_allreduce_8npus/custom_allreduce.4.et",
     35,
     {{4, 7}, {5, 14}, {6, 14}},
     0,
     34},
    {"astra-sim/custom_allreduce_8npus/custom_allreduce.5.et",
     35,
     {{4, 7}, {5, 14}, {6, 14}},
     0,
     34},
    {"astra-sim/custom_allreduce_8npus/custom_allreduce.6.et",
     35,
     {{4, 7}, {5, 14}, {6, 14}},
     0,
     34},
    {"astra-sim/custom_allreduce_8npus/custom_allreduce.7.et",
     35,
     {{4, 7}, {5, 14}, {6, 14}},
     0,
     34},
};

TEST(ChakraEtFile, EveryRealEtReadsWithIndependentCountsAndRoundTrips) {
  SUTRA_REQUIRE_SHARED_TRACES();
  TempDir dir;
  int checked = 0;
  for (const auto& real : kRealEts) {
    SCOPED_TRACE(real.file);
    auto read = readChakraTrace(test::sharedTrace(real.file));
    ASSERT_TRUE(read.ok()) << read.error().message;
    EXPECT_EQ(read->nodes.size(), real.nodes);
    EXPECT_EQ(countByType(*read), real.byType);
    int ctrl = 0, data = 0;
    for (const auto& n : read->nodes) {
      ctrl += n.ctrl_deps_size();
      data += n.data_deps_size();
    }
    EXPECT_EQ(ctrl, real.ctrlDeps);
    EXPECT_EQ(data, real.dataDeps);

    const auto out = (dir.path / "copy.et").string();
    ASSERT_TRUE(writeChakraTrace(*read, out).ok());
    auto again = readChakraTrace(out);
    ASSERT_TRUE(again.ok()) << again.error().message;
    expectSameMessages(*read, *again);
    // Sutra writes messages exactly as protobuf serialises them, so a second pass is a fixpoint.
    EXPECT_EQ(serializeChakraTrace(*again), slurp(out));
    ++checked;
  }
  EXPECT_EQ(checked, 13);
}

TEST(ChakraEtFile, RealFilesKeepTheirMetadataAndAttributes) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto feeder = readChakraTrace(test::sharedTrace("chakra/feeder_chakra.0.et"));
  ASSERT_TRUE(feeder.ok());
  ASSERT_EQ(feeder->meta.attr_size(), 5);
  EXPECT_EQ(feeder->meta.attr(0).name(), "schema");
  EXPECT_EQ(feeder->meta.attr(0).string_val(), "1.0.1");
  EXPECT_EQ(feeder->meta.attr(2).string_val(), "2023-12-14 11:55:01");
  int withTid = 0, commType = 0;
  for (const auto& n : feeder->nodes) {
    withTid += hasIntAttr(n, "tid");
    commType += hasIntAttr(n, "comm_type");
  }
  EXPECT_EQ(withTid, 3664);
  EXPECT_EQ(commType, 7);  // 21 COMM_COLL nodes, only 7 with a comm_type

  auto gather = readChakraTrace(test::sharedTrace("astra-sim/all_gather_4npus/all_gather.1.et"));
  ASSERT_TRUE(gather.ok());
  EXPECT_EQ(gather->meta.version(), "0.0.4");
  ASSERT_EQ(gather->nodes.size(), 1u);
  EXPECT_EQ(gather->nodes[0].type(), ChakraProtoMsg::COMM_COLL_NODE);
  EXPECT_EQ(attrInt(gather->nodes[0], "comm_type", -1), ChakraProtoMsg::ALL_GATHER);
}

// The reference converter's own output breaks ASTRA-sim's rules; the reader counts how.
TEST(ChakraEtFile, CountsTheFaultsOfTheReferenceConvertersOutput) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto feeder = readChakraTrace(test::sharedTrace("chakra/feeder_chakra.0.et"));
  ASSERT_TRUE(feeder.ok());
  EXPECT_EQ(feeder->problems.count("dependency on a node id absent from the file"), 1277u);
  EXPECT_EQ(feeder->problems.count("node depends on itself"), 383u);
  EXPECT_EQ(feeder->problems.count("duplicate node id (a consumer keeps only one of them)"), 0u);
}

TEST(ChakraEtFile, GzipIsAcceptedOnReadAndWrite) {
  SUTRA_REQUIRE_SHARED_TRACES();
  TempDir dir;
  auto plain =
      readChakraTrace(test::sharedTrace("astra-sim/custom_allreduce_8npus/custom_allreduce.3.et"));
  ASSERT_TRUE(plain.ok());
  const auto out = (dir.path / "c.et.gz").string();
  ChakraWriteOptions opts;
  opts.gzip = true;
  ASSERT_TRUE(writeChakraTrace(*plain, out, opts).ok());
  const auto bytes = slurp(out);
  ASSERT_GE(bytes.size(), 2u);
  EXPECT_EQ(static_cast<unsigned char>(bytes[0]), 0x1f);
  auto back = readChakraTrace(out);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_TRUE(back->wasGzip);
  expectSameMessages(*plain, *back);
  // A gzip stream cut in half is a clear error, not a crash.
  spit(dir.path / "cut.et.gz", bytes.substr(0, bytes.size() / 2));
  auto cut = readChakraTrace((dir.path / "cut.et.gz").string());
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.error().message.find("truncated gzip stream"), std::string::npos)
      << cut.error().message;
}

ChakraTrace smallTrace() {
  ChakraTrace t;
  t.meta.set_version("0.0.4");
  for (std::uint64_t id : {5u, 2u, 9u}) {
    auto& n = t.nodes.emplace_back();
    n.set_id(id);
    n.set_name("op" + std::to_string(id));
    n.set_type(ChakraProtoMsg::COMP_NODE);
    n.set_duration_micros(id * 10);
  }
  t.nodes[0].add_data_deps(2);
  return t;
}

TEST(ChakraEtFile, WriterSortsNodesByIdAndLeavesNoTemporaryFile) {
  TempDir dir;
  const auto out = (dir.path / "w.0.et").string();
  ASSERT_TRUE(writeChakraTrace(smallTrace(), out).ok());
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"w.0.et"});
  auto back = readChakraTrace(out);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->nodes.size(), 3u);
  EXPECT_EQ(back->nodes[0].id(), 2u);
  EXPECT_EQ(back->nodes[1].id(), 5u);
  EXPECT_EQ(back->nodes[2].id(), 9u);
  EXPECT_TRUE(back->problems.empty());
  // Overwriting an existing output replaces it whole.
  ChakraTrace bigger = smallTrace();
  bigger.nodes.emplace_back().set_id(11);
  ASSERT_TRUE(writeChakraTrace(bigger, out).ok());
  EXPECT_EQ(readChakraTrace(out)->nodes.size(), 4u);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"w.0.et"});
}

TEST(ChakraEtFile, WriterRefusesToOverwriteAnInputAndFailsCleanly) {
  TempDir dir;
  const auto input = (dir.path / "in.et").string();
  spit(input, "keep me");
  ChakraWriteOptions opts;
  opts.protectedPaths = {input};
  // The same file reached through a different spelling is still refused.
  const auto sameFile = (dir.path / "." / "in.et").string();
  auto refused = writeChakraTrace(smallTrace(), sameFile, opts);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("refusing to overwrite an input"), std::string::npos);
  EXPECT_EQ(slurp(input), "keep me");

  // A missing output folder is created; a file where the folder should be is an error.
  ASSERT_TRUE(writeChakraTrace(smallTrace(), (dir.path / "absent" / "x.et").string()).ok());
  auto underFile = writeChakraTrace(smallTrace(), (dir.path / "in.et" / "x.et").string());
  ASSERT_FALSE(underFile.ok());
  EXPECT_EQ(dir.entries(), (std::vector<std::string>{"absent", "in.et"}));
}

TEST(ChakraEtFile, ErrorsNameTheFileAndTheByteOffset) {
  TempDir dir;
  const std::string good = serializeChakraTrace(smallTrace());
  auto parse = [](const std::string& bytes) { return parseChakraTrace(bytes, "t.et"); };

  auto truncated = parse(good.substr(0, good.size() - 3));
  ASSERT_FALSE(truncated.ok());
  // Three bytes short: the last node (message 3) declares more bytes than remain.
  EXPECT_NE(truncated.error().message.find("t.et: truncated file: message 3 at byte "),
            std::string::npos)
      << truncated.error().message;

  auto badVarint = parse(good + std::string(6, '\xff'));
  ASSERT_FALSE(badVarint.ok());
  EXPECT_EQ(badVarint.error().message,
            "t.et: bad varint at byte " + std::to_string(good.size()) +
                ": the length prefix of message 4 runs past 5 bytes (not an .et file, or corrupt)");

  auto cutPrefix = parse(good + "\x85");
  ASSERT_FALSE(cutPrefix.ok());
  EXPECT_EQ(cutPrefix.error().message,
            "t.et: truncated file: the length prefix of message 4 at byte " +
                std::to_string(good.size()) + " is cut off");

  // A length-delimited message whose content is not a Node (wire type 7 does not exist).
  auto garbage = parse(good + std::string("\x02\x0f\x0f", 3));
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().message, "t.et: message 4 at byte " + std::to_string(good.size()) +
                                         " is not a valid Chakra Node (garbage or another format)");

  auto empty = parse("");
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message, "t.et: empty file: no GlobalMetadata and no nodes");

  auto missing = readChakraTrace((dir.path / "nope.et").string());
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            (dir.path / "nope.et").string() + ": no such file or directory");
  auto isDir = readChakraTrace(dir.path.string());
  ASSERT_FALSE(isDir.ok());
  EXPECT_NE(isDir.error().message.find("is a directory"), std::string::npos);

  auto json = parse("{\"schema\": \"1.0.1\", \"nodes\": []}");
  EXPECT_FALSE(json.ok());
}

TEST(ChakraEtFile, AFileWithoutGlobalMetadataKeepsItsFirstNodeWithAWarning) {
  ChakraTrace t = smallTrace();
  std::string bytes = serializeChakraTrace(t);
  const auto metaLen = static_cast<std::size_t>(bytes[0]) + 1;
  auto read = parseChakraTrace(bytes.substr(metaLen), "nometa.et");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->nodes.size(), 3u);
  EXPECT_EQ(read->problems.all().size(), 1u);
  EXPECT_EQ(read->problems.all()[0].severity, Severity::Warning);
}

TEST(ChakraEtFile, CountsGraphFaults) {
  ChakraTrace t = smallTrace();
  t.nodes[1].add_ctrl_deps(2);   // node 2 on itself
  t.nodes[2].add_data_deps(77);  // absent
  t.nodes.emplace_back().set_id(5);
  auto read = parseChakraTrace(serializeChakraTrace(t), "g.et");
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->problems.count("node depends on itself"), 1u);
  EXPECT_EQ(read->problems.count("dependency on a node id absent from the file"), 1u);
  EXPECT_EQ(read->problems.count("duplicate node id (a consumer keeps only one of them)"), 1u);
}

}  // namespace
}  // namespace sutra::chakra
