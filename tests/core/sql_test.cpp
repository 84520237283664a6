// SPDX-License-Identifier: MIT
// core/sql: each table's rows and columns against the model (a hand-made trace, the bundled
// samples, the real traces), the scans that narrow (time windows, names, ids, tracks, children)
// against brute force, Perfetto's documented queries on the shared tables, and bad queries: a
// clear message with its place, and the session still usable.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <thread>

#include "analysis/memory.h"
#include "link/launch_index.h"
#include "session/run_collectives.h"
#include "sql/query_session.h"
#include "sql/result_format.h"
#include "test_support.h"
#include "trace_fixture.h"

namespace sutra::sql {
namespace {

using test::TraceFixture;

std::shared_ptr<const Trace> fixtureTrace() {
  TraceFixture f;
  f.add("100", "7", "ProfilerStep#1", "user_annotation", 0, 1000)
      .add("100", "7", "aten::linear", "cpu_op", 100, 500, kNoId, 11)
      .add("100", "7", "aten::mm", "cpu_op", 150, 250, kNoId, 12)
      .add("100", "7", "cudaLaunchKernel", "cuda_runtime", 200, 50, 1)
      .add("100", "7", "aten::relu", "cpu_op", 650, 50, kNoId, 13,
           R"({"Input Dims": [[2, 3]], "nested": {"a": 1, "b": "x"}, "r": 0.5})")
      .add("0", "7", "gemm_kernel", "kernel", 300, 200, 1)
      .add("100", "8", "aten::mm", "cpu_op", 120, 30)
      .flow(1, "100", "7", 200, "0", "7", 300);
  return std::make_shared<const Trace>(f.finish());
}

struct Opened {
  Run run;
  std::unique_ptr<QuerySession> session;
};

Opened openFixture() {
  auto run = runOfTrace(fixtureTrace(), RunOptions::upTo(RunStage::Analyse));
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
  auto session = QuerySession::open(*run);
  EXPECT_TRUE(session.ok());
  return {std::move(*run), std::move(*session)};
}

QueryResult query(QuerySession& session, const std::string& sql) {
  auto result = session.run(sql);
  EXPECT_TRUE(result.ok()) << sql << "\n" << (result.ok() ? "" : result.error().message);
  return result.ok() ? std::move(*result) : QueryResult{};
}

std::int64_t integer(const Value& v) {
  EXPECT_TRUE(std::holds_alternative<std::int64_t>(v)) << displayText(v);
  return std::holds_alternative<std::int64_t>(v) ? std::get<std::int64_t>(v) : -1;
}
std::string text(const Value& v) { return displayText(v); }

std::int64_t scalar(QuerySession& session, const std::string& sql) {
  const QueryResult r = query(session, sql);
  if (r.rows.size() != 1 || r.rows[0].size() != 1) {
    ADD_FAILURE() << sql << ": not one value";
    return -1;
  }
  return integer(r.rows[0][0]);
}

TEST(SqlSlice, EveryEventWithItsColumns) {
  Opened o = openFixture();
  const Trace& t = *o.run.ranks[0]->trace;
  const QueryResult r = query(*o.session,
                              "SELECT id, ts, dur, category, name, track_id, depth, parent_id, "
                              "arg_set_id, rank, kind, correlation FROM slice");
  ASSERT_EQ(r.rows.size(), t.events.size());
  EXPECT_EQ(r.columns[0].name, "id");
  EXPECT_EQ(r.columns[1].type, ValueType::Integer);
  EXPECT_EQ(r.columns[4].type, ValueType::Text);
  for (std::size_t i = 0; i < t.events.size(); ++i) {
    const Event& e = t.events[i];
    const auto& row = r.rows[i];
    EXPECT_EQ(integer(row[0]), static_cast<std::int64_t>(i));
    EXPECT_EQ(integer(row[1]), e.start);
    EXPECT_EQ(integer(row[2]), e.dur);
    EXPECT_EQ(text(row[3]), t.category(e));
    EXPECT_EQ(text(row[4]), t.name(e));
    EXPECT_EQ(integer(row[5]), e.lane);
    EXPECT_EQ(integer(row[6]), e.depth);
    if (e.parent == kNoEvent)
      EXPECT_EQ(typeOf(row[7]), ValueType::Null);
    else
      EXPECT_EQ(integer(row[7]), e.parent);
    EXPECT_EQ(typeOf(row[8]), e.args == kNoArgs ? ValueType::Null : ValueType::Integer);
    EXPECT_EQ(integer(row[9]), 0);
    EXPECT_EQ(text(row[10]), categoryClassName(e.klass));
  }
  // Children, by parent_id, are the model's.
  const EventId linear = test::eventNamed(t, "aten::linear");
  const QueryResult children =
      query(*o.session, "SELECT name FROM slice WHERE parent_id = " + std::to_string(linear));
  ASSERT_EQ(children.rows.size(), 1u);
  EXPECT_EQ(text(children.rows[0][0]), "aten::mm");
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE parent_id = " +
                                   std::to_string(test::eventNamed(t, "ProfilerStep#1"))),
            2);
}

TEST(SqlSlice, NarrowedScansAgreeWithBruteForce) {
  Opened o = openFixture();
  const Trace& t = *o.run.ranks[0]->trace;
  auto count = [&](auto pred) {
    return static_cast<std::int64_t>(std::count_if(t.events.begin(), t.events.end(), pred));
  };
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE ts >= 150 AND ts < 300"),
            count([](const Event& e) { return e.start >= 150 && e.start < 300; }));
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE ts > 150.5 AND ts <= 300"),
            count([](const Event& e) { return e.start > 150 && e.start <= 300; }));
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE ts = 300"), 1);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE ts > 'text'"), 0);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE name = 'aten::mm'"), 2);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE name = 'ATEN::MM'"), 0);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE name = 'ATEN::MM' COLLATE NOCASE"),
            2);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE name = 'no such name'"), 0);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE dur > 100 AND dur <= 250"),
            count([](const Event& e) { return e.dur > 100 && e.dur <= 250; }));
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE category = 'cpu_op'"), 4);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE depth = 1"),
            count([](const Event& e) { return e.depth == 1; }));
  const EventId kernel = test::eventNamed(t, "gemm_kernel");
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE track_id = " +
                                   std::to_string(t.events[kernel].lane)),
            1);
  EXPECT_EQ(scalar(*o.session, "SELECT ts FROM slice WHERE id = " + std::to_string(kernel)), 300);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice WHERE id = 99999"), 0);

  // GROUP BY name and ORDER BY name read the name order; the sums are the model's.
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> byName;
  for (const Event& e : t.events) {
    auto& [n, sum] = byName[std::string(t.name(e))];
    ++n;
    sum += e.dur;
  }
  const QueryResult grouped =
      query(*o.session, "SELECT name, count(*), sum(dur) FROM slice GROUP BY name");
  ASSERT_EQ(grouped.rows.size(), byName.size());
  std::size_t i = 0;
  for (const auto& [name, counts] : byName) {
    EXPECT_EQ(text(grouped.rows[i][0]), name);
    EXPECT_EQ(integer(grouped.rows[i][1]), counts.first);
    EXPECT_EQ(integer(grouped.rows[i][2]), counts.second);
    ++i;
  }
  const QueryResult descending = query(*o.session, "SELECT name FROM slice ORDER BY name DESC");
  ASSERT_EQ(descending.rows.size(), t.events.size());
  EXPECT_EQ(text(descending.rows.front()[0]), "gemm_kernel");
  EXPECT_EQ(text(descending.rows.back()[0]), "ProfilerStep#1");
  EXPECT_TRUE(std::is_sorted(descending.rows.begin(), descending.rows.end(),
                             [](const auto& a, const auto& b) { return text(a[0]) > text(b[0]); }));
}

TEST(SqlTracks, ThreadsProcessesTracksFlowsArgs) {
  Opened o = openFixture();
  const Trace& t = *o.run.ranks[0]->trace;
  const QueryResult threads = query(
      *o.session, "SELECT utid, tid, upid, kind, start_ts, end_ts, is_main_thread FROM thread");
  ASSERT_EQ(threads.rows.size(), t.lanes.size());
  for (std::size_t l = 0; l < t.lanes.size(); ++l) {
    EXPECT_EQ(integer(threads.rows[l][0]), static_cast<std::int64_t>(l));
    EXPECT_EQ(integer(threads.rows[l][1]), t.lanes[l].tidNumber);
    // start_ts and end_ts: the first start and the latest end of the lane's events.
    TimeNs first = std::numeric_limits<TimeNs>::max(), last = 0;
    for (const Event& e : t.laneEvents(static_cast<LaneId>(l))) {
      first = std::min(first, e.start);
      last = std::max(last, e.end());
    }
    EXPECT_EQ(integer(threads.rows[l][4]), first);
    EXPECT_EQ(integer(threads.rows[l][5]), last);
    EXPECT_TRUE(std::holds_alternative<std::monostate>(threads.rows[l][6]));
  }
  // Perfetto's thread time: NULL, as Perfetto leaves it where the trace records none.
  EXPECT_EQ(scalar(*o.session,
                   "SELECT count(*) FROM slice WHERE thread_ts IS NULL AND "
                   "thread_dur IS NULL"),
            scalar(*o.session, "SELECT count(*) FROM slice"));
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM process"), 2);  // pids 100 and 0
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM thread_track"),
            static_cast<std::int64_t>(t.lanes.size()));
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM track"),
            static_cast<std::int64_t>(t.lanes.size() + t.counters.size()));

  const QueryResult flows = query(*o.session, "SELECT slice_out, slice_in, trace_id FROM flow");
  ASSERT_EQ(flows.rows.size(), 1u);
  EXPECT_EQ(integer(flows.rows[0][0]), test::eventNamed(t, "cudaLaunchKernel"));
  EXPECT_EQ(integer(flows.rows[0][1]), test::eventNamed(t, "gemm_kernel"));
  EXPECT_EQ(integer(flows.rows[0][2]), 1);

  const EventId relu = test::eventNamed(t, "aten::relu");
  const QueryResult args =
      query(*o.session,
            "SELECT flat_key, key, int_value, string_value, real_value, value_type FROM "
            "args WHERE arg_set_id = " +
                std::to_string(relu) + " ORDER BY key");
  ASSERT_EQ(args.rows.size(), 5u);
  EXPECT_EQ(text(args.rows[0][0]), "args.Input Dims");
  EXPECT_EQ(text(args.rows[0][1]), "args.Input Dims[0][0]");
  EXPECT_EQ(integer(args.rows[0][2]), 2);
  EXPECT_EQ(text(args.rows[2][1]), "args.nested.a");
  EXPECT_EQ(text(args.rows[3][3]), "x");
  EXPECT_EQ(text(args.rows[4][5]), "real");
  EXPECT_EQ(scalar(*o.session,
                   "SELECT EXTRACT_ARG(arg_set_id, 'args.nested.a') FROM slice "
                   "WHERE name = 'aten::relu'"),
            1);
  // Every arg set: a full scan parses each slice's args once.
  EXPECT_EQ(
      scalar(*o.session, "SELECT count(DISTINCT arg_set_id) FROM args"),
      static_cast<std::int64_t>(std::count_if(t.events.begin(), t.events.end(),
                                              [](const Event& e) { return e.args != kNoArgs; })));
}

TEST(SqlSutraTables, FixtureKernelLaunchStepOpTable) {
  Opened o = openFixture();
  const RankRun& rank = *o.run.ranks[0];
  const Trace& t = *rank.trace;
  const QueryResult kernels =
      query(*o.session, "SELECT id, name, launch_slice_id, op_slice_id, stream FROM kernel");
  ASSERT_EQ(kernels.rows.size(), rank.launches()->launches().size());
  EXPECT_EQ(text(kernels.rows[0][1]), "gemm_kernel");
  EXPECT_EQ(integer(kernels.rows[0][2]), test::eventNamed(t, "cudaLaunchKernel"));
  EXPECT_EQ(integer(kernels.rows[0][3]), test::eventNamed(t, "aten::mm"));
  EXPECT_EQ(integer(kernels.rows[0][4]), 7);
  EXPECT_EQ(scalar(*o.session, "SELECT delay FROM launch"), 100);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM step"),
            static_cast<std::int64_t>(rank.steps().size()));
  EXPECT_EQ(scalar(*o.session, "SELECT number FROM step"), 1);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM op_table"),
            static_cast<std::int64_t>(rank.opTable()->rows.size()));
  EXPECT_EQ(scalar(*o.session, "SELECT calls FROM op_table WHERE name = 'aten::mm'"), 2);
  // No ET: op holds the Kineto trace's framework ops.
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM op"), 5);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM op WHERE et_node_id IS NOT NULL"), 0);
  EXPECT_EQ(scalar(*o.session, "SELECT events FROM rank"),
            static_cast<std::int64_t>(t.events.size()));
}

// Counters and [memory] events (tests/data/kineto): every sample and every point, as the model
// and buildMemoryReport hold them.
TEST(SqlTracks, CountersAndMemoryEventsAgainstTheModel) {
  for (const std::string& file :
       {std::string("kineto/basic.json"), std::string("kineto/memory_events.json")}) {
    auto opened = openRun({test::fixture(file)}, RunOptions::upTo(RunStage::Analyse));
    ASSERT_TRUE(opened.ok()) << opened.error().message;
    const Trace& t = *opened->ranks[0]->trace;
    auto session = QuerySession::open(*opened);
    ASSERT_TRUE(session.ok());
    const QueryResult counters =
        query(**session,
              "SELECT c.ts, c.value, t.name, c.track_id - (SELECT count(*) "
              "FROM thread_track) FROM counter c JOIN counter_track t ON "
              "c.track_id = t.id ORDER BY c.id");
    std::size_t row = 0;
    for (std::size_t k = 0; k < t.counters.size(); ++k)
      for (const auto& [time, value] : t.counters[k].samples) {
        ASSERT_LT(row, counters.rows.size()) << file;
        EXPECT_EQ(integer(counters.rows[row][0]), time);
        EXPECT_EQ(std::get<double>(counters.rows[row][1]), value);
        EXPECT_EQ(text(counters.rows[row][2]), t.counters[k].name);
        EXPECT_EQ(integer(counters.rows[row][3]), static_cast<std::int64_t>(k));
        ++row;
      }
    EXPECT_EQ(row, counters.rows.size()) << file;
    EXPECT_GT(row, 0u) << file;
    // A time window on one track reads its samples by binary search.
    if (!t.counters.empty() && t.counters[0].samples.size() > 1) {
      const TimeNs second = t.counters[0].samples[1].first;
      EXPECT_EQ(scalar(**session, "SELECT count(*) FROM counter WHERE track_id = " +
                                      std::to_string(t.lanes.size()) +
                                      " AND ts >= " + std::to_string(second)),
                static_cast<std::int64_t>(t.counters[0].samples.size() - 1));
    }
    const MemoryReport report = buildMemoryReport(t);
    const QueryResult memory = query(**session,
                                     "SELECT device_type, device_id, ts, bytes, allocated, "
                                     "op_slice_id FROM memory_event");
    row = 0;
    for (const MemoryDevice& d : report.devices)
      for (const MemoryPoint& p : d.points) {
        ASSERT_LT(row, memory.rows.size());
        EXPECT_EQ(integer(memory.rows[row][0]), d.deviceType);
        EXPECT_EQ(integer(memory.rows[row][1]), d.deviceId);
        EXPECT_EQ(integer(memory.rows[row][2]), p.time);
        EXPECT_EQ(integer(memory.rows[row][3]), p.bytes);
        EXPECT_EQ(integer(memory.rows[row][4]), p.allocated);
        if (p.op != kNoEvent) {
          EXPECT_EQ(integer(memory.rows[row][5]), p.op);
        }
        ++row;
      }
    EXPECT_EQ(row, memory.rows.size());
  }
}

TEST(SqlErrors, BadQueriesSayWhereAndTheSessionStays) {
  Opened o = openFixture();
  auto error = [&](const std::string& sql) {
    auto r = o.session->run(sql);
    EXPECT_FALSE(r.ok()) << sql;
    return r.ok() ? std::string() : r.error().message;
  };
  EXPECT_EQ(error("SELECT * FORM slice"),
            "line 1, column 10: near \"FORM\": syntax error\n  SELECT * FORM slice\n           ^");
  EXPECT_EQ(error("SELECT nme\nFROM slice"),
            "line 1, column 8: no such column: nme\n  SELECT nme\n         ^");
  EXPECT_EQ(error("SELECT 1;\nSELECT * FROM nowhere"),
            "line 2, column 1: no such table: nowhere\n  SELECT * FROM nowhere\n  ^");
  // A database file a write would make: in the test's own folder, not a fixed name in /tmp that
  // another run could have left.
  const std::string database = test::tempPath("sutra-sql-test.db");
  for (const std::string& write :
       {std::string("INSERT INTO slice(id) VALUES (1)"), std::string("DELETE FROM slice"),
        std::string("UPDATE slice SET dur = 0"), std::string("CREATE TABLE t(x)"),
        std::string("CREATE TEMP TABLE t(x)"), std::string("DROP VIEW process_counter_track"),
        "ATTACH DATABASE '" + database + "' AS other", std::string("PRAGMA journal_mode = WAL"),
        "VACUUM INTO '" + database + "'", std::string("BEGIN"),
        std::string("SELECT load_extension('x')")}) {
    const std::string message = error(write);
    EXPECT_FALSE(message.empty()) << write;
  }
  EXPECT_NE(error("ATTACH DATABASE 'x.db' AS other").find("may only read"), std::string::npos);
  EXPECT_NE(error("CREATE TABLE t(x)").find("may only read"), std::string::npos);
  EXPECT_EQ(error("DELETE FROM slice"),
            "line 1, column 1: table slice may not be modified\n  DELETE FROM slice\n  ^");
  EXPECT_FALSE(std::filesystem::exists(database));
  // The session still answers, and reading PRAGMAs work.
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice"), 7);
  EXPECT_EQ(query(*o.session, "PRAGMA table_info(slice)").rows.size(), 15u);
}

TEST(SqlErrors, CancelStopsALongQuery) {
  Opened o = openFixture();
  CancelToken cancel;
  std::thread canceler([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel.cancel();
  });
  auto r = o.session->run(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT count(*) FROM n, "
      "slice",
      cancel);
  canceler.join();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, kCanceled);
  // interrupt() from another thread too. SQLite's interrupt stops only a statement that runs when
  // it comes (one that came first, before run() started, would be lost and the query would never
  // end): the interrupter repeats it until the query has returned, rather than sleeping and hoping
  // the query has started by then.
  std::atomic<bool> returned{false};
  std::thread interrupter([&] {
    while (!returned) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      o.session->interrupt();
    }
  });
  auto r2 = o.session->run(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
      "SELECT count(*) FROM n");
  returned = true;
  interrupter.join();
  ASSERT_FALSE(r2.ok());
  EXPECT_EQ(r2.error().message, kCanceled);
  EXPECT_EQ(scalar(*o.session, "SELECT count(*) FROM slice"), 7);
}

TEST(SqlFormat, TableCsvJson) {
  QueryResult r;
  r.columns = {{"name", ValueType::Text}, {"n", ValueType::Integer}};
  r.rows = {{std::string("a,b"), std::int64_t{12}}, {std::string("c"), std::monostate{}}};
  EXPECT_EQ(resultTable(r), "name  n\n----  ----\na,b     12\nc     NULL\n(2 rows)\n");
  EXPECT_EQ(resultCsv(r), "name,n\n\"a,b\",12\nc,\n");
  EXPECT_EQ(resultJson(r, -1), "[{\"name\":\"a,b\",\"n\":12},{\"name\":\"c\",\"n\":null}]\n");
}

// The bundled allreduce sample: two ranks, each with its ET linked, simulated and matched.
TEST(SqlSamples, TwoRanksLinkedEveryTableAgainstTheModel) {
  auto run =
      openRun({std::string(SUTRA_SOURCE_DIR) + "/tests/data/synthetic_samples/allreduce_2ranks"});
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto session = QuerySession::open(*run);
  ASSERT_TRUE(session.ok());
  QuerySession& s = **session;
  std::int64_t events = 0, lanes = 0, launches = 0, etNodes = 0, cpuOps = 0, steps = 0, syncs = 0;
  for (const auto& rank : run->ranks) {
    events += static_cast<std::int64_t>(rank->trace->events.size());
    lanes += static_cast<std::int64_t>(rank->trace->lanes.size());
    launches += static_cast<std::int64_t>(rank->launches()->launches().size());
    ASSERT_TRUE(rank->et() && rank->linked());
    etNodes += static_cast<std::int64_t>(rank->et()->nodes.size());
    cpuOps += std::count_if(rank->linked()->ops.begin(), rank->linked()->ops.end(),
                            [](const LinkedOp& op) { return op.isCpu(); });
    steps += static_cast<std::int64_t>(rank->steps().size());
    syncs += static_cast<std::int64_t>(rank->syncs()->size());
  }
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM slice"), events);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM thread"), lanes);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM kernel"), launches);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM et_node"), etNodes);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM op"), cpuOps);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM step"), steps);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM sync"), syncs);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM rank"), 2);
  EXPECT_EQ(scalar(s, "SELECT count(DISTINCT rank) FROM slice"), 2);
  // Slice ids are unique across the ranks and each rank's slices are its trace's.
  EXPECT_EQ(scalar(s, "SELECT count(DISTINCT id) FROM slice"), events);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM slice WHERE rank = 1"),
            static_cast<std::int64_t>(run->ranks[1]->trace->events.size()));
  // An op's ET node is the node with that id in its rank's ET, of the same name.
  EXPECT_EQ(scalar(s,
                   "SELECT count(*) FROM op JOIN et_node e ON e.rank = op.rank AND "
                   "e.id = op.et_node_id WHERE e.name <> op.name"),
            0);
  EXPECT_GT(scalar(s, "SELECT count(*) FROM op WHERE input_shapes IS NOT NULL"), 0);
  // Each kernel's launch slice is a runtime call with the kernel's correlation.
  EXPECT_EQ(scalar(s,
                   "SELECT count(*) FROM kernel k JOIN slice c ON c.id = k.launch_slice_id "
                   "WHERE c.correlation <> k.correlation"),
            0);
  // Collectives: members on both ranks, each a kernel.
  const auto& collectives = *run->collectives;
  std::int64_t members = 0;
  for (const auto& c : collectives.collectives) members += static_cast<std::int64_t>(c.size());
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM collective"), members);
  EXPECT_GT(members, 0);
  EXPECT_EQ(scalar(s, "SELECT count(*) FROM collective c JOIN kernel k ON k.id = c.slice_id"),
            members);
  // A slice id tells its rank and event (the window selects it so).
  const auto last = locateSlice(*run, events - 1);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->rank, run->ranks[1]->rank);
  EXPECT_EQ(last->event, run->ranks[1]->trace->events.size() - 1);
  EXPECT_FALSE(locateSlice(*run, events));
  EXPECT_EQ(locateSlice(*run, 0)->rank, run->ranks[0]->rank);
  // Memory events: as buildMemoryReport finds them (the samples have none or some).
  EXPECT_GE(scalar(s, "SELECT count(*) FROM memory_event"), 0);
}

// Perfetto's documented queries on the tables the two share, on a real trace, each checked
// against the model. Only names in the literals change (the docs' 'measure' is a slice name).
TEST(SqlPerfetto, DocumentedQueriesOnARealTrace) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto run = openRun({test::sharedTrace("kineto/resnet50_2021_autograd_api.pt.trace.json.gz")},
                     RunOptions::upTo(RunStage::Analyse));
  ASSERT_TRUE(run.ok()) << run.error().message;
  const Trace& t = *run->ranks[0]->trace;
  auto session = QuerySession::open(*run);
  ASSERT_TRUE(session.ok());
  QuerySession& s = **session;
  const std::string name = "aten::conv2d";
  const auto named = static_cast<std::int64_t>(std::count_if(
      t.events.begin(), t.events.end(), [&](const Event& e) { return t.name(e) == name; }));
  ASSERT_GT(named, 0);

  // perfetto-sql-getting-started.md
  EXPECT_EQ(query(s, "SELECT ts, dur, name FROM slice LIMIT 10;").rows.size(), 10u);
  EXPECT_EQ(query(s,
                  "SELECT utid\nFROM slice\nJOIN thread_track ON thread_track.id = "
                  "slice.track_id\nWHERE slice.name = '" +
                      name + "'")
                .rows.size(),
            static_cast<std::size_t>(named));
  EXPECT_EQ(query(s, "SELECT tid, name\nFROM thread\nWHERE utid = 1").rows.size(), 1u);
  const QueryResult threads =
      query(s,
            "SELECT thread.name AS thread_name\nFROM slice\nJOIN thread_track ON "
            "slice.track_id = thread_track.id\nJOIN thread USING(utid)\nWHERE slice.name = '" +
                name + "'\nGROUP BY thread_name");
  EXPECT_GE(threads.rows.size(), 1u);
  query(s,
        "SELECT upid\nFROM counter\nJOIN process_counter_track ON process_counter_track.id = "
        "counter.track_id\nWHERE process_counter_track.name = 'mem.swap' AND value > 1000");
  // The EXTRACT_ARG desugaring the same page gives, against EXTRACT_ARG itself.
  EXPECT_EQ(query(s,
                  "SELECT (SELECT int_value FROM args WHERE key = 'args.External id' AND "
                  "args.arg_set_id = slice.arg_set_id) FROM slice WHERE name = '" +
                      name + "'")
                .rows,
            query(s,
                  "SELECT EXTRACT_ARG(arg_set_id, 'args.External id') FROM slice WHERE name "
                  "= '" +
                      name + "'")
                .rows);
  // Perfetto's trace processor tests (test/trace_processor/*.sql)
  EXPECT_EQ(query(s,
                  "SELECT s.name, dur, tid, pid FROM slice s JOIN thread_track t ON "
                  "s.track_id = t.id JOIN thread USING(utid) LEFT JOIN process USING(upid);")
                .rows.size(),
            t.events.size());
  const auto tid = t.lanes[0].tidNumber;
  EXPECT_EQ(
      query(s,
            "SELECT slice.ts, slice.dur, slice.name, slice.depth FROM slice JOIN "
            "thread_track ON (slice.track_id = thread_track.id) JOIN thread USING "
            "(utid) WHERE tid = " +
                std::to_string(tid) + ";")
          .rows.size(),
      static_cast<std::size_t>(std::count_if(t.events.begin(), t.events.end(), [&](const Event& e) {
        return t.lanes[e.lane].tidNumber == tid;
      })));
  EXPECT_EQ(query(s,
                  "SELECT thread.name AS thread_name, instant.name AS track_name, instant.ts "
                  "FROM slice instant JOIN thread_track ON instant.track_id = thread_track.id "
                  "JOIN thread USING (utid) WHERE dur = 0;")
                .rows.size(),
            static_cast<std::size_t>(std::count_if(t.events.begin(), t.events.end(),
                                                   [](const Event& e) { return e.dur == 0; })));
  const QueryResult withArgs =
      query(s,
            "SELECT utid, ts, dur, slice.name, flat_key, int_value, string_value FROM "
            "thread_track JOIN slice ON slice.track_id = thread_track.id JOIN args ON "
            "slice.arg_set_id = args.arg_set_id WHERE slice.name = '" +
                name + "' ORDER BY ts;");
  EXPECT_GT(withArgs.rows.size(), static_cast<std::size_t>(named));
  // androidx.benchmark's TraceProcessor examples
  EXPECT_EQ(query(s, "SELECT dur FROM slice WHERE name = '" + name + "'").rows.size(),
            static_cast<std::size_t>(named));
  EXPECT_EQ(
      query(s,
            "SELECT slice.name, slice.ts, slice.dur FROM slice INNER JOIN thread_track "
            "on slice.track_id = thread_track.id INNER JOIN thread USING(utid) INNER "
            "JOIN process USING(upid) WHERE slice.name LIKE 'aten::conv%'")
          .rows.size(),
      static_cast<std::size_t>(std::count_if(t.events.begin(), t.events.end(), [&](const Event& e) {
        return t.name(e).starts_with("aten::conv");
      })));
  // Perfetto's trace-processor.md: the longest slices and their thread
  EXPECT_EQ(query(s, "SELECT ts, dur, name FROM slice ORDER BY dur DESC LIMIT 5").rows.size(), 5u);
  const QueryResult parents =
      query(s,
            "SELECT p.name, count(*) FROM slice c JOIN slice p ON c.parent_id = p.id WHERE "
            "c.name = '" +
                name + "' GROUP BY p.name");
  std::int64_t withParent = 0;
  for (const auto& row : parents.rows) withParent += integer(row[1]);
  EXPECT_EQ(withParent, static_cast<std::int64_t>(
                            std::count_if(t.events.begin(), t.events.end(), [&](const Event& e) {
                              return t.name(e) == name && e.parent != kNoEvent;
                            })));
  // Counters, where the trace has any: every sample, by track.
  std::int64_t samples = 0;
  for (const auto& c : t.counters) samples += static_cast<std::int64_t>(c.samples.size());
  EXPECT_EQ(scalar(s,
                   "SELECT count(*) FROM counter JOIN counter_track ON counter.track_id = "
                   "counter_track.id"),
            samples);
}

// A real trace: a time window through the lanes' binary search equals brute force, for several
// windows, and GROUP BY name equals the model's sums.
TEST(SqlPerfetto, RealTraceWindowsAndNames) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto run = openRun({test::sharedTrace("kineto/resnet50_2020_top_level_array.pt.trace.json.gz")},
                     RunOptions::upTo(RunStage::Analyse));
  ASSERT_TRUE(run.ok()) << run.error().message;
  const Trace& t = *run->ranks[0]->trace;
  auto session = QuerySession::open(*run);
  ASSERT_TRUE(session.ok());
  const TimeNs span = t.endNs - t.startNs;
  for (int k = 0; k < 5; ++k) {
    const TimeNs lo = t.startNs + span * k / 5, hi = lo + span / 20;
    const auto expected = std::count_if(t.events.begin(), t.events.end(), [&](const Event& e) {
      return e.start >= lo && e.start < hi;
    });
    EXPECT_EQ(scalar(**session, "SELECT count(*) FROM slice WHERE ts >= " + std::to_string(lo) +
                                    " AND ts < " + std::to_string(hi)),
              expected);
  }
  std::map<std::string, std::int64_t> sums;
  for (const Event& e : t.events) sums[std::string(t.name(e))] += e.dur;
  const QueryResult grouped = query(**session, "SELECT name, sum(dur) FROM slice GROUP BY name");
  ASSERT_EQ(grouped.rows.size(), sums.size());
  for (const auto& row : grouped.rows) EXPECT_EQ(integer(row[1]), sums[text(row[0])]);
}

// The param linear pair: the ET linked, so op rows carry their ET node's shapes.
TEST(SqlPerfetto, RealLinkedOps) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto run = openRankFiles({{.rank = 0,
                             .kineto = test::sharedTrace("param/linear_kineto.json.gz"),
                             .chakra = {},
                             .et = test::sharedTrace("param/linear_et.json.gz")}},
                           RunOptions::upTo(RunStage::Analyse));
  ASSERT_TRUE(run.ok()) << run.error().message;
  const RankRun& rank = *run->ranks[0];
  ASSERT_TRUE(rank.linked());
  auto session = QuerySession::open(*run);
  ASSERT_TRUE(session.ok());
  const QueryResult ops =
      query(**session, "SELECT et_node_id, name, ts, dur, input_shapes FROM op ORDER BY id");
  std::vector<const LinkedOp*> cpu;
  for (const LinkedOp& op : rank.linked()->ops)
    if (op.isCpu()) cpu.push_back(&op);
  ASSERT_EQ(ops.rows.size(), cpu.size());
  for (std::size_t i = 0; i < cpu.size(); ++i) {
    const EtNode* node = rank.linked()->etNode(*cpu[i]);
    EXPECT_EQ(text(ops.rows[i][1]), cpu[i]->name);
    EXPECT_EQ(integer(ops.rows[i][2]), cpu[i]->ts);
    if (node) {
      EXPECT_EQ(integer(ops.rows[i][0]), node->id);
      EXPECT_EQ(text(ops.rows[i][4]), node->inputs.shapesJson().empty()
                                          ? "NULL"
                                          : std::string(node->inputs.shapesJson()));
    }
  }
}

}  // namespace
}  // namespace sutra::sql
