// SPDX-License-Identifier: MIT
// Every bad input under tests/data/bad gets the readers' exact message (naming the file and the
// problem, with the byte offset where JSON is malformed), never a crash; recoverable oddities load
// with counted problems. Fixtures: tests/tools/make_fixtures.py and hand-written files.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "chakra/chakra_timeline.h"
#include "chakra/et_file.h"
#include "io/kineto_reader.h"
#include "io/readers.h"
#include "test_support.h"

namespace sutra {
namespace {

using test::fixture;

std::string kinetoError(const std::string& rel) {
  auto r = readKinetoTrace(fixture(rel));
  EXPECT_FALSE(r.ok()) << rel;
  return r.ok() ? std::string() : r.error().message;
}

std::string etError(const std::string& rel) {
  auto r = readPytorchEt(fixture(rel));
  EXPECT_FALSE(r.ok()) << rel;
  return r.ok() ? std::string() : r.error().message;
}

TEST(ReaderErrors, FileLevel) {
  for (auto* read : {&kinetoError, &etError}) {
    EXPECT_EQ(read("bad/missing.json"),
              fixture("bad/missing.json") + ": no such file or directory");
    EXPECT_EQ(read("bad/a_directory.json"),
              fixture("bad/a_directory.json") + ": is a directory, not a trace file");
    EXPECT_EQ(read("bad/empty.json"), fixture("bad/empty.json") + ": empty file");
    EXPECT_EQ(
        read("bad/empty.json.gz"),
        fixture("bad/empty.json.gz") + ": empty file: the gzip stream decompresses to no data");
    EXPECT_EQ(read("bad/truncated.json.gz"),
              fixture("bad/truncated.json.gz") +
                  ": truncated gzip stream: the file ends at byte 343 before the compressed data "
                  "does");
    EXPECT_EQ(read("bad/corrupt.json.gz"),
              fixture("bad/corrupt.json.gz") +
                  ": corrupt gzip data near compressed byte 20: invalid distance too far back");
    EXPECT_EQ(read("bad/garbage.bin"),
              fixture("bad/garbage.bin") + ": not JSON: expected '{' or '[' at byte 0, found 0x05");
    EXPECT_EQ(read("bad/trailing_garbage.json"),
              fixture("bad/trailing_garbage.json") +
                  ": malformed JSON at byte 100: unexpected 't' after the end of the document");
  }
}

TEST(ReaderErrors, PermissionDenied) {
  const test::TempDir dir;
  const auto path = dir.path() / "noperm.json";
  { std::ofstream(path) << "{\"traceEvents\": []}"; }
  std::filesystem::permissions(path, std::filesystem::perms::none);
  // Root reads every file: the reader runs as an unprivileged user there (test::asUnprivileged).
  const std::string message = test::asUnprivileged(dir.path(), [&] {
    auto r = readKinetoTrace(path.string());
    return r.ok() ? std::string("read") : r.error().message;
  });
  EXPECT_EQ(message, path.string() + ": permission denied");
}

TEST(ReaderErrors, KinetoContent) {
  EXPECT_EQ(kinetoError("bad/truncated.json"),
            fixture("bad/truncated.json") +
                ": truncated JSON: the file ends at byte 1006 inside the \"traceEvents\" array");
  EXPECT_EQ(
      kinetoError("bad/not_a_trace.json"),
      fixture("bad/not_a_trace.json") +
          ": not a Kineto trace: no \"traceEvents\" array (top-level members: hello, values)");
  EXPECT_EQ(kinetoError("bad/events_not_array.json"),
            fixture("bad/events_not_array.json") +
                ": not a Kineto trace: traceEvents is not an array (found a number)");
  EXPECT_EQ(kinetoError("et/flat_1.0.1.json"),
            fixture("et/flat_1.0.1.json") +
                ": not a Kineto trace: no \"traceEvents\" array (top-level members: schema, pid, "
                "time, start_ts, nodes, finish_ts)");
  EXPECT_EQ(kinetoError("bad/deep_nesting.json"),
            fixture("bad/deep_nesting.json") +
                ": truncated JSON: the file ends at byte 100000 inside the \"traceEvents\" array");
}

TEST(ReaderErrors, EtContent) {
  EXPECT_EQ(etError("bad/truncated.json"),
            fixture("bad/truncated.json") +
                ": truncated JSON: the file ends at byte 1006 before the document is closed");
  EXPECT_EQ(etError("bad/et_nodes_not_array.json"),
            fixture("bad/et_nodes_not_array.json") +
                ": not a PyTorch execution trace: nodes is not an array (found an object)");
  EXPECT_EQ(etError("kineto/bare_array.json"),
            fixture("kineto/bare_array.json") +
                ": not a PyTorch execution trace: the document is an array, not an object with "
                "\"nodes\"");
  EXPECT_EQ(etError("kineto/basic.json"),
            fixture("kineto/basic.json") + ": not a PyTorch execution trace: no \"nodes\" array");
}

TEST(ReaderErrors, ChakraContent) {
  auto r = chakra::readChakraTrace(fixture("bad/truncated.et"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, fixture("bad/truncated.et") +
                                   ": truncated file: message 2 at byte 71 declares 36 bytes but "
                                   "only 32 remain");
  auto json = chakra::readChakraTrace(fixture("kineto/basic.json"));
  EXPECT_FALSE(json.ok());
}

// Found by fuzz_chakra (tests/fuzz/corpus/chakra/crash-time-overflow.et): one node whose duration
// is near 2^64 microseconds overflowed the conversion to nanoseconds; it is clamped and counted.
TEST(FuzzRegressions, ChakraHugeTimesAreClamped) {
  const std::string path =
      std::string(SUTRA_SOURCE_DIR) + "/tests/fuzz/corpus/chakra/crash-time-overflow.et";
  std::ifstream in(path, std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  ASSERT_EQ(bytes.size(), 72u);
  auto et = chakra::parseChakraTrace(bytes, "crash.et");
  ASSERT_TRUE(et.ok()) << et.error().message;
  ASSERT_EQ(et->nodes.size(), 1u);
  const Trace trace = chakra::chakraToTimeline(*et);
  EXPECT_EQ(trace.problems.count("node time too large for the timeline (clamped)"), 1u);
  ASSERT_EQ(trace.events.size(), 1u);
  EXPECT_EQ(trace.events[0].start, 0);
  EXPECT_EQ(trace.events[0].dur, static_cast<TimeNs>(INT64_MAX / 1000 / 4) * 1000);
}

// A file with two problems, a malformed event early and the end cut off 1.4 MB later: the first
// batch's parse error and the scanner's end-of-file error race (found by a differential fuzz: the
// old reader said either, about one run in six the latter). The earliest problem in the file wins,
// every time.
TEST(ReaderErrors, EarliestOfTwoProblemsWinsWhateverTheThreadTiming) {
  std::string text = "{\"traceEvents\": [";  // the array's '[' is byte 16: the first batch's offset
  for (int i = 0; i < 12000; ++i) {
    if (i > 0) text += ",\n";
    if (i == 10) {
      text += R"({"ph": "X", "name": "broken" "ts": 1})";  // no comma before "ts"
      continue;
    }
    text += R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 2, "ts": )" +
            std::to_string(1000 + 10 * i) + R"(, "dur": 5, "args": {"External id": )" +
            std::to_string(i) + "}}";
  }
  ASSERT_GT(text.size(), 1u << 20);  // several 512 KB batches
  const std::string path = test::tempPath("early_error_late_truncation.json");
  std::ofstream(path, std::ios::binary) << text;
  for (int run = 0; run < 4; ++run) {
    auto trace = readKinetoTrace(path);
    ASSERT_FALSE(trace.ok());
    EXPECT_EQ(trace.error().message, path +
                                         ": malformed event near byte 16: The JSON document has an "
                                         "improper structure: missing or "
                                         "superfluous commas, braces, missing keys, etc.")
        << "run " << run;
  }
}

// deviceProperties members of the wrong type (found by a differential fuzz of the Kineto reader:
// nlohmann's value() threw and the process aborted) read as absent.
TEST(FuzzRegressions, KinetoDevicePropertiesOfOtherTypes) {
  auto trace = readKinetoTrace(std::string(SUTRA_SOURCE_DIR) +
                               "/tests/fuzz/corpus/kineto/device_id_string.json");
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  ASSERT_EQ(trace->meta.devices.size(), 1u);
  const DeviceInfo& d = trace->meta.devices[0];
  EXPECT_EQ(d.id, 0);                 // "0x1f": a string
  EXPECT_EQ(d.name, "");              // 7: a number
  EXPECT_EQ(d.totalGlobalMem, 1500);  // 1.5e3: a number, as before
  EXPECT_EQ(d.numSms, 0);             // "x"
  EXPECT_EQ(trace->events.size(), 1u);
}

// Bytes that are no JSON between an args key and its colon: simdjson's iteration of the args
// stopped there without an error, and the reader kept the events before it and dropped the rest
// of the batch, silently. Found by the fuzz target comparing reads in small and large chunks.
TEST(FuzzRegressions, KinetoMalformedArgsKeyIsAnError) {
  const std::string path = std::string(SUTRA_SOURCE_DIR) +
                           "/tests/fuzz/corpus/kineto/control_bytes_between_key_and_colon.json";
  for (const bool smallChunks : {false, true}) {
    auto trace = smallChunks ? readKinetoTraceInChunks(path, 64) : readKinetoTrace(path);
    ASSERT_FALSE(trace.ok()) << "loaded " << trace->events.size() << " events";
    EXPECT_EQ(trace.error().message, path +
                                         ": malformed args object near byte 0: The JSON document "
                                         "has an improper structure: missing or "
                                         "superfluous commas, braces, missing keys, etc.");
  }
}

// A backslash outside a string (found by the fuzz target comparing the two parse paths): the
// 64-byte scan read it as an escape of the quote after it, the byte-wise scan as a plain byte, so
// which error a malformed file got depended on where the blocks fell. Both now stop at it, at
// every alignment and in both parse paths.
TEST(FuzzRegressions, KinetoBackslashOutsideAStringFailsAtItWhereverItFalls) {
  for (std::size_t pad = 0; pad < 80; ++pad) {
    const std::string head = "{\"traceEvents\": [{\"ph\": \"X\", \"name\": \"a\"" +
                             std::string(pad, ' ') + ", \"ts\": 1 ";
    const std::string text =
        head + "\\\"\"}, {\"ph\": \"X\", \"ts\": 2, \"dur\": 1, \"name\": \"b\"}]}";
    const std::string path = test::tempPath("backslash_outside.json");
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    const std::string expected = path + ": malformed JSON at byte " + std::to_string(head.size()) +
                                 ": a backslash outside a string";
    for (const bool fast : {true, false}) {
      KinetoReadOptions options;
      options.fastScanner = fast;
      auto trace = readKinetoTrace(path, options);
      ASSERT_FALSE(trace.ok()) << "pad " << pad;
      EXPECT_EQ(trace.error().message, expected) << "pad " << pad << (fast ? " fast" : " simdjson");
    }
  }
}

// Recoverable oddities: the file loads and the problem is counted with an example.
TEST(ReaderProblems, CountedNotFatal) {
  auto neg = readKinetoTrace(fixture("bad/negative_duration.json"));
  ASSERT_TRUE(neg.ok()) << neg.error().message;
  EXPECT_EQ(neg->events.size(), 2u);
  EXPECT_EQ(neg->problems.count("event with negative duration (set to 0)"), 1u);

  auto unknown = readKinetoTrace(fixture("bad/unknown_fields.json"));
  ASSERT_TRUE(unknown.ok()) << unknown.error().message;
  EXPECT_EQ(unknown->events.size(), 2u);  // the unknown category is kept as data
  EXPECT_EQ(unknown->problems.count("event phase Sutra does not use, skipped"), 1u);

  auto control = readKinetoTrace(fixture("bad/control_chars.json"));
  ASSERT_TRUE(control.ok()) << control.error().message;
  ASSERT_EQ(control->events.size(), 1u);
  // tab, 0x01, 0x02 and 0x07 in the name and a newline in the args: five raw control characters.
  EXPECT_EQ(control->problems.count("raw control characters in strings (replaced with spaces)"),
            5u);
  // The example names where the first one is: the tab at byte 58 (python3 -c "print(open(
  // 'tests/data/bad/control_chars.json','rb').read().index(b'\\t'))"), in the first event.
  for (const auto& p : control->problems.all()) {
    if (p.what == "raw control characters in strings (replaced with spaces)") {
      EXPECT_EQ(p.example, "byte 58, in traceEvents[0]");
    }
  }

  auto future = readPytorchEt(fixture("bad/et_unknown_schema.json"));
  ASSERT_TRUE(future.ok()) << future.error().message;
  EXPECT_EQ(future->nodes.size(), 2u);
  EXPECT_EQ(future->problems.count("ET schema version Sutra does not know; read by shape"), 1u);
}

// The good layouts: each loads, with the counts the fixture was written with.
TEST(ReaderLayouts, KinetoFixtures) {
  struct Case {
    const char* rel;
    std::size_t events, lanes, flows, instants;
  };
  const Case cases[] = {
      {"kineto/basic.json", 5, 2, 1, 1},      {"kineto/basic.json.gz", 5, 2, 1, 1},
      {"kineto/string_ids.json", 4, 2, 0, 0}, {"kineto/ns_base.json", 4, 2, 0, 0},
      {"kineto/bare_array.json", 3, 2, 0, 0},
  };
  for (const auto& c : cases) {
    auto t = readKinetoTrace(fixture(c.rel));
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(t->events.size(), c.events) << c.rel;
    EXPECT_EQ(t->lanes.size(), c.lanes) << c.rel;
    EXPECT_EQ(t->flows.size(), c.flows) << c.rel;
    EXPECT_EQ(t->instants.size(), c.instants) << c.rel;
  }
  // ns resolution: 10.126 us after the base is 10126 ns after it, exactly.
  auto ns = readKinetoTrace(fixture("kineto/ns_base.json"));
  ASSERT_TRUE(ns.ok());
  EXPECT_EQ(ns->meta.baseTimeNanoseconds, 1700000000000000000);
  std::vector<TimeNs> durations;
  for (const auto& e : ns->events) durations.push_back(e.dur);
  std::sort(durations.begin(), durations.end());
  EXPECT_EQ(durations, (std::vector<TimeNs>{1, 750, 1999, 2500}));
  // String pids and tids are kept as written.
  auto ids = readKinetoTrace(fixture("kineto/string_ids.json"));
  ASSERT_TRUE(ids.ok());
  bool worker = false;
  for (const auto& lane : ids->lanes)
    worker = worker || (lane.pid == "host" && lane.tid == "worker-1");
  EXPECT_TRUE(worker);
}

TEST(ReaderLayouts, EtFixtures) {
  auto flat = readPytorchEt(fixture("et/flat_1.0.1.json"));
  ASSERT_TRUE(flat.ok()) << flat.error().message;
  EXPECT_EQ(flat->schema, "1.0.1");
  EXPECT_EQ(flat->nodes.size(), 5u);
  ASSERT_NE(flat->find(1), nullptr);
  EXPECT_TRUE(flat->find(1)->isRoot());  // the execution_graph root name
  EXPECT_TRUE(flat->find(2)->isThreadRoot());
  EXPECT_EQ(flat->find(4)->parent, 3);
  EXPECT_EQ(flat->find(7)->rfId, 12);

  auto attrs = readPytorchEt(fixture("et/attrs_1.1.0.json"));
  ASSERT_TRUE(attrs.ok()) << attrs.error().message;
  EXPECT_EQ(attrs->nodes.size(), 4u);
  const EtNode* comm = attrs->find(4);
  ASSERT_NE(comm, nullptr);
  EXPECT_EQ(comm->rfId, 22);
  EXPECT_EQ(comm->parent, 2);
  ASSERT_NE(comm->comm, nullptr);
  EXPECT_EQ(comm->comm->collectiveName, "allreduce");
  EXPECT_EQ(comm->comm->inMsgNelems, 8);
  EXPECT_EQ(comm->comm->pgSize, 2);
  const EtNode* mul = attrs->find(3);
  ASSERT_NE(mul, nullptr);
  ASSERT_EQ(mul->inputs.tensors.size(), 1u);
  EXPECT_EQ(mul->inputs.tensors[0].device, "cuda:0");
  EXPECT_EQ(mul->inputs.tensors[0].numel, 8);
}

}  // namespace
}  // namespace sutra
