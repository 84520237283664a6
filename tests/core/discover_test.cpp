// SPDX-License-Identifier: MIT
// Trace discovery: classification by content, ranks, pairing, and the errors for bad paths. The
// fixtures under tests/data/discover and tests/data/bad are written by
// tests/tools/make_fixtures.py.
#include "io/discover.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "io/json_prefix_scanner.h"
#include "test_support.h"

namespace sutra {
namespace {

using test::fixture;

struct Sniffed {
  FileKind kind;
  std::string schema;
  std::optional<int> rank;
};

Sniffed sniff(const std::string& path) {
  auto r = sniffTraceFile(path);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  if (!r.ok()) return {FileKind::Unknown, "", std::nullopt};
  return {r->kind, r->schema, r->rank};
}

TEST(Sniff, KinetoLayouts) {
  auto basic = sniff(fixture("kineto/basic.json"));
  EXPECT_EQ(basic.kind, FileKind::KinetoTrace);
  EXPECT_EQ(basic.schema, "1");
  EXPECT_EQ(basic.rank, 0);  // distributedInfo.rank
  auto gz = sniff(fixture("kineto/basic.json.gz"));
  EXPECT_EQ(gz.kind, FileKind::KinetoTrace);
  EXPECT_EQ(gz.rank, 0);
  auto bare = sniff(fixture("kineto/bare_array.json"));
  EXPECT_EQ(bare.kind, FileKind::KinetoTrace);
  EXPECT_EQ(bare.schema, "");
  EXPECT_EQ(bare.rank, std::nullopt);
  EXPECT_EQ(sniff(fixture("kineto/string_ids.json")).kind, FileKind::KinetoTrace);
  EXPECT_EQ(sniff(fixture("kineto/ns_base.json")).kind, FileKind::KinetoTrace);
}

TEST(Sniff, ExecutionTraces) {
  std::string schema;
  auto flat = sniffTraceKind(fixture("et/flat_1.0.1.json"), &schema);
  ASSERT_TRUE(flat.ok());
  EXPECT_EQ(*flat, FileKind::PytorchEt);
  EXPECT_EQ(schema, "1.0.1");
  auto attrs = sniffTraceKind(fixture("et/attrs_1.1.0.json"), &schema);
  ASSERT_TRUE(attrs.ok());
  EXPECT_EQ(*attrs, FileKind::PytorchEt);
  EXPECT_EQ(schema, "1.1.0-chakra.0.0.4");
  // ET+: the first three nodes carry no link fields, the fourth does.
  auto linked = sniff(fixture("discover/two_ranks/linked_rank-1.json"));
  EXPECT_EQ(linked.kind, FileKind::LinkedEt);
  EXPECT_EQ(linked.rank, 1);
  EXPECT_EQ(sniff(fixture("bad/et_unknown_schema.json")).schema, "7.3.0-future");
}

TEST(Sniff, ChakraProtobufPlainAndGzip) {
  auto plain = sniff(fixture("discover/two_ranks/model.0.et"));
  EXPECT_EQ(plain.kind, FileKind::ChakraEt);
  EXPECT_EQ(plain.schema, "0.0.4");
  EXPECT_EQ(plain.rank, 0);
  auto gz = sniff(fixture("discover/two_ranks/model.1.et.gz"));
  EXPECT_EQ(gz.kind, FileKind::ChakraEt);
  EXPECT_EQ(gz.rank, 1);
}

TEST(Sniff, ContentNotName) {
  auto mislabeled = sniff(fixture("discover/two_ranks/mislabeled.et"));
  EXPECT_EQ(mislabeled.kind, FileKind::KinetoTrace);
  // torch.profiler writes distributedInfo after the events: found in the file's tail.
  auto late = sniff(fixture("discover/two_ranks/host_trace.json"));
  EXPECT_EQ(late.kind, FileKind::KinetoTrace);
  EXPECT_EQ(late.rank, 1);
}

TEST(Sniff, UnknownFilesSayWhy) {
  auto reason = [](const std::string& rel) {
    auto r = sniffTraceFile(fixture(rel));
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r->kind, FileKind::Unknown) << rel;
    return r->reason;
  };
  EXPECT_EQ(reason("bad/not_a_trace.json"),
            "not a trace: a JSON object without \"traceEvents\" or \"nodes\"");
  EXPECT_EQ(reason("bad/array_without_ph.json"),
            "not a trace: a JSON array whose first element has no \"ph\"");
  EXPECT_EQ(reason("bad/garbage.bin"), "not a trace: neither JSON nor a Chakra protobuf trace");
  EXPECT_EQ(reason("discover/two_ranks/README.txt"),
            "not a trace: neither JSON nor a Chakra protobuf trace");
  EXPECT_EQ(reason("bad/deep_nesting.json"),
            "not a trace: invalid JSON at byte 512: nesting deeper than 512 levels");
}

TEST(Sniff, KindIsToldBeforeTheDamage) {
  // The head is intact: the kind is known and the reader reports the damage further on.
  EXPECT_EQ(sniff(fixture("bad/truncated.json")).kind, FileKind::KinetoTrace);
  EXPECT_EQ(sniff(fixture("bad/control_chars.json")).kind, FileKind::KinetoTrace);
  EXPECT_EQ(sniff(fixture("bad/truncated.et")).kind, FileKind::ChakraEt);
}

TEST(Sniff, ErrorsNameTheFileAndTheProblem) {
  auto error = [](const std::string& path) {
    auto r = sniffTraceKind(path);
    EXPECT_FALSE(r.ok()) << path;
    return r.ok() ? std::string() : r.error().message;
  };
  const std::string missing = fixture("bad/no_such_file.json");
  EXPECT_EQ(error(missing), missing + ": no such file or directory");
  const std::string dir = fixture("bad/a_directory.json");
  EXPECT_EQ(error(dir), dir + ": is a directory, not a trace file");
  EXPECT_EQ(error(fixture("bad/empty.json")), fixture("bad/empty.json") + ": empty file");
  EXPECT_EQ(error(fixture("bad/empty.json.gz")),
            fixture("bad/empty.json.gz") + ": empty file: the gzip stream decompresses to no data");
  EXPECT_EQ(error(fixture("bad/corrupt.json.gz")),
            fixture("bad/corrupt.json.gz") +
                ": corrupt gzip data near compressed byte 20: invalid distance too far back");
  // Cut short before the kind can be told (the whole file is 343 bytes).
  EXPECT_EQ(
      error(fixture("bad/truncated.json.gz")),
      fixture("bad/truncated.json.gz") +
          ": truncated gzip stream: the file ends at byte 343 before the compressed data does");
}

TEST(Sniff, PermissionDenied) {
  const test::TempDir dir;
  const auto path = dir.path() / "noperm.json";
  { std::ofstream(path) << "{\"traceEvents\": []}"; }
  std::filesystem::permissions(path, std::filesystem::perms::none);
  // Root reads every file: the sniff runs as an unprivileged user there (test::asUnprivileged).
  const std::string message = test::asUnprivileged(dir.path(), [&] {
    auto r = sniffTraceKind(path.string());
    return r.ok() ? std::string("read") : r.error().message;
  });
  EXPECT_EQ(message, path.string() + ": permission denied");
}

TEST(RankFromFileName, EveryConvention) {
  EXPECT_EQ(rankFromFileName("/x/rank-3.pt.trace.json"), 3);
  EXPECT_EQ(rankFromFileName("/x/trainer_rank_12.json.gz"), 12);
  EXPECT_EQ(rankFromFileName("/x/kineto_rank5.json"), 5);
  EXPECT_EQ(rankFromFileName("/x/chakra.7.et"), 7);
  EXPECT_EQ(rankFromFileName("/x/chakra_7.et.gz"), 7);
  EXPECT_EQ(rankFromFileName("/x/trace_2.json"), 2);
  EXPECT_EQ(rankFromFileName("/x/Rank1/trace.json"), 1);
  EXPECT_EQ(rankFromFileName("/x/linear_kineto.json.gz"), std::nullopt);
  // A schema version in the name is no rank.
  EXPECT_EQ(rankFromFileName("/x/et_1.0.2-chakra.0.0.4.json.gz"), std::nullopt);
}

TEST(Discover, TwoRanksGroupedAndPaired) {
  const std::string dir = fixture("discover/two_ranks");
  auto d = discoverTraces({dir});
  ASSERT_TRUE(d.ok()) << d.error().message;
  ASSERT_EQ(d->files.size(), 9u);
  ASSERT_EQ(d->ranks.size(), 2u);
  const RankGroup& r0 = d->ranks[0];
  EXPECT_EQ(r0.rank, 0);
  EXPECT_EQ(r0.kineto, dir + "/kineto_rank_0.json");  // a better name match than mislabeled.et
  EXPECT_EQ(r0.et, dir + "/et_rank_0.json");
  EXPECT_EQ(r0.linked, std::nullopt);
  EXPECT_EQ(r0.chakra, std::vector<std::string>{dir + "/model.0.et"});
  const RankGroup& r1 = d->ranks[1];
  EXPECT_EQ(r1.rank, 1);
  EXPECT_EQ(r1.kineto, dir + "/host_trace.json");
  EXPECT_EQ(r1.et, dir + "/et_rank_1.json.gz");
  EXPECT_EQ(r1.linked, dir + "/linked_rank-1.json");
  EXPECT_EQ(r1.chakra, std::vector<std::string>{dir + "/model.1.et.gz"});
  const std::vector<std::string> notes{
      dir + "/mislabeled.et: unpaired: another Kineto trace of rank 0 (" + dir +
          "/kineto_rank_0.json) is paired with " + dir + "/et_rank_0.json",
      dir + "/README.txt: skipped: not a trace: neither JSON nor a Chakra protobuf trace"};
  EXPECT_EQ(d->notes, notes);
}

TEST(Discover, OneRankWithoutRanksIsRankZero) {
  const std::string dir = fixture("discover/single");
  auto d = discoverTraces({dir + "/train_et.json", dir + "/train_kineto.json.gz"});
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->ranks.size(), 1u);
  EXPECT_EQ(d->ranks[0].rank, 0);
  EXPECT_EQ(d->ranks[0].et, dir + "/train_et.json");
  EXPECT_EQ(d->ranks[0].kineto, dir + "/train_kineto.json.gz");
  EXPECT_EQ(d->files[0].reason, "rank 0 assumed: no rank in the content or the name");
  EXPECT_TRUE(d->notes.empty());
}

TEST(Discover, ASimulatedTimelineSavedBesideTheTracesStandsForNoRecordedRank) {
  // Saved into the run's folder (the window's save dialogs start there): its name sorts first
  // and says rank 0, but a recorded Kineto trace of rank 0 is there too.
  const test::TempDir scratch;
  const auto& dir = scratch.path();
  const std::string head =
      "{\"displayTimeUnit\":\"ms\",\"traceName\":\"Sutra simulated timeline\",";
  { std::ofstream(dir / "a.rank0.simulated.json") << head << "\"traceEvents\": []}"; }
  { std::ofstream(dir / "rank0.kineto.json") << "{\"traceEvents\": []}"; }
  auto d = discoverTraces({dir.string()});
  ASSERT_TRUE(d.ok()) << d.error().message;
  ASSERT_EQ(d->ranks.size(), 1u);
  EXPECT_EQ(d->ranks[0].kineto, (dir / "rank0.kineto.json").string());
  const std::string leftOut = (dir / "a.rank0.simulated.json").string() +
                              ": left out: Sutra's simulated timeline of rank 0, not a recorded "
                              "trace (open it on its own to see it)";
  EXPECT_NE(std::find(d->notes.begin(), d->notes.end(), leftOut), d->notes.end());
  // Alone, it is what there is of the rank.
  std::filesystem::remove(dir / "rank0.kineto.json");
  d = discoverTraces({dir.string()});
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->ranks.size(), 1u);
  EXPECT_EQ(d->ranks[0].kineto, (dir / "a.rank0.simulated.json").string());
}

TEST(Discover, RankFromDirectoryNames) {
  const std::string dir = fixture("discover/rank_dirs");
  auto d = discoverTraces({dir});
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->ranks.size(), 2u);
  EXPECT_EQ(d->ranks[1].kineto, dir + "/rank1/trace.json");
  EXPECT_EQ(d->notes.back(), dir +
                                 "/rank1/trace.json: unpaired: no execution trace of rank 1 "
                                 "(the timeline can be shown, not linked)");
}

TEST(Discover, SameFileTwiceCountsOnce) {
  const std::string dir = fixture("discover/single");
  auto d = discoverTraces({dir, dir + "/train_et.json"});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->files.size(), 2u);
}

TEST(Discover, Errors) {
  const std::string missing = fixture("discover/nowhere");
  auto r = discoverTraces({missing});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, missing + ": no such file or directory");

  const test::TempDir scratch;
  const auto empty = scratch.path() / "empty_dir";
  std::filesystem::create_directories(empty);
  auto e = discoverTraces({empty.string()});
  ASSERT_FALSE(e.ok());
  EXPECT_EQ(e.error().message, empty.string() + ": empty directory: no files in it or below");
  std::filesystem::remove(empty);

  auto emptyFile = discoverTraces({fixture("bad/empty.json")});
  ASSERT_FALSE(emptyFile.ok());
  EXPECT_EQ(emptyFile.error().message, fixture("bad/empty.json") + ": empty file");

  auto none = discoverTraces({});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "no trace files or directories given");
}

TEST(Discover, UnreadableFilesInADirectoryAreKeptWithTheReason) {
  auto d = discoverTraces({fixture("bad")});
  ASSERT_TRUE(d.ok());
  for (const auto& f : d->files) {
    if (f.path == fixture("bad/corrupt.json.gz")) {
      EXPECT_EQ(f.kind, FileKind::Unknown);
      EXPECT_EQ(f.reason,
                "corrupt gzip data near compressed byte 20: invalid distance too far back");
    }
    if (f.path == fixture("bad/empty.json")) {
      EXPECT_EQ(f.reason, "empty file");
    }
  }
}

// The shared real traces: every file is classified, with its schema and rank.
TEST(Discover, SharedTraces) {
  SUTRA_REQUIRE_SHARED_TRACES();
  struct Expect {
    const char* path;
    FileKind kind;
    const char* schema;
    std::optional<int> rank;
  };
  const Expect expected[] = {
      {"astra-sim/all_gather_4npus/all_gather.2.et", FileKind::ChakraEt, "0.0.4", 2},
      {"astra-sim/custom_allreduce_8npus/custom_allreduce.7.et", FileKind::ChakraEt,
       "1.0.2-chakra.0.0.4", 7},
      {"chakra/feeder_chakra.0.et", FileKind::ChakraEt, "1.0.1", 0},
      {"chakra/et_1.0.2-chakra.0.0.4.json.gz", FileKind::PytorchEt, "1.0.2-chakra.0.0.4",
       std::nullopt},
      {"hta/amd/mi250_minitoy_train_rocm6.2.json.gz", FileKind::KinetoTrace, "1", std::nullopt},
      {"hta/cpu_only/rank-34.pt.trace.json.gz", FileKind::KinetoTrace, "1", 34},
      {"hta/critical_path/alexnet.json.gz", FileKind::KinetoTrace, "1", 0},
      {"hta/execution_trace/simple_add_et.json.gz", FileKind::PytorchEt, "1.0.1", std::nullopt},
      {"hta/execution_trace/simple_add_kineto.json.gz", FileKind::KinetoTrace, "1", 0},
      {"hta/mtia/mtia_inference_rank_0.json.gz", FileKind::KinetoTrace, "1", 0},
      {"hta/trace_compare/test.json.gz", FileKind::KinetoTrace, "", 1},
      {"param/linear_et.json.gz", FileKind::PytorchEt, "1.0.1", std::nullopt},
      {"param/linear_kineto.json.gz", FileKind::KinetoTrace, "1", std::nullopt},
      {"param/resnet_1gpu_et.1.0.3-chakra.0.0.4.json.gz", FileKind::PytorchEt, "1.0.3-chakra.0.0.4",
       std::nullopt},
      {"param/resnet_2gpu_et.1.1.0-chakra.0.0.4.json.gz", FileKind::PytorchEt, "1.1.0-chakra.0.0.4",
       std::nullopt},
  };
  for (const auto& e : expected) {
    auto s = sniff(test::sharedTrace(e.path));
    EXPECT_EQ(s.kind, e.kind) << e.path;
    EXPECT_EQ(s.schema, e.schema) << e.path;
    EXPECT_EQ(s.rank, e.rank) << e.path;
  }
  // A matched ET + Kineto pair without a rank in the ET: both rank 0, paired.
  auto d = discoverTraces({test::sharedTrace("hta/execution_trace")});
  ASSERT_TRUE(d.ok());
  ASSERT_EQ(d->ranks.size(), 1u);
  EXPECT_EQ(d->ranks[0].et, test::sharedTrace("hta/execution_trace/simple_add_et.json.gz"));
  EXPECT_EQ(d->ranks[0].kineto, test::sharedTrace("hta/execution_trace/simple_add_kineto.json.gz"));
  auto ranks = discoverTraces({test::sharedTrace("astra-sim/custom_allreduce_8npus")});
  ASSERT_TRUE(ranks.ok());
  EXPECT_EQ(ranks->ranks.size(), 8u);
}

// --- The prefix scanner the sniffer stands on ----------------------------------------------------

class Recorder final : public JsonPrefixScanner::Visitor {
 public:
  std::string log;
  bool onKey(JsonPrefixScanner::Path p, std::string_view key) override {
    log += "K" + std::to_string(p.size()) + ":" + std::string(key) + " ";
    return true;
  }
  bool onValue(JsonPrefixScanner::Path p, std::string_view token, bool isString) override {
    log += (isString ? "S" : "V") + std::to_string(p.size()) + ":" + std::string(token) + " ";
    return true;
  }
  bool onOpen(JsonPrefixScanner::Path p) override {
    log += "O" + std::to_string(p.size()) + " ";
    return true;
  }
  bool onClose(JsonPrefixScanner::Path p, JsonPrefixScanner::Container) override {
    log += "C" + std::to_string(p.size()) + " ";
    return true;
  }
};

TEST(JsonPrefixScanner, ChunkBoundariesDoNotMatter) {
  const std::string text = R"({"a": [1, -2.5e3, "x\"y"], "bb": {"c": true, "d": null}})";
  Recorder whole;
  JsonPrefixScanner one(whole);
  EXPECT_EQ(one.feed(text, true), JsonPrefixScanner::Status::Done);
  EXPECT_EQ(whole.log,
            "O1 K1:a O2 V2:1 V2:-2.5e3 S2:x\\\"y C1 K1:bb O2 K2:c V2:true K2:d V2:null C1 C0 ");
  for (std::size_t cut = 1; cut < text.size(); ++cut) {
    Recorder parts;
    JsonPrefixScanner scanner(parts);
    EXPECT_EQ(scanner.feed(text.substr(0, cut)), JsonPrefixScanner::Status::NeedMore) << cut;
    EXPECT_EQ(scanner.feed(text.substr(cut), true), JsonPrefixScanner::Status::Done) << cut;
    EXPECT_EQ(parts.log, whole.log) << cut;
  }
}

// Every root value, a string as much as an object or a number, ends the scan where it ends, so a
// chunk boundary just after it cannot change the result (libFuzzer found the string case).
TEST(JsonPrefixScanner, TheRootValueEndsTheScan) {
  for (const std::string text : {R"("na:"aa*"}])", R"({"a": 1} x)", "12 x", "[] ]"}) {
    Recorder whole;
    JsonPrefixScanner one(whole);
    EXPECT_EQ(one.feed(text, true), JsonPrefixScanner::Status::Done) << text;
    for (std::size_t cut = 1; cut < text.size(); ++cut) {
      Recorder parts;
      JsonPrefixScanner scanner(parts);
      auto status = scanner.feed(text.substr(0, cut));
      if (status == JsonPrefixScanner::Status::NeedMore)
        status = scanner.feed(text.substr(cut), true);
      EXPECT_EQ(status, JsonPrefixScanner::Status::Done) << text << " cut " << cut;
      EXPECT_EQ(parts.log, whole.log) << text << " cut " << cut;
      EXPECT_EQ(scanner.offset(), one.offset()) << text << " cut " << cut;
    }
  }
}

TEST(JsonPrefixScanner, InvalidTextHasAnOffset) {
  struct Case {
    const char* text;
    std::uint64_t offset;
    const char* error;
  };
  const Case cases[] = {
      {R"({"a" 1})", 5, "unexpected '1'"},
      {R"([1,,2])", 3, "unexpected ','"},
      {R"({"a": [1, 2})", 11, "unexpected '}'"},
      {R"({"a": tru})", 6, "unexpected 't'"},
      {R"({"a": [1, 2)", 11, "the text ends inside an unclosed array"},
      {R"({"a": "open)", 6, "the text ends inside a string"},
      {"\x01", 0, "unexpected byte 0x01"},
  };
  for (const auto& c : cases) {
    Recorder r;
    JsonPrefixScanner scanner(r);
    EXPECT_EQ(scanner.feed(c.text, true), JsonPrefixScanner::Status::Invalid) << c.text;
    EXPECT_EQ(scanner.errorOffset(), c.offset) << c.text;
    EXPECT_EQ(scanner.error(), c.error) << c.text;
  }
}

}  // namespace
}  // namespace sutra
