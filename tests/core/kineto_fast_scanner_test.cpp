// SPDX-License-Identifier: MIT
// The Kineto fast scanner alone (io/kineto_fast_scanner.h): what it reads from Kineto's plain
// event shape, and that it gives up, rather than guess, on everything it leaves to simdjson.
#include "io/kineto_fast_scanner.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace sutra {
namespace {

// Scans one batch as json_stream.h hands it over (padded), keeping every event it reads.
struct Scan final : RawEventSink {
  explicit Scan(const std::string& text) : bytes(text + std::string(kJsonPadding, ' ')) {
    JsonBatch batch;
    batch.data = bytes.data();
    batch.size = text.size();
    batch.capacity = bytes.size();
    ok = scanPlainKinetoEvents(batch, *this);
  }
  void event(const RawEvent& raw) override { events.push_back(raw); }
  std::string bytes;  // the events' views point here
  std::vector<RawEvent> events;
  bool ok = false;
};

// Every field two reads of one event must agree on, but the args' text (its spacing may differ).
void expectSameFields(const RawEvent& a, const RawEvent& b) {
  EXPECT_EQ(a.ph, b.ph);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.cat, b.cat);
  EXPECT_EQ(a.pid, b.pid);
  EXPECT_EQ(a.tid, b.tid);
  EXPECT_EQ(a.ts, b.ts);
  EXPECT_EQ(a.dur, b.dur);
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.bp, b.bp);
  EXPECT_EQ(a.scope, b.scope);
  EXPECT_EQ(a.hasTs, b.hasTs);
  EXPECT_EQ(a.hasDur, b.hasDur);
  EXPECT_EQ(a.externalId, b.externalId);
  EXPECT_EQ(a.correlation, b.correlation);
  EXPECT_EQ(a.recordFunctionId, b.recordFunctionId);
  EXPECT_EQ(a.metaName, b.metaName);
  EXPECT_EQ(a.metaSortIndex, b.metaSortIndex);
  EXPECT_EQ(a.counterValues, b.counterValues);
}

TEST(KinetoFastScanner, ReadsThePlainFields) {
  Scan scan(R"([{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": "stream 7",
    "ts": 1689180448573897.250, "dur": 75, "unknown": [1, {"a": "b"}],
    "args": {"External id": 789, "correlation": 12, "Record function id": 3, "grid": [1, 2]}},
   {"ph": "f", "id": 12, "pid": 1, "tid": 2, "ts": 5, "cat": "ac2g", "name": "ac2g", "bp": "e"},
   {"ph": "i", "s": "p", "name": "mark", "pid": 1, "tid": 2, "ts": 6}])");
  ASSERT_TRUE(scan.ok);
  ASSERT_EQ(scan.events.size(), 3u);
  const RawEvent& x = scan.events[0];
  EXPECT_EQ(x.ph, "X");
  EXPECT_EQ(x.cat, "kernel");
  EXPECT_EQ(x.name, "gemm");
  EXPECT_EQ(x.pid, "0");
  EXPECT_EQ(x.tid, "stream 7");
  EXPECT_TRUE(x.hasTs);
  EXPECT_EQ(x.ts, "1689180448573897.250");
  EXPECT_TRUE(x.hasDur);
  EXPECT_EQ(x.dur, "75");
  EXPECT_EQ(x.externalId, 789);
  EXPECT_EQ(x.correlation, 12);
  EXPECT_EQ(x.recordFunctionId, 3);
  EXPECT_EQ(x.argsRaw,
            R"({"External id": 789, "correlation": 12, "Record function id": 3, "grid": [1, 2]})");
  const RawEvent& f = scan.events[1];
  EXPECT_EQ(f.ph, "f");
  EXPECT_EQ(f.id, "12");
  EXPECT_EQ(f.bp, "e");
  EXPECT_FALSE(f.hasDur);
  EXPECT_EQ(f.externalId, kNoId);
  EXPECT_TRUE(f.argsRaw.empty());
  EXPECT_EQ(scan.events[2].scope, "p");
}

TEST(KinetoFastScanner, PrettyPrintedReadsAsCompact) {
  // torch.profiler's own layout: a newline and an indent before most tokens, runs past 16 bytes.
  Scan pretty(R"([
  {
    "ph": "X", "cat": "cpu_op", "name": "aten::sum", "pid": 24248, "tid": 24270,
    "ts": 1689180448573897, "dur": 75,
    "args": {
      "External id": 789,"Ev Idx": 276
    }
  }                                        ,
  {
    "ph": "X", "cat": "cpu_op", "name": "aten::view", "pid": 24248, "tid": 24270,
    "ts": 1689180448573979, "dur": 8
  }
])");
  Scan compact(
      R"([{"ph":"X","cat":"cpu_op","name":"aten::sum","pid":24248,"tid":24270,"ts":1689180448573897,"dur":75,"args":{"External id":789,"Ev Idx":276}},)"
      R"({"ph":"X","cat":"cpu_op","name":"aten::view","pid":24248,"tid":24270,"ts":1689180448573979,"dur":8}])");
  ASSERT_TRUE(pretty.ok);
  ASSERT_TRUE(compact.ok);
  ASSERT_EQ(pretty.events.size(), 2u);
  ASSERT_EQ(compact.events.size(), 2u);
  for (int i = 0; i < 2; ++i) expectSameFields(pretty.events[i], compact.events[i]);
  // simdjson's raw_json() of an object runs to the next token: the whitespace after it is kept.
  EXPECT_EQ(pretty.events[0].argsRaw, "{\n      \"External id\": 789,\"Ev Idx\": 276\n    }\n  ");
}

TEST(KinetoFastScanner, MetadataAndCounterArgs) {
  Scan scan(R"([{"ph": "M", "name": "thread_sort_index", "pid": 1, "tid": 2,
                 "args": {"name": "ignored for a sort index", "sort_index": 4}},
                {"ph": "C", "name": "mem", "pid": 1, "ts": 7, "args": {"allocated": 1.5, "name": 2}},
                {"name": "late", "args": {"v": 3}, "ph": "C", "pid": 1, "ts": 8}])");
  ASSERT_TRUE(scan.ok);
  ASSERT_EQ(scan.events.size(), 3u);
  EXPECT_EQ(scan.events[0].metaName, "ignored for a sort index");
  EXPECT_TRUE(scan.events[0].hasMetaSortIndex);
  EXPECT_EQ(scan.events[0].metaSortIndex, 4);
  // A counter's args are its values, "name" included, once "ph" is known.
  const auto& values = scan.events[1].counterValues;
  ASSERT_EQ(values.size(), 2u);
  EXPECT_EQ(values[0], (std::pair<std::string, double>{"allocated", 1.5}));
  EXPECT_EQ(values[1], (std::pair<std::string, double>{"name", 2.0}));
  EXPECT_TRUE(scan.events[1].metaName.empty());
  // "args" before "ph": not yet known to be a counter's, left to the args text.
  EXPECT_TRUE(scan.events[2].counterValues.empty());
  EXPECT_EQ(scan.events[2].argsRaw, R"({"v": 3})");
}

// The scanner steps over each member's key by the bytes at the same place in the object before,
// and reuses one RawEvent: keys that move, keys that start like a known one, other spacing, and
// fields an event lacks must all read as they would in an event of their own.
TEST(KinetoFastScanner, KeysThatMoveOrLookAlikeAndFieldsLeftOutReadAsAlone) {
  const std::string events[] = {
      R"({"ph": "X", "name": "a", "ts": 1, "tid": 2, "pid": 3, "dur": 4, "args": {"External id": 5}})",
      R"({"ph": "X", "names": "b", "ts": 6, "tids": 7, "tid": 8, "pid": 3, "dur": 9, "s": 1})",
      R"({"pid": 9, "ph": "C", "name": "c", "ts": 10, "args": {"v": 1.5}})",
      R"({"ph": "f", "nam": "d", "t": 0, "tid": 1, "ts": 11, "id": 12, "bp": "e", "sx": "g"})",
      R"({"ph": "X", "name": "e", "ts": 13, "tid": 2, "pid": 3, "dur": 14, "args": {}})",
      // The same keys spaced otherwise: compact, a space before a colon, more after one.
      R"({"ph":"X","name":"f","ts":15,"tid":2,"pid":3,"dur":16,"args":{"External id":17}})",
      R"({"ph" :"X","name":  "g","ts":18 ,"tid":2,"pid":3,"dur":19,"args":{"External id":   20}})",
      R"({"ph":"X","name":"h","ts":21,"tid":2,"pid":3,"dur":22,"args":{"External id":23}})",
      // A counter's values twice with the same keys: the second one's read from remembered bytes.
      R"({"ph":"C","name":"mem","pid":1,"ts":24,"args":{"allocated":1.5,"reserved":2}})",
      R"({"ph":"C","name":"mem","pid":1,"ts":25,"args":{"allocated":3.5,"reserved":4}})",
      // Keys of sixteen bytes and more with their separator, quotes and colon.
      R"({"ph":"X","name":"i","args":{"Record function id":26,"a key long enough":27}})",
      R"({"ph":"X","name":"j","args":{"Record function id":28,"a key long enough":29}})"};
  std::string batch = "[";
  for (const std::string& e : events) batch += (batch.size() > 1 ? "," : "") + e;
  Scan together(batch + "]");
  ASSERT_TRUE(together.ok);
  ASSERT_EQ(together.events.size(), std::size(events));
  for (std::size_t i = 0; i < std::size(events); ++i) {
    SCOPED_TRACE(events[i]);
    Scan alone("[" + events[i] + "]");
    ASSERT_TRUE(alone.ok);
    expectSameFields(together.events[i], alone.events[0]);
    EXPECT_EQ(together.events[i].argsRaw, alone.events[0].argsRaw);
  }
  EXPECT_TRUE(together.events[1].name.empty());  // "names" is not "name"
  EXPECT_EQ(together.events[1].tid, "8");        // nor "tids" "tid"
  EXPECT_EQ(together.events[1].scope, "1");
  EXPECT_EQ(together.events[2].counterValues.size(), 1u);
  EXPECT_TRUE(together.events[3].counterValues.empty());
  EXPECT_TRUE(together.events[3].scope.empty());  // "sx" is not "s"
  EXPECT_FALSE(together.events[3].hasDur);
  EXPECT_EQ(together.events[3].externalId, kNoId);
  EXPECT_EQ(together.events[0].externalId, 5);
  EXPECT_EQ(together.events[6].name, "g");
  EXPECT_EQ(together.events[6].externalId, 20);
  EXPECT_EQ(together.events[7].externalId, 23);
  EXPECT_EQ(together.events[9].counterValues,
            (std::vector<std::pair<std::string, double>>{{"allocated", 3.5}, {"reserved", 4.0}}));
  EXPECT_EQ(together.events[11].recordFunctionId, 28);
}

TEST(KinetoFastScanner, EmptyBatchesAndEscapesInSkippedStrings) {
  EXPECT_TRUE(Scan("[]").ok);
  EXPECT_TRUE(Scan("[ \n ]").ok);
  EXPECT_TRUE(Scan("[{}]").ok);
  // Escapes are read only where a string is read: in a skipped value they are stepped over.
  Scan skipped(R"([{"ph": "X", "note": "say \"hi\" \\", "args": {"Input": "a\\b"}}])");
  ASSERT_TRUE(skipped.ok);
  ASSERT_EQ(skipped.events.size(), 1u);
  EXPECT_EQ(skipped.events[0].ph, "X");
  // A container where an id is read counts as no id, as simdjson's path reads it.
  Scan container(R"([{"ph": "X", "args": {"External id": [1], "correlation": {"a": 1}}}])");
  ASSERT_TRUE(container.ok);
  EXPECT_EQ(container.events[0].externalId, kNoId);
  EXPECT_EQ(container.events[0].correlation, kNoId);
  // Keys are plain strings: an escaped one, even unknown, is simdjson's to read.
  EXPECT_FALSE(Scan(R"([{"ph": "X", "args": {"Input \"x\"": 1}}])").ok);
}

TEST(KinetoFastScanner, GivesUpOnWhatItLeavesToSimdjson) {
  const char* refused[] = {
      R"([{"ph": "X", "name": "a\"b"}])",          // an escape in a string that is read
      "[{\"ph\": \"X\", \"name\": \"a\x01\"}]",    // a raw control byte in a string
      "[{\"ph\": \"X\", \"name\": \"caf\xc3\"}]",  // invalid UTF-8
      R"([{"ph": "X", "pid": {"a": 1}}])",         // a container where a scalar is read
      R"([{"ph": "X", "args": [1, 2]}])",          // args that are not an object
      R"([{"ph" "X"}])",                           // no colon
      R"([{"ph": "X",}])",                         // a trailing comma
      R"([{"ph": "X"} {"ph": "X"}])",              // no comma between events
      R"([{"ph": "X", "a": [1, 2}])",              // brackets of different kinds
      R"([{"ph": "X", "a": [[1, 128, 512], [512, 512], [1, 2, 3, 4, 5, 6, 7]}])",  // far in
      R"([{"ph": "X"}, 3])",                // an element that is not an object
      R"([{"ph": "X", "args": {"x": 1}])",  // cut inside an element
      R"({"ph": "X"})",                     // not an array
  };
  for (const char* text : refused) EXPECT_FALSE(Scan(text).ok) << text;
  // Containers skipped, long ones (torch's input dimensions) and brackets inside their strings.
  Scan skipped(
      R"([{"ph": "X", "args": {"Input Dims": [[1, 128, 512], [512, 512], [], [1, 2, 3, 4, 5, 6]],)"
      R"( "Input type": ["float", "c10::List[int]", "{]"], "Concrete Inputs": ["", "[}", {"k": )"
      R"("]]"}], "External id": 7}, "name": "aten::mm"}])");
  ASSERT_TRUE(skipped.ok);
  EXPECT_EQ(skipped.events[0].externalId, 7);
  EXPECT_EQ(skipped.events[0].name, "aten::mm");
  std::string deep = R"([{"ph": "X", "a": )";
  deep += std::string(65, '[') + std::string(65, ']') + "}]";
  EXPECT_FALSE(Scan(deep).ok) << "nesting deeper than the scanner's 64 levels";
  std::string shallow = R"([{"ph": "X", "a": )";
  shallow += std::string(63, '[') + std::string(63, ']') + "}]";
  EXPECT_TRUE(Scan(shallow).ok);
}

}  // namespace
}  // namespace sutra
