// SPDX-License-Identifier: MIT
// The streaming JSON layer and the Kineto / ET readers on small fixtures: exact values, and the
// same result whatever the chunk size (every boundary case of the chunked scanner is met).
#include <gtest/gtest.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <random>
#include <thread>

#include "io/batch_pipeline.h"
#include "io/byte_source.h"
#include "io/json_numbers.h"
#include "io/json_stream.h"
#include "io/readers.h"
#include "model/trace_builder.h"
#include "test_support.h"

namespace sutra {
namespace {

// The plain-integer path reads eight digits at a time: every length, every digit in every place,
// and a non-digit in every place (which must fall back to the general path's answer).
TEST(JsonNumbers, MicrosTextToNanosDigitsEightAtATime) {
  std::mt19937_64 random(11);
  for (int round = 0; round < 20000; ++round) {
    const std::size_t length = 1 + random() % 18;
    std::string text;
    for (std::size_t i = 0; i < length; ++i) text += static_cast<char>('0' + random() % 10);
    std::int64_t whole = 0;
    std::from_chars(text.data(), text.data() + text.size(), whole);
    const auto got = microsTextToNanos(text);
    if (whole > (INT64_MAX - 1000) / 1000) {
      ASSERT_FALSE(got) << text;
    } else {
      ASSERT_EQ(got, whole * 1000) << text;
    }
    // One byte made a '.', '/', ':' or a letter: a decimal point reads as such, the rest fail.
    const std::size_t at = random() % length;
    const char others[] = {'.', '/', ':', 'x'};
    std::string odd = text;
    odd[at] = others[random() % 4];
    const auto oddGot = microsTextToNanos(odd);
    if (odd[at] != '.') {
      ASSERT_FALSE(oddGot) << odd;
    } else if (oddGot) {
      std::int64_t w = 0;
      std::from_chars(odd.data(), odd.data() + at, w);
      ASSERT_EQ(*oddGot / 1000, w) << odd;
    }
  }
}

// torch.profiler writes microseconds with three decimals: they take the short path, and read as
// the general one reads them, at every length of the whole part and of the fraction.
TEST(JsonNumbers, MicrosecondsWithDecimalsReadExactly) {
  EXPECT_EQ(microsTextToNanos("5600997226489.400"), 5600997226489400);
  EXPECT_EQ(microsTextToNanos("73.5"), 73500);
  EXPECT_EQ(microsTextToNanos("46993.866"), 46993866);
  EXPECT_EQ(microsTextToNanos("1689180448573897.250"), 1689180448573897250);
  EXPECT_EQ(microsTextToNanos("12."), 12000);
  EXPECT_EQ(microsTextToNanos(".5"), 500);
  EXPECT_EQ(microsTextToNanos("1.2345"), 1235);  // a fourth decimal rounds
  EXPECT_EQ(microsTextToNanos("1.23x"), std::nullopt);
  EXPECT_EQ(microsTextToNanos("1.2.3"), std::nullopt);
  EXPECT_FALSE(microsTextToNanos("9223372036854775.807"));      // past the range
  EXPECT_FALSE(microsTextToNanos("123456789012345678.5"));      // 18 digits: past it too
  EXPECT_FALSE(microsTextToNanos("1234567890123456789.5"));     // 19 digits
  EXPECT_EQ(microsTextToNanos("000000000000000012.5"), 12500);  // 18 digits, zeros first
  std::int64_t whole = 7;
  for (int digits = 1; digits <= 18; ++digits, whole = whole * 10 + digits % 10) {
    for (const char* fraction : {"0", "5", "05", "50", "123", "999", "001"}) {
      const std::string text = std::to_string(whole) + "." + fraction;
      std::int64_t ns = 0;
      for (int d = 0; d < 3; ++d)
        ns = ns * 10 + (d < static_cast<int>(std::strlen(fraction)) ? fraction[d] - '0' : 0);
      const bool inRange = whole <= (INT64_MAX - 1000) / 1000;
      EXPECT_EQ(microsTextToNanos(text),
                inRange ? std::optional<std::int64_t>(whole * 1000 + ns) : std::nullopt)
          << text;
    }
  }
}

TEST(JsonNumbers, MicrosTextToNanosIsExact) {
  EXPECT_EQ(microsTextToNanos("1689180448563241"), 1689180448563241000);
  EXPECT_EQ(microsTextToNanos("4203669604595.407"), 4203669604595407);
  EXPECT_EQ(microsTextToNanos("1700000000000010.250"), 1700000000000010250);
  EXPECT_EQ(microsTextToNanos("5.5"), 5500);
  EXPECT_EQ(microsTextToNanos("0.0004"), 0);
  EXPECT_EQ(microsTextToNanos("0.0005"), 1);  // rounds beyond ns
  EXPECT_EQ(microsTextToNanos("-1.25"), -1250);
  EXPECT_EQ(microsTextToNanos("1.5e3"), 1500000);
  EXPECT_EQ(microsTextToNanos("\"12\""), 12000);  // a timestamp written as a string
  EXPECT_FALSE(microsTextToNanos("abc"));
  EXPECT_FALSE(microsTextToNanos(""));
  // Near int64's end the nanoseconds would overflow (libFuzzer found the rounding case).
  EXPECT_FALSE(microsTextToNanos("9223372036854775.8077"));
  EXPECT_FALSE(microsTextToNanos("-9223372036854775.807"));
  EXPECT_EQ(microsTextToNanos("9223372036854774.999"), 9223372036854774999);
  // Plain integers take a shorter path: the same range, up to 18 digits and beyond.
  EXPECT_EQ(microsTextToNanos("9223372036854774"), 9223372036854774000);
  EXPECT_FALSE(microsTextToNanos("9223372036854775"));
  EXPECT_EQ(microsTextToNanos("000000000000000012"), 12000);
  EXPECT_FALSE(microsTextToNanos("123456789012345678"));
  EXPECT_FALSE(microsTextToNanos("1234567890123456789"));
  EXPECT_EQ(microsTextToNanos("0000000000000000012"), 12000);
  EXPECT_EQ(integerText("42"), 42);
  EXPECT_EQ(integerText("007"), 7);
  EXPECT_EQ(integerText("-5"), -5);
  EXPECT_EQ(integerText("\"12\""), 12);
  EXPECT_EQ(integerText("999999999999999999"), 999999999999999999);  // 18 digits: the short path
  EXPECT_EQ(integerText("9223372036854775807"), INT64_MAX);          // 19: from_chars
  EXPECT_FALSE(integerText("9223372036854775808"));
  EXPECT_FALSE(integerText(""));
  EXPECT_EQ(integerText("3.0"), 3);
  EXPECT_FALSE(integerText("3.5"));
}

// Streams `text` with the given chunk size and returns the elements re-serialised, plus members.
// With `handOver`, batches come with the scanner's buffer (onBatchBuffer); each buffer is given
// back as the next spare with its bytes scribbled over, so a batch that still read from it, or a
// tail not carried into the next buffer, would show.
std::pair<std::vector<std::string>, std::vector<std::string>> streamAll(
    const std::string& text, std::size_t chunk, const char* key = "traceEvents",
    bool handOver = false, bool speculate = false, std::uint64_t* guessed = nullptr) {
  // One file per test: ctest runs the tests of this binary as parallel processes.
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  const std::string path = test::tempPath(std::string("stream_") + info->test_suite_name() + "_" +
                                          info->name() + ".json");
  std::ofstream(path, std::ios::binary) << text;
  auto source = ByteSource::open(path);
  EXPECT_TRUE(source.ok());
  std::vector<std::string> elements, members;
  std::uint64_t guessedBatches = 0;
  JsonStreamHandlers h;
  h.speculativeSplit = speculate;
  h.onBatch = [&](const JsonBatch& b) -> Status {
    auto arr = nlohmann::json::parse(std::string(b.data, b.size), nullptr, false);
    if (b.speculative) {
      ++guessedBatches;
      // What the reader does: a guessed batch that is not "[object, ...]" fails the pass.
      bool objects = arr.is_array();
      for (const auto& e : arr) objects = objects && e.is_object();
      if (!objects) return makeError(path, "guess did not hold");
    }
    EXPECT_FALSE(arr.is_discarded())
        << "batch at " << b.fileOffset << ": " << std::string(b.data, b.size);
    if (!b.speculative) {
      EXPECT_EQ(arr.size(), b.elements);
    }
    for (auto& e : arr) elements.push_back(e.dump());
    return Ok{};
  };
  h.onMember = [&](std::string_view k, std::string_view v) {
    members.push_back(std::string(k) + "=" + nlohmann::json::parse(v).dump());
  };
  std::vector<char> spare;
  std::size_t handed = 0;
  if (handOver) {
    h.onBatchBuffer = [&](const JsonBatch& b, std::vector<char>&& buffer) -> Status {
      EXPECT_GE(b.data, buffer.data());
      EXPECT_LE(b.data + b.size + kJsonPadding, buffer.data() + buffer.size());
      EXPECT_EQ(b.capacity, static_cast<std::size_t>(buffer.data() + buffer.size() - b.data));
      // Between the brackets, the batch is the file's text at its offset.
      EXPECT_EQ(std::string_view(b.data + 1, b.size - 2),
                std::string_view(text).substr(b.fileOffset + 1, b.size - 2));
      ++handed;
      auto status = h.onBatch(b);
      std::fill(buffer.begin(), buffer.end(), '#');
      spare = std::move(buffer);
      return status;
    };
    h.spareBuffer = [&] { return std::move(spare); };
  }
  auto summary = streamJsonArray(**source, key, h, chunk);
  if (speculate && !summary.ok() && guessedBatches > 0) {  // and then reads again without guessing
    if (guessed) *guessed = 0;
    return streamAll(text, chunk, key, handOver);
  }
  EXPECT_TRUE(summary.ok()) << (summary.ok() ? "" : summary.error().message);
  if (guessed && summary.ok()) *guessed = summary->speculativeBatches;
  if (handOver && 4 * chunk < text.size()) {
    EXPECT_GT(handed, 0u) << "chunk " << chunk;
  }
  return {elements, members};
}

TEST(JsonStream, SameElementsWhateverTheChunkSize) {
  const std::string text =
      R"({"a": 1, "b": {"x": [1, "}", "\\\""]}, "traceEvents": [ {"n": "a\"b"}, [1,2], "str,]", 17, {"n": "\\"}, {} ], "z": "end"})";
  auto [expected, members] = streamAll(text, 1 << 20);
  ASSERT_EQ(expected.size(), 6u);
  EXPECT_EQ(expected[0], R"({"n":"a\"b"})");
  EXPECT_EQ(expected[3], "17");
  EXPECT_EQ(members, (std::vector<std::string>{"a=1", R"(b={"x":[1,"}","\\\""]})", R"(z="end")"}));
  for (std::size_t chunk = 1; chunk < 64; ++chunk) {
    for (bool handOver : {false, true}) {
      auto [got, gotMembers] = streamAll(text, chunk, "traceEvents", handOver);
      EXPECT_EQ(got, expected) << "chunk " << chunk << (handOver ? ", buffers handed over" : "");
      EXPECT_EQ(gotMembers, members) << "chunk " << chunk;
    }
  }
}

// The array scanner looks at 64 bytes a step (quotes, escapes and "inside a string" as bit masks):
// elements whose strings hold quotes, braces, commas and runs of backslashes, shifted by one byte
// each, put every such byte on every position of a block and across chunk ends.
TEST(JsonStream, SameElementsAcrossBlockAndChunkBoundaries) {
  std::string text = R"({"traceEvents": [)";
  for (int k = 0; k < 150; ++k) {
    if (k > 0) text += ",";
    text += std::string(static_cast<std::size_t>(k % 7), ' ');
    text += R"({"n": ")" + std::string(static_cast<std::size_t>(k % 64), 'x') +
            R"(\"}{,][", "b": ")" + std::string(static_cast<std::size_t>(2 * (k % 5)), '\\') +
            R"(", "v": [)" + std::to_string(k) + R"(, "]", {"q": "\\\""}]})";
  }
  text += R"(], "z": "end"})";
  const auto reference = nlohmann::json::parse(text);
  std::vector<std::string> expected;
  for (const auto& e : reference["traceEvents"]) expected.push_back(e.dump());
  for (std::size_t chunk : {std::size_t{1}, std::size_t{63}, std::size_t{64}, std::size_t{65},
                            std::size_t{129}, std::size_t{1000}, std::size_t{1} << 20}) {
    for (bool handOver : {false, true}) {
      auto [got, members] = streamAll(text, chunk, "traceEvents", handOver);
      EXPECT_EQ(got, expected) << "chunk " << chunk << (handOver ? ", buffers handed over" : "");
      EXPECT_EQ(members, std::vector<std::string>{R"(z="end")"}) << "chunk " << chunk;
    }
  }
}

// Raw control characters inside strings become spaces, wherever they fall in a block, and the
// first one's place is kept for the problem's example.
TEST(JsonStream, ControlCharactersInStringsAreCountedAndReplaced) {
  std::string text = R"({"traceEvents": [)";
  for (int k = 0; k < 40; ++k) {
    if (k > 0) text += ",\n";
    text += R"({"n": ")" + std::string(static_cast<std::size_t>(k), 'y') +
            (k >= 3 ? "\t\x01" : "") + R"("})";
  }
  text += "]}";
  const std::size_t first = text.find('\t');
  for (std::size_t chunk : {std::size_t{5}, std::size_t{64}, std::size_t{1} << 20}) {
    const std::string path = test::tempPath("stream_control_" + std::to_string(chunk) + ".json");
    std::ofstream(path, std::ios::binary) << text;
    auto source = ByteSource::open(path);
    ASSERT_TRUE(source.ok());
    std::size_t elements = 0;
    JsonStreamHandlers h;
    h.onBatch = [&](const JsonBatch& b) -> Status {
      auto arr = nlohmann::json::parse(std::string(b.data, b.size));  // valid JSON now
      elements += arr.size();
      for (const auto& e : arr) EXPECT_EQ(e["n"].get<std::string>().find('\t'), std::string::npos);
      return Ok{};
    };
    auto summary = streamJsonArray(**source, "traceEvents", h, chunk);
    ASSERT_TRUE(summary.ok()) << summary.error().message;
    EXPECT_EQ(elements, 40u);
    EXPECT_EQ(summary->controlCharactersReplaced, 2u * 37u) << "chunk " << chunk;  // k = 3..39
    EXPECT_EQ(summary->firstControlCharacterOffset, first);
    EXPECT_EQ(summary->firstControlCharacterElement, 3u);
    EXPECT_EQ(controlCharacterExample(*summary, "traceEvents"),
              "byte " + std::to_string(first) + ", in traceEvents[3]");
  }
}

// With speculativeSplit, batches are cut at the last "}, {" of each chunk without scanning: on an
// array of objects whose strings hold no such pattern every guess holds, and the elements and the
// members around the array are those of the exact scan. Where a guess falls inside a string or a
// nested object, the batch before it is no "[object, ...]": the pass fails, and reading again
// without guessing (as the Kineto reader does) gives the exact elements all the same.
TEST(JsonStream, GuessedBoundariesGiveTheSameElements) {
  auto events = [](const std::string& args) {
    std::string text;
    const char* separators[] = {",", ",\n  ", " , ", "\n,\n"};
    for (int k = 0; k < 300; ++k) {
      if (k > 0) text += separators[k % 4];
      text += R"({"ph": "X", "name": ")" + std::string(static_cast<std::size_t>(k % 50), 'n') +
              R"(", "args": )" + args + "}";
    }
    return text;
  };
  struct Case {
    std::string text;
    bool guessesHold;
  };
  const Case cases[] = {
      {R"({"a": [{"x": 1}, {"y": 2}], "traceEvents": [)" + events(R"({"v": [1, "]"]})") +
           R"(], "z": "end"})",
       true},
      // "}, {" inside strings and inside nested objects, and in the member after the array
      {R"({"traceEvents": [)" + events(R"({"s": "}, {", "list": [{"x": 1}, {"y": "}, {"}]})") +
           R"(], "z": [{"after": 1}, {"array": 2}]})",
       false},
  };
  for (const Case& c : cases) {
    bool someGuessFailed = false;
    const auto reference = nlohmann::json::parse(c.text);
    std::vector<std::string> expected, expectedMembers;
    for (const auto& [k, v] : reference.items())
      if (k != "traceEvents") expectedMembers.push_back(k + "=" + v.dump());
    for (const auto& e : reference["traceEvents"]) expected.push_back(e.dump());
    for (std::size_t chunk :
         {std::size_t{64}, std::size_t{100}, std::size_t{1000}, std::size_t{4096}}) {
      for (bool handOver : {false, true}) {
        std::uint64_t guessed = 0;
        auto [got, members] = streamAll(c.text, chunk, "traceEvents", handOver, true, &guessed);
        EXPECT_EQ(got, expected) << "chunk " << chunk << (handOver ? ", buffers handed over" : "");
        EXPECT_EQ(members, expectedMembers) << "chunk " << chunk;
        if (c.guessesHold) {
          EXPECT_GT(guessed, 0u) << "chunk " << chunk;
        }
        someGuessFailed = someGuessFailed || guessed == 0;
      }
    }
    EXPECT_EQ(someGuessFailed, !c.guessesHold);
  }
}

TEST(JsonStream, BareArrayAndEmptyArray) {
  auto [elements, members] = streamAll(R"([{"ph":"X"}, {"ph":"i"}])", 4);
  EXPECT_EQ(elements.size(), 2u);
  EXPECT_TRUE(members.empty());
  auto [none, m2] = streamAll(R"({"traceEvents": [ ]})", 3);
  EXPECT_TRUE(none.empty());
}

TEST(KinetoReader, ReadsEveryPhaseOfTheFixture) {
  for (std::size_t chunk : {std::size_t(1) << 20}) {
    (void)chunk;
    auto trace = readKinetoTrace(test::fixture("kineto/small_ns.json"));
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    const Trace& t = *trace;
    EXPECT_EQ(t.meta.schemaVersion, "1");
    EXPECT_EQ(t.meta.baseTimeNanoseconds, 1700000000000000000);
    ASSERT_EQ(t.meta.devices.size(), 1u);
    EXPECT_EQ(t.meta.devices[0].name, "NVIDIA H100");
    EXPECT_EQ(t.meta.rank, 3);
    EXPECT_EQ(t.meta.worldSize, 8);
    EXPECT_EQ(t.meta.distributedBackend, "nccl");
    EXPECT_EQ(t.meta.traceName, "small_ns.json");
    // X: add, ProfilerStep, launch, kernel, python, neg; B/E: one.
    EXPECT_EQ(t.events.size(), 7u);
    EXPECT_EQ(t.flows.size(), 1u);
    EXPECT_EQ(t.instants.size(), 1u);
    EXPECT_EQ(t.instants[0].scope, 'g');
    ASSERT_EQ(t.counters.size(), 2u);
    EXPECT_EQ(t.counters[0].name, "Memory/Allocated");
    EXPECT_EQ(t.counters[1].samples[0].second, 2048);
    EXPECT_EQ(t.problems.count("event with negative duration (set to 0)"), 1u);
    EXPECT_EQ(t.problems.count("event phase Sutra does not use, skipped"), 1u);

    const Event* add = nullptr;
    const Event* kernel = nullptr;
    const Event* step = nullptr;
    const Event* launch = nullptr;
    for (const auto& e : t.events) {
      if (t.name(e) == "aten::add") add = &e;
      if (t.name(e) == "ProfilerStep#4") step = &e;
      if (t.name(e) == "cudaLaunchKernel") launch = &e;
      if (t.category(e) == "kernel") kernel = &e;
    }
    ASSERT_TRUE(add && kernel && step && launch);
    EXPECT_EQ(add->start, 1700000000000010250);
    EXPECT_EQ(add->dur, 5500);
    EXPECT_EQ(add->externalId, 7);
    EXPECT_EQ(add->recordFunctionId, 12);
    EXPECT_EQ(add->klass, CategoryClass::CpuOp);
    EXPECT_EQ(t.name(*kernel), "add_kernel \"quoted\" \\ {braces} [x],");
    EXPECT_EQ(kernel->correlation, 99);
    EXPECT_EQ(launch->correlation, 99);
    // Nesting: the step holds the op, which holds the launch.
    EXPECT_EQ(&t.events[add->parent], step);
    EXPECT_EQ(&t.events[launch->parent], add);
    EXPECT_EQ(launch->depth, 2);
    // Lanes: kinds, names, string pids.
    const Lane& gpu = t.lanes[kernel->lane];
    EXPECT_EQ(gpu.kind, LaneKind::DeviceStream);
    EXPECT_EQ(gpu.stream, 7);
    EXPECT_EQ(gpu.processName, "GPU 0");
    const Lane& host = t.lanes[add->lane];
    EXPECT_EQ(host.kind, LaneKind::HostThread);
    EXPECT_EQ(host.threadName, "thread 200 (python3)");
    EXPECT_EQ(host.processName, "python3");
    bool spans = false;
    for (const auto& l : t.lanes) spans |= l.pid == "Spans" && l.tid == "PyTorch Profiler";
    EXPECT_TRUE(spans);
    // The flow binds the launch to the kernel.
    EXPECT_EQ(&t.events[t.flows[0].from], launch);
    EXPECT_EQ(&t.events[t.flows[0].to], kernel);
    // Args are kept raw, on demand.
    auto args = nlohmann::json::parse(t.argsJson(*launch));
    EXPECT_EQ(args["cbid"], 211);
  }
}

TEST(KinetoReader, RepairsControlCharactersAndInvalidUtf8) {
  const std::string path = test::tempPath("dirty_strings.json");
  std::ofstream(path, std::ios::binary)
      << "{\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\x01"
         "b\tc\",\"pid\":1,"
         "\"tid\":1,\"ts\":1,\"dur\":2},{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":"
         "\"bad\xff\xfeutf\","
         "\"pid\":1,\"tid\":1,\"ts\":5,\"dur\":1}]}";
  auto trace = readKinetoTrace(path);
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  ASSERT_EQ(trace->events.size(), 2u);
  EXPECT_EQ(trace->name(trace->events[0]), "a b c");
  EXPECT_EQ(trace->name(trace->events[1]), "bad??utf");
  EXPECT_EQ(trace->problems.count("raw control characters in strings (replaced with spaces)"), 2u);
  EXPECT_EQ(trace->problems.count("invalid UTF-8 bytes in strings (replaced with '?')"), 2u);
}

// A Kineto trace of several 512 KB batches, each event made by `event(i)`: later batches are cut
// by guessing (json_stream.h's speculativeSplit).
std::string largeKinetoText(const std::function<std::string(int)>& event, int count = 12000) {
  std::string text = "{\"traceEvents\": [";
  for (int i = 0; i < count; ++i) {
    if (i > 0) text += ",\n";
    text += event(i);
  }
  text += "], \"traceName\": \"t\"}";
  return text;
}

std::string plainEvent(int i, const std::string& args = "") {
  return R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 2, "ts": )" +
         std::to_string(1000 + 10 * i) + R"(, "dur": 5, "args": {"External id": )" +
         std::to_string(i) + args + "}}";
}

// "}, {" inside strings and nested objects of every event: wherever a chunk ends, the last such
// pattern may be no boundary. The trace comes out whole and in order all the same.
TEST(KinetoReader, WrongGuessesAtBatchBoundariesChangeNothing) {
  const std::string text = largeKinetoText(
      [](int i) { return plainEvent(i, R"(, "s": "}, {", "list": [{"x": 1}, {"y": "}, {"}])"); });
  ASSERT_GT(text.size(), 1u << 20);  // several 512 KB batches
  const std::string path = test::tempPath("wrong_guesses.json");
  std::ofstream(path, std::ios::binary) << text;
  auto trace = readKinetoTrace(path);
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  ASSERT_EQ(trace->events.size(), 12000u);
  for (std::size_t i = 0; i < trace->events.size(); ++i) {
    ASSERT_EQ(trace->events[i].externalId, static_cast<std::int64_t>(i));
    ASSERT_EQ(trace->events[i].start, static_cast<TimeNs>((1000 + 10 * i) * 1000));
  }
  EXPECT_NE(trace->argsJson(trace->events[7]).find(R"("s": "}, {")"), std::string_view::npos);
  EXPECT_EQ(trace->meta.traceName, "t");
}

// Names alike in their length and most of their bytes keep their own ids (a cache of names by a
// few bytes, since dropped, was once tested here).
TEST(KinetoReader, NamesAlikeInTheirRememberedBytesStayApart) {
  const char* names[] = {"abcde", "azcde", "abcde", "abcdf", "ab", "a", ""};
  const std::string text = largeKinetoText(
      [&](int i) {
        return R"({"ph": "X", "cat": "cpu_op", "name": ")" + std::string(names[i % 7]) +
               R"(", "pid": 1, "tid": 2, "ts": )" + std::to_string(1000 + 10 * i) +
               R"(, "dur": 5})";
      },
      700);
  const std::string path = test::tempPath("alike_names.json");
  std::ofstream(path, std::ios::binary) << text;
  auto trace = readKinetoTrace(path);
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  ASSERT_EQ(trace->events.size(), 700u);
  for (std::size_t i = 0; i < trace->events.size(); ++i)
    ASSERT_EQ(trace->name(trace->events[i]), names[i % 7]) << "event " << i;
}

// From TraceBuilder::kParallelFrom events the lanes are sorted and nested on a second thread as
// the reader copies them into the model (kineto_batch_merger.cpp's finish()). A large trace
// with what that path must keep straight: parents written after their children, lanes that hold
// no events (only instants), 'B'/'E' pairs, a name given after the lane's events, and a flow from
// each launch to its kernel.
TEST(KinetoReader, LargeTraceKeepsEveryLaneWholeSortedAndNested) {
  constexpr int kSteps = 8000;  // 10 events a step: 80,000 events
  std::vector<std::string> events;
  for (int i = 0; i < kSteps; ++i) {
    const int t = 100 * i;
    auto at = [&](int offset) { return std::to_string(t + offset); };
    const std::string id = std::to_string(i);
    // The children before their parent (as Kineto writes them), the launch inside the child.
    events.push_back(R"({"ph": "X", "cat": "cpu_op", "name": "child", "pid": 1, "tid": 1, "ts": )" +
                     at(10) + R"(, "dur": 30})");
    events.push_back(
        R"({"ph": "X", "cat": "cuda_runtime", "name": "launch", "pid": 1, "tid": 1, "ts": )" +
        at(20) + R"(, "dur": 5, "args": {"correlation": )" + id + "}}");
    events.push_back(R"({"ph": "s", "cat": "ac2g", "name": "ac2g", "id": )" + id +
                     R"(, "pid": 1, "tid": 1, "ts": )" + at(20) + "}");
    events.push_back(
        R"({"ph": "X", "cat": "cpu_op", "name": "parent", "pid": 1, "tid": 1, "ts": )" + at(0) +
        R"(, "dur": 80})");
    events.push_back(R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": )" +
                     at(40) + R"(, "dur": 20, "args": {"correlation": )" + id + "}}");
    events.push_back(R"({"ph": "f", "bp": "e", "cat": "ac2g", "name": "ac2g", "id": )" + id +
                     R"(, "pid": 0, "tid": 7, "ts": )" + at(40) + "}");
    events.push_back(R"({"ph": "i", "s": "t", "name": "mark", "pid": 1, "tid": 2, "ts": )" +
                     at(50) + "}");
    events.push_back(
        R"({"ph": "B", "cat": "user_annotation", "name": "span", "pid": 1, "tid": 3, "ts": )" +
        at(0) + "}");
    events.push_back(R"({"ph": "E", "pid": 1, "tid": 3, "ts": )" + at(60) + "}");
    for (int k = 0; k < 4; ++k)  // a busy lane after the quiet ones
      events.push_back(
          R"({"ph": "X", "cat": "cpu_op", "name": "worker", "pid": 1, "tid": 4, "ts": )" +
          at(20 * k) + R"(, "dur": 10})");
  }
  events.push_back(
      R"({"ph": "M", "name": "thread_name", "pid": 1, "tid": 4, "args": {"name": "pool"}})");
  const std::string text =
      largeKinetoText([&](int i) { return events[i]; }, static_cast<int>(events.size()));
  const std::string path = test::tempPath("large_lanes.json");
  std::ofstream(path, std::ios::binary) << text;
  auto trace = readKinetoTrace(path);
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  ASSERT_GE(trace->events.size(), TraceBuilder::kParallelFrom);
  ASSERT_EQ(trace->events.size(), 9u * kSteps);  // 3 on tid 1, 1 kernel, 1 span, 4 on tid 4

  std::map<std::string, const Lane*> lanes;
  for (const Lane& lane : trace->lanes) lanes[lane.pid + "/" + lane.tid] = &lane;
  ASSERT_EQ(lanes.size(), 5u);
  auto count = [](const Lane* l) { return l->endEvent - l->firstEvent; };
  EXPECT_EQ(count(lanes["1/1"]), 3u * kSteps);
  EXPECT_EQ(count(lanes["0/7"]), 1u * kSteps);
  EXPECT_EQ(count(lanes["1/3"]), 1u * kSteps);
  EXPECT_EQ(count(lanes["1/4"]), 4u * kSteps);
  EXPECT_EQ(lanes["1/2"]->firstEvent, 0u);  // instants only: no events
  EXPECT_EQ(lanes["1/2"]->endEvent, 0u);
  EXPECT_EQ(lanes["1/4"]->threadName, "pool");
  EXPECT_EQ(lanes["0/7"]->kind, LaneKind::DeviceStream);
  EXPECT_EQ(lanes["1/1"]->maxDepth, 2);
  EXPECT_EQ(trace->instants.size(), static_cast<std::size_t>(kSteps));

  // Every lane whole, sorted and nested inside itself; on tid 1 parent > child > launch.
  for (LaneId l = 0; l < trace->lanes.size(); ++l) {
    const Lane& lane = trace->lanes[l];
    for (EventId e = lane.firstEvent; e < lane.endEvent; ++e) {
      const Event& event = trace->events[e];
      ASSERT_EQ(event.lane, l);
      if (e > lane.firstEvent) {
        ASSERT_LE(trace->events[e - 1].start, event.start);
      }
      if (event.parent != kNoEvent) {
        ASSERT_GE(event.parent, lane.firstEvent);
        ASSERT_LT(event.parent, e);
        ASSERT_EQ(trace->events[event.parent].depth + 1, event.depth);
      }
    }
  }
  for (EventId e = lanes["1/1"]->firstEvent; e < lanes["1/1"]->endEvent; ++e) {
    const Event& event = trace->events[e];
    const std::string_view expected = event.depth == 0   ? "parent"
                                      : event.depth == 1 ? "child"
                                                         : "launch";
    ASSERT_EQ(trace->name(event), expected) << "event " << e;
  }
  for (EventId e = lanes["1/3"]->firstEvent; e < lanes["1/3"]->endEvent; ++e)
    ASSERT_EQ(trace->events[e].dur, 60'000);  // 'B' and 'E' paired (60 us)

  // Each launch's flow lands on its own kernel (the same correlation).
  ASSERT_EQ(trace->flows.size(), static_cast<std::size_t>(kSteps));
  for (const Flow& flow : trace->flows) {
    const Event& from = trace->events[flow.from];
    const Event& to = trace->events[flow.to];
    ASSERT_EQ(trace->name(from), "launch");
    ASSERT_EQ(trace->name(to), "k");
    ASSERT_EQ(from.correlation, flow.id);
    ASSERT_EQ(to.correlation, flow.id);
  }
  EXPECT_EQ(trace->problems.count("flow end on no event"), 0u);
}

// What only the exact scan checks or repairs, in a batch that was cut by guessing: raw control
// characters are replaced and counted with the exact byte and element, and malformed JSON gets the
// exact scan's message.
TEST(KinetoReader, GuessedBatchesLeaveRepairsAndErrorsToTheExactScan) {
  // The first 512 KB chunk is scanned exactly, the middle one cut by guessing, the last (a short
  // read) scanned exactly again: one dirty event in each of the last two.
  for (const int dirty : {6000, 11000}) {
    const std::string text = largeKinetoText([&](int i) {
      return i == dirty ? plainEvent(i, ", \"name\": \"tab\there\"") : plainEvent(i);
    });
    const std::string path = test::tempPath("late_control_character.json");
    std::ofstream(path, std::ios::binary) << text;
    auto trace = readKinetoTrace(path);
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    EXPECT_EQ(trace->events.size(), 12000u);
    const Problem* problem = nullptr;
    for (const Problem& p : trace->problems.all())
      if (p.what == "raw control characters in strings (replaced with spaces)") problem = &p;
    ASSERT_NE(problem, nullptr);
    EXPECT_EQ(problem->count, 1u);
    EXPECT_EQ(problem->example, "byte " + std::to_string(text.find('\t')) + ", in traceEvents[" +
                                    std::to_string(dirty) + "]");

    const std::string broken = largeKinetoText([&](int i) {
      return i == dirty ? std::string(R"({"ph": "X", "name": "broken" "ts": 1})") : plainEvent(i);
    });
    const std::string brokenPath = test::tempPath("late_malformed_event.json");
    std::ofstream(brokenPath, std::ios::binary) << broken;
    auto failed = readKinetoTrace(brokenPath);
    ASSERT_FALSE(failed.ok());
    EXPECT_EQ(failed.error().message.rfind(brokenPath + ": malformed event near byte ", 0), 0u)
        << failed.error().message;
    EXPECT_EQ(failed.error().message.find("guess"), std::string::npos) << failed.error().message;
  }
}

TEST(EtReader, ReadsBothLayoutsOfTheRealTraces) {
  SUTRA_REQUIRE_SHARED_TRACES();
  // Expected counts computed with: python3 -c "import gzip,json; d=json.load(gzip.open(F));
  //   print(d['schema'], len(d['nodes']))"
  auto flat = readPytorchEt(test::sharedTrace("param/linear_et.json.gz"));
  ASSERT_TRUE(flat.ok()) << flat.error().message;
  EXPECT_EQ(flat->schema, "1.0.1");
  EXPECT_EQ(flat->nodes.size(), 931u);
  const EtNode* strided = flat->find(12);
  ASSERT_NE(strided, nullptr);
  EXPECT_EQ(strided->name, "aten::as_strided");
  EXPECT_EQ(strided->parent, 11);
  EXPECT_EQ(strided->rfId, 4);
  const EtShape shape = strided->inputs.shapes()[0];
  EXPECT_EQ(std::vector<std::int64_t>(shape.begin(), shape.end()),
            (std::vector<std::int64_t>{1024, 1024}));
  ASSERT_EQ(strided->inputs.tensors.size(), 1u);
  EXPECT_EQ(strided->inputs.tensors[0].numel, 1048576);
  EXPECT_EQ(strided->inputs.tensors[0].device, "cuda:0");

  auto attrs = readPytorchEt(test::sharedTrace("param/resnet_2gpu_et.1.1.0-chakra.0.0.4.json.gz"));
  ASSERT_TRUE(attrs.ok()) << attrs.error().message;
  EXPECT_EQ(attrs->schema, "1.1.0-chakra.0.0.4");
  EXPECT_EQ(attrs->nodes.size(), 14392u);
  const EtNode* comms = attrs->find(437);
  ASSERT_NE(comms, nullptr);
  EXPECT_EQ(comms->name, "record_param_comms");
  EXPECT_EQ(comms->parent, 436);
  EXPECT_EQ(comms->rfId, 115);
  ASSERT_NE(comms->comm, nullptr);
  EXPECT_EQ(comms->comm->collectiveName, "broadcast");
  EXPECT_EQ(comms->comm->inMsgNelems, 53120);
  EXPECT_EQ(comms->comm->pgSize, 2);
  ASSERT_EQ(comms->inputs.tensors.size(), 1u);  // inside a GenericList[Tensor(float)]
  EXPECT_EQ(comms->inputs.tensors[0].tensorId, 434);
  EXPECT_TRUE(attrs->problems.empty());
}

}  // namespace
}  // namespace sutra

namespace sutra {
namespace {

// A batch of one element whose file offset stands for its place in the submission order.
JsonBatch numberedBatch(std::uint64_t offset) {
  static const std::string text = "[1]";
  JsonBatch batch;
  batch.data = text.data();
  batch.size = text.size();
  batch.fileOffset = offset;
  return batch;
}

TEST(BatchPipeline, CallerParsesWhenWorkersAreBehindAndMergeStaysInOrder) {
  // One slow worker: batches queue up, so the calling thread parses some of them itself (with
  // parser index `workers`); the merge still sees every batch once, in submission order.
  constexpr unsigned kWorkers = 1;
  std::atomic<int> byCaller{0};
  std::vector<std::uint64_t> merged;
  BatchPipeline<std::uint64_t> pipeline(
      kWorkers,
      [&](unsigned parser, const JsonBatch& batch) -> Result<std::uint64_t> {
        EXPECT_LT(parser, BatchPipeline<std::uint64_t>::parserCount(kWorkers));
        if (parser == kWorkers)
          byCaller++;
        else
          std::this_thread::sleep_for(std::chrono::milliseconds(2));
        return batch.fileOffset;
      },
      [&](std::uint64_t&& offset) { merged.push_back(offset); });
  for (std::uint64_t i = 0; i < 40; ++i) ASSERT_TRUE(pipeline.submit(numberedBatch(i)));
  ASSERT_TRUE(pipeline.finish());
  std::vector<std::uint64_t> want(40);
  std::iota(want.begin(), want.end(), 0u);
  EXPECT_EQ(merged, want);
  EXPECT_GT(byCaller.load(), 0);
}

TEST(BatchPipeline, EarliestFailedBatchIsTheError) {
  BatchPipeline<int> pipeline(
      2,
      [&](unsigned, const JsonBatch& batch) -> Result<int> {
        if (batch.fileOffset >= 5)
          return makeError("f.json", "bad batch " + std::to_string(batch.fileOffset));
        return 0;
      },
      [&](int&&) {});
  for (std::uint64_t i = 0; i < 10; ++i)
    if (!pipeline.submit(numberedBatch(i))) break;
  auto status = pipeline.finish();
  ASSERT_FALSE(status);
  EXPECT_NE(status.error().message.find("bad batch 5"), std::string::npos)
      << status.error().message;
}

}  // namespace
}  // namespace sutra
