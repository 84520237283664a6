// SPDX-License-Identifier: MIT
// encodeToChakra and encodeRankFiles (each node serialised as it is built: `sutra-cli convert`'s
// path) against convertToChakra + serializeChakraTrace / writeRankFiles (the nodes kept as
// messages, then serialised by libprotobuf): the same bytes, problems, statistics and ASTRA-sim
// fit input, on the real pairs in ../shared under every option that changes the graph, with the
// ops in the linked trace's order and reversed (ids out of order: the nodes are placed after the
// build).
#include <google/protobuf/util/delimited_message_util.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "chakra/astra_sim_config.h"
#include "chakra/convert_files.h"
#include "test_support.h"

namespace sutra::chakra {
namespace {

namespace fs = std::filesystem;

// A folder of this process's own: ctest runs the cases of this file in parallel processes, and a
// shared folder was removed under another case ("cannot remove: Directory not empty").
fs::path scratchDir(const std::string& stem) {
  return fs::path(::testing::TempDir()) / (stem + "-" + std::to_string(::getpid()));
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The GlobalMetadata as the file starts: its varint32 length, then the message (written by
// protobuf's own delimited writer, not by the code under test).
std::string metaBytes(const ChakraProtoMsg::GlobalMetadata& meta) {
  std::ostringstream out;
  EXPECT_TRUE(google::protobuf::util::SerializeDelimitedToOstream(meta, &out));
  return out.str();
}

void expectSameStats(const ConvertStats& a, const ConvertStats& b) {
  EXPECT_EQ(a.nodesByType, b.nodesByType);
  EXPECT_EQ(a.edges, b.edges);
  EXPECT_EQ(a.cpuNodes, b.cpuNodes);
  EXPECT_EQ(a.deviceNodes, b.deviceNodes);
  EXPECT_EQ(a.cyclesBroken, b.cyclesBroken);
  EXPECT_EQ(a.syncDepsRedirected, b.syncDepsRedirected);
  EXPECT_EQ(a.syncDepsDropped, b.syncDepsDropped);
  EXPECT_EQ(a.droppedDeps, b.droppedDeps);
  EXPECT_EQ(a.interThreadDepsDropped, b.interThreadDepsDropped);
  EXPECT_EQ(a.hostGapNodes, b.hostGapNodes);
  EXPECT_EQ(a.deviceGapNodes, b.deviceGapNodes);
  EXPECT_EQ(a.blockedNs, b.blockedNs);
}

void expectSameProblems(const ProblemLog& a, const ProblemLog& b) {
  ASSERT_EQ(a.all().size(), b.all().size());
  for (std::size_t i = 0; i < a.all().size(); ++i) {
    EXPECT_EQ(a.all()[i].severity, b.all()[i].severity);
    EXPECT_EQ(a.all()[i].what, b.all()[i].what);
    EXPECT_EQ(a.all()[i].count, b.all()[i].count);
    EXPECT_EQ(a.all()[i].example, b.all()[i].example);
  }
}

void expectSameFit(const AstraSimFitInput& a, const AstraSimFitInput& b) {
  ASSERT_EQ(a.rankCollectives.size(), b.rankCollectives.size());
  for (std::size_t r = 0; r < a.rankCollectives.size(); ++r) {
    ASSERT_EQ(a.rankCollectives[r].size(), b.rankCollectives[r].size());
    for (std::size_t i = 0; i < a.rankCollectives[r].size(); ++i) {
      EXPECT_EQ(a.rankCollectives[r][i].commType, b.rankCollectives[r][i].commType);
      EXPECT_EQ(a.rankCollectives[r][i].bytes, b.rankCollectives[r][i].bytes);
      EXPECT_EQ(a.rankCollectives[r][i].durationNs, b.rankCollectives[r][i].durationNs);
    }
  }
  EXPECT_EQ(a.computeNodes, b.computeNodes);
  EXPECT_EQ(a.computeNodesWithOps, b.computeNodesWithOps);
  EXPECT_EQ(a.computeOps, b.computeOps);
  EXPECT_EQ(a.computeNs, b.computeNs);
}

// Every comparison for one linked trace and one set of options.
void expectEncodedAsConverted(const LinkedTrace& linked, const ConvertOptions& options,
                              const std::string& label) {
  SCOPED_TRACE(label);
  auto conv = convertToChakra(linked, options);
  ASSERT_TRUE(conv.ok()) << conv.error().message;
  const std::string file = serializeChakraTrace(conv->trace);

  std::vector<NodeFacts> seen;
  auto enc = encodeToChakra(linked, options, [&seen](const NodeFacts& n) { seen.push_back(n); });
  ASSERT_TRUE(enc.ok()) << enc.error().message;
  EXPECT_EQ(enc->nodeCount, conv->trace.nodes.size());
  EXPECT_TRUE(metaBytes(enc->meta) + enc->nodes == file) << "the encoded bytes differ";
  ASSERT_EQ(seen.size(), conv->trace.nodes.size());
  for (std::size_t i = 0; i < seen.size(); ++i) {
    const NodeFacts expected = nodeFacts(conv->trace.nodes[i]);
    ASSERT_EQ(seen[i].type, expected.type) << "node " << i;
    ASSERT_EQ(seen[i].durationMicros, expected.durationMicros) << "node " << i;
    ASSERT_EQ(seen[i].cpuOp, expected.cpuOp) << "node " << i;
    ASSERT_EQ(seen[i].commType, expected.commType) << "node " << i;
    ASSERT_EQ(seen[i].commSize, expected.commSize) << "node " << i;
    ASSERT_EQ(seen[i].numOps, expected.numOps) << "node " << i;
    ASSERT_EQ(seen[i].tensorSize, expected.tensorSize) << "node " << i;
  }
  expectSameStats(enc->stats, conv->stats);
  expectSameProblems(enc->problems, conv->trace.problems);

  // Through a sink: the whole file, a chunk at a time, and nothing kept.
  std::string sunk;
  auto streamed = encodeToChakra(linked, options, {}, [&sunk](std::string_view bytes) -> Status {
    sunk += bytes;
    return Ok{};
  });
  ASSERT_TRUE(streamed.ok()) << streamed.error().message;
  EXPECT_TRUE(sunk == file) << "the streamed file differs";
  EXPECT_TRUE(streamed->nodes.empty());

  // The files and the fit input of `sutra-cli convert`, one rank and replicated.
  const fs::path dir = scratchDir("sutra_chakra_encode_test");
  fs::create_directories(dir);
  for (const std::vector<int>& ranks : {std::vector<int>{3}, std::vector<int>{0, 1}}) {
    AstraSimFitInput expectedFit, fit;
    expectedFit.addRank(conv->trace);
    auto before = writeRankFiles(conv->trace, (dir / "kept").string(), ranks);
    ASSERT_TRUE(before.ok()) << before.error().message;
    std::vector<std::string> written;
    fit.beginRank();
    auto after = encodeRankFiles(
        linked, (dir / "encoded").string(), ranks, {}, options,
        [&fit](const NodeFacts& n) { fit.addNode(n); }, written);
    ASSERT_TRUE(after.ok()) << after.error().message;
    ASSERT_EQ(written.size(), ranks.size());
    for (std::size_t i = 0; i < ranks.size(); ++i) {
      EXPECT_EQ(written[i], rankFileName((dir / "encoded").string(), ranks[i]));
      EXPECT_TRUE(readAll((*before)[i]) == readAll(written[i])) << written[i];
    }
    expectSameFit(fit, expectedFit);
  }
  fs::remove_all(dir);
}

struct PairCase {
  const char* name;  // the test's name: stable, unlike the pointers gtest would print
  const char* et;
  const char* kineto;
};

void PrintTo(const PairCase& c, std::ostream* os) { *os << c.et << " + " << c.kineto; }

class ChakraEncodeReal : public ::testing::TestWithParam<PairCase> {};

TEST_P(ChakraEncodeReal, EncodedBytesAreTheConvertedTracesBytes) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto linked =
      linkTracePair(test::sharedTrace(GetParam().et), test::sharedTrace(GetParam().kineto));
  ASSERT_TRUE(linked.ok()) << linked.error().message;
  ASSERT_TRUE(std::is_sorted(linked->ops.begin(), linked->ops.end(),
                             [](const auto& a, const auto& b) { return a.id < b.id; }));

  ConvertOptions noGaps;
  noGaps.measuredGaps = false;
  ConvertOptions asAsked;
  asAsked.metadataNodes = true;
  asAsked.unsupportedCollectivesAsComm = true;
  asAsked.streamOrder = false;
  ConvertOptions noCosts;
  noCosts.estimateCosts = false;
  const std::vector<std::pair<const char*, ConvertOptions>> variants{
      {"default", {}}, {"no gaps", noGaps}, {"metadata nodes", asAsked}, {"no costs", noCosts}};
  for (const auto& [name, options] : variants)
    expectEncodedAsConverted(*linked, options, std::string(name) + ", linked order");

  // Ops out of id order: the nodes are built in op order and placed by id afterwards.
  LinkedTrace reversed = *linked;
  std::reverse(reversed.ops.begin(), reversed.ops.end());
  reversed.reindex();
  for (const auto& [name, options] : variants)
    expectEncodedAsConverted(reversed, options, std::string(name) + ", ops reversed");
}

INSTANTIATE_TEST_SUITE_P(
    Pairs, ChakraEncodeReal,
    ::testing::Values(PairCase{"param_linear", "param/linear_et.json.gz",
                               "param/linear_kineto.json.gz"},
                      PairCase{"hta_simple_add", "hta/execution_trace/simple_add_et.json.gz",
                               "hta/execution_trace/simple_add_kineto.json.gz"}),
    [](const ::testing::TestParamInfo<PairCase>& info) { return std::string(info.param.name); });

TEST(ChakraEncode, ARefusedConversionOrAFailingSinkWritesNothing) {
  // Nothing to convert: the error, and no file (it is created with the first bytes).
  const fs::path dir = scratchDir("sutra_chakra_encode_refused");
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::vector<std::string> written;
  auto refused = encodeRankFiles(LinkedTrace{}, (dir / "out").string(), {0}, {}, {}, {}, written);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("nothing to convert"), std::string::npos)
      << refused.error().message;
  EXPECT_TRUE(written.empty());
  EXPECT_TRUE(fs::is_empty(dir));

  if (!test::sharedTracesPresent()) GTEST_SKIP() << "the sink's half needs ../shared/traces";
  auto linked = linkTracePair(test::sharedTrace("hta/execution_trace/simple_add_et.json.gz"),
                              test::sharedTrace("hta/execution_trace/simple_add_kineto.json.gz"));
  ASSERT_TRUE(linked.ok()) << linked.error().message;
  int calls = 0;
  auto failed = encodeToChakra(*linked, {}, {}, [&calls](std::string_view) -> Status {
    ++calls;
    return makeError("sink", "disk full");
  });
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().message, "sink: disk full");
  EXPECT_EQ(calls, 1);  // stopped at the first error

  // An output that is one of the inputs is refused, and nothing is left behind.
  const std::string input = (dir / "in.0.et").string();
  { std::ofstream(input) << "keep"; }
  ChakraWriteOptions write;
  write.protectedPaths = {input};
  auto protectedOut = encodeRankFiles(*linked, (dir / "in").string(), {0}, write, {}, {}, written);
  ASSERT_FALSE(protectedOut.ok());
  EXPECT_EQ(readAll(input), "keep");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sutra::chakra
