// SPDX-License-Identifier: MIT
#include "sql/query_session.h"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "sql/tables.h"
#include "util/scratch_array.h"

namespace sutra::sql {

struct QuerySession::Impl {
  explicit Impl(const Run& run) : model(run) {}
  ~Impl() {
    if (db) sqlite3_close(db);
  }

  RunModel model;
  std::vector<std::unique_ptr<Table>> tables;
  sqlite3* db = nullptr;
  std::mutex running;                   // one query at a time
  const CancelToken* cancel = nullptr;  // the running query's
  std::string refused;                  // what the authorizer refused last, in words
};

namespace {

// Aliases that Perfetto has and whose rows Sutra's tables already hold.
constexpr const char* kViews[] = {
    "CREATE VIEW process_counter_track AS SELECT id, name, type, upid, rank FROM counter_track "
    "WHERE upid IS NOT NULL",
};

// The read-only PRAGMAs a query may use to look at the tables.
bool readingPragma(const char* name) {
  static constexpr const char* kAllowed[] = {"table_info", "table_xinfo", "table_list",
                                             "function_list", "module_list"};
  if (!name) return false;
  return std::any_of(std::begin(kAllowed), std::end(kAllowed),
                     [&](const char* allowed) { return sqlite3_stricmp(name, allowed) == 0; });
}

std::string refusedAction(int action, const char* a) {
  const std::string what = a ? a : "";
  if (what == "sqlite_master" || what == "sqlite_temp_master") return "a change of the schema";
  switch (action) {
    case SQLITE_ATTACH:
      return "ATTACH";
    case SQLITE_DETACH:
      return "DETACH";
    case SQLITE_INSERT:
      return "INSERT into " + what;
    case SQLITE_UPDATE:
      return "UPDATE of " + what;
    case SQLITE_DELETE:
      return "DELETE from " + what;
    case SQLITE_PRAGMA:
      return "PRAGMA " + what;
    case SQLITE_CREATE_TABLE:
    case SQLITE_CREATE_TEMP_TABLE:
    case SQLITE_CREATE_VIEW:
    case SQLITE_CREATE_TEMP_VIEW:
    case SQLITE_CREATE_INDEX:
    case SQLITE_CREATE_TEMP_INDEX:
    case SQLITE_CREATE_TRIGGER:
    case SQLITE_CREATE_TEMP_TRIGGER:
      return "CREATE " + what;
    case SQLITE_DROP_TABLE:
    case SQLITE_DROP_TEMP_TABLE:
    case SQLITE_DROP_VIEW:
    case SQLITE_DROP_TEMP_VIEW:
    case SQLITE_DROP_INDEX:
    case SQLITE_DROP_TEMP_INDEX:
    case SQLITE_DROP_TRIGGER:
    case SQLITE_DROP_TEMP_TRIGGER:
      return "DROP " + what;
    case SQLITE_TRANSACTION:
    case SQLITE_SAVEPOINT:
      return "a transaction";
    default:
      return "a statement that changes the database";
  }
}

// Only reading: SELECT (WITH, views, functions) and a few PRAGMAs that describe tables.
int authorize(void* data, int action, const char* a, const char* b, const char*, const char*) {
  auto* impl = static_cast<QuerySession::Impl*>(data);
  switch (action) {
    case SQLITE_SELECT:
    case SQLITE_READ:
    case SQLITE_FUNCTION:
    case SQLITE_RECURSIVE:
      return SQLITE_OK;
    case SQLITE_PRAGMA:
      if (readingPragma(a)) return SQLITE_OK;
      break;
    default:
      break;
  }
  (void)b;
  if (impl->refused.empty()) impl->refused = refusedAction(action, a);  // the first says what
  return SQLITE_DENY;
}

int progress(void* data) {
  const auto* impl = static_cast<QuerySession::Impl*>(data);
  return impl->cancel && impl->cancel->canceled() ? 1 : 0;
}

// "line 2, column 7: MESSAGE", then that line and a caret under the place.
std::string positioned(std::string_view sql, std::size_t offset, const std::string& message) {
  offset = std::min(offset, sql.size());
  const std::size_t lineStart = sql.rfind('\n', offset == 0 ? 0 : offset - 1);
  const std::size_t begin = lineStart == std::string_view::npos || offset == 0 ? 0 : lineStart + 1;
  const std::size_t line =
      1 + static_cast<std::size_t>(std::count(sql.begin(), sql.begin() + begin, '\n'));
  std::size_t end = sql.find('\n', begin);
  if (end == std::string_view::npos) end = sql.size();
  std::string text(sql.substr(begin, end - begin));
  std::replace(text.begin(), text.end(), '\t', ' ');
  std::string out = "line " + std::to_string(line) + ", column " +
                    std::to_string(offset - begin + 1) + ": " + message + "\n  " + text + "\n  " +
                    std::string(offset - begin, ' ') + "^";
  return out;
}

ValueType declaredType(const char* decl) {
  if (!decl) return ValueType::Null;
  if (sqlite3_stricmp(decl, "INTEGER") == 0) return ValueType::Integer;
  if (sqlite3_stricmp(decl, "REAL") == 0) return ValueType::Real;
  if (sqlite3_stricmp(decl, "TEXT") == 0) return ValueType::Text;
  if (sqlite3_stricmp(decl, "BLOB") == 0) return ValueType::Blob;
  return ValueType::Null;
}

Value valueOf(sqlite3_stmt* stmt, int c) {
  switch (sqlite3_column_type(stmt, c)) {
    case SQLITE_INTEGER:
      return sqlite3_column_int64(stmt, c);
    case SQLITE_FLOAT:
      return sqlite3_column_double(stmt, c);
    case SQLITE_TEXT:
      return std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)),
                         static_cast<std::size_t>(sqlite3_column_bytes(stmt, c)));
    case SQLITE_BLOB: {
      const auto* bytes = static_cast<const char*>(sqlite3_column_blob(stmt, c));
      return Blob{std::string(bytes, static_cast<std::size_t>(sqlite3_column_bytes(stmt, c)))};
    }
    default:
      return std::monostate{};
  }
}

// Points SQLite's temporary files (process-wide) at Sutra's cache folder, once; false where the
// folder cannot be made.
bool useScratchFolderForSqlite() {
  static const bool set = [] {
    const std::string folder = scratchFolderMade();
    std::error_code ec;
    if (!std::filesystem::is_directory(folder, ec)) return false;
    // Before any other connection uses a temporary file: sqlite3_temp_directory is read then.
    sqlite3_temp_directory = sqlite3_mprintf("%s", folder.c_str());
    return sqlite3_temp_directory != nullptr;
  }();
  return set;
}

}  // namespace

QuerySession::QuerySession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
QuerySession::~QuerySession() = default;

Result<std::unique_ptr<QuerySession>> QuerySession::open(const Run& run) {
  auto impl = std::make_unique<Impl>(run);
  // SQLite's sorts (GROUP BY, ORDER BY, DISTINCT) hold their rows in its temporary storage: in
  // memory, but for a run of tens of millions of events (a trace bigger than memory, read from
  // its cache) in unnamed temporary files of Sutra's cache folder, which SQLite spills to. The
  // folder is set before this connection opens (SQLite reads it when it makes a file).
  std::size_t events = 0;
  for (const auto& rank : run.ranks) events += rank->trace ? rank->trace->events.size() : 0;
  const bool spillsToDisk = events >= scratchOnDiskFrom() && useScratchFolderForSqlite();
  // Private, in memory, never a file: SQLite's own temporary storage stays in memory too, but for
  // such a run.
  if (sqlite3_open_v2(":memory:", &impl->db,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_MEMORY,
                      nullptr) != SQLITE_OK)
    return Error{std::string("SQL: cannot open an in-memory database: ") +
                 (impl->db ? sqlite3_errmsg(impl->db) : "out of memory")};
  sqlite3* db = impl->db;
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, nullptr);
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
  sqlite3_exec(db, spillsToDisk ? "PRAGMA temp_store = FILE" : "PRAGMA temp_store = MEMORY",
               nullptr, nullptr, nullptr);

  const RunModel& model = impl->model;
  auto add = [&](std::vector<std::unique_ptr<Table>> tables) {
    for (auto& t : tables) impl->tables.push_back(std::move(t));
  };
  impl->tables.push_back(makeSliceTable(model));
  add(makeTrackTables(model));
  add(makeCounterTables(model));
  add(makeFlowArgsTables(model));
  add(makeOpTables(model));
  add(makeDeviceTables(model));
  add(makeRunTables(model));
  for (const auto& table : impl->tables)
    if (registerTable(db, *table) != SQLITE_OK)
      return Error{"SQL: cannot register table " + std::string(table->name()) + ": " +
                   sqlite3_errmsg(db)};
  if (registerExtractArg(db, model) != SQLITE_OK)
    return Error{std::string("SQL: cannot register extract_arg: ") + sqlite3_errmsg(db)};
  // Each table connected now (SQLite declares an eponymous table on its first use, a CREATE TABLE
  // that the authorizer below would refuse).
  for (const auto& table : impl->tables) {
    const std::string sql = "SELECT * FROM " + std::string(table->name()) + " LIMIT 0";
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK)
      return Error{"SQL: cannot declare table " + std::string(table->name()) + ": " +
                   sqlite3_errmsg(db)};
  }
  for (const char* view : kViews)
    if (sqlite3_exec(db, view, nullptr, nullptr, nullptr) != SQLITE_OK)
      return Error{std::string("SQL: cannot create a view: ") + sqlite3_errmsg(db)};

  // From here on the connection only reads.
  sqlite3_set_authorizer(db, authorize, impl.get());
  sqlite3_progress_handler(db, 10000, progress, impl.get());
  return std::unique_ptr<QuerySession>(new QuerySession(std::move(impl)));
}

Result<QueryResult> QuerySession::run(std::string_view sql, const CancelToken& cancel,
                                      const QueryOptions& options) {
  std::lock_guard lock(impl_->running);
  if (cancel.canceled()) return Error{kCanceled};
  sqlite3* db = impl_->db;
  impl_->cancel = &cancel;
  struct Clear {
    Impl* impl;
    ~Clear() { impl->cancel = nullptr; }
  } clear{impl_.get()};

  QueryResult result;
  std::size_t statements = 0;
  std::size_t at = 0;  // where the next statement starts in sql
  while (at < sql.size()) {
    sqlite3_stmt* stmt = nullptr;
    const char* tail = nullptr;
    impl_->refused.clear();
    const int rc =
        sqlite3_prepare_v2(db, sql.data() + at, static_cast<int>(sql.size() - at), &stmt, &tail);
    if (rc != SQLITE_OK) {
      const int offset = sqlite3_error_offset(db);
      const std::string message =
          rc == SQLITE_AUTH && !impl_->refused.empty()
              ? "a query may only read the run: " + impl_->refused + " is refused"
              : std::string(sqlite3_errmsg(db));
      // Where SQLite does not say where, the statement's first word.
      std::size_t place = at;
      if (offset >= 0)
        place += static_cast<std::size_t>(offset);
      else
        while (place < sql.size() && std::isspace(static_cast<unsigned char>(sql[place]))) ++place;
      return Error{positioned(sql, place, message)};
    }
    const std::size_t start = at;
    at = static_cast<std::size_t>(tail - sql.data());
    if (!stmt) continue;  // only white space or a comment
    struct Finalize {
      sqlite3_stmt* stmt;
      ~Finalize() { sqlite3_finalize(stmt); }
    } finalize{stmt};
    if (!sqlite3_stmt_readonly(stmt)) {
      std::size_t first = start;
      while (first < at && std::isspace(static_cast<unsigned char>(sql[first]))) ++first;
      return Error{positioned(sql, first, "a query may only read the run: this statement writes")};
    }
    ++statements;
    result = QueryResult{};
    const int columns = sqlite3_column_count(stmt);
    for (int c = 0; c < columns; ++c) {
      const char* name = sqlite3_column_name(stmt, c);
      result.columns.push_back({name ? name : "", declaredType(sqlite3_column_decltype(stmt, c))});
    }
    int step = SQLITE_ROW;
    while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
      if (options.maxRows && result.rows.size() >= options.maxRows) {
        result.truncated = true;
        break;
      }
      std::vector<Value> row;
      row.reserve(static_cast<std::size_t>(columns));
      for (int c = 0; c < columns; ++c) row.push_back(valueOf(stmt, c));
      result.rows.push_back(std::move(row));
    }
    if (step == SQLITE_INTERRUPT || cancel.canceled()) return Error{kCanceled};
    if (step != SQLITE_DONE && step != SQLITE_ROW) {
      const int offset = sqlite3_error_offset(db);
      if (offset >= 0)
        return Error{positioned(sql, start + static_cast<std::size_t>(offset), sqlite3_errmsg(db))};
      return Error{std::string(sqlite3_errmsg(db))};
    }
  }
  // A column computed in the query takes the type of its first value.
  for (std::size_t c = 0; c < result.columns.size(); ++c) {
    if (result.columns[c].type != ValueType::Null) continue;
    for (const auto& row : result.rows)
      if (row[c].index() != 0) {
        result.columns[c].type = typeOf(row[c]);
        break;
      }
  }
  result.statements = statements;
  return result;
}

void QuerySession::interrupt() { sqlite3_interrupt(impl_->db); }

std::size_t QuerySession::memoryBytes() const {
  std::size_t bytes = impl_->model.indexBytes();
  for (const auto& t : impl_->tables) bytes += t->builtBytes();
  int current = 0, highwater = 0;
  sqlite3_db_status(impl_->db, SQLITE_DBSTATUS_CACHE_USED, &current, &highwater, 0);
  bytes += static_cast<std::size_t>(current);
  sqlite3_db_status(impl_->db, SQLITE_DBSTATUS_SCHEMA_USED, &current, &highwater, 0);
  bytes += static_cast<std::size_t>(current);
  sqlite3_db_status(impl_->db, SQLITE_DBSTATUS_STMT_USED, &current, &highwater, 0);
  bytes += static_cast<std::size_t>(current);
  return bytes;
}

std::optional<SliceLocation> locateSlice(const Run& run, std::int64_t id) {
  if (id < 0) return std::nullopt;
  for (const auto& rank : run.ranks) {
    if (!rank->trace) continue;
    const auto events = static_cast<std::int64_t>(rank->trace->events.size());
    if (id < events) return SliceLocation{rank->rank, static_cast<EventId>(id)};
    id -= events;
  }
  return std::nullopt;
}

bool completeStatement(const std::string& sql) { return sqlite3_complete(sql.c_str()) != 0; }

std::vector<TableDoc> tableDocs() {
  return {
      {"slice",
       "every complete event: id, ts, dur, category, name, track_id, depth, parent_id, "
       "arg_set_id (+ rank, kind, correlation, external_id)",
       true},
      {"thread", "one per lane (host thread or device stream): utid, tid, name, upid", true},
      {"process", "one per pid of a rank: upid, pid, name", true},
      {"thread_track", "one per lane: id (= utid), name, utid", true},
      {"track", "every track: the thread tracks, then the counter tracks", true},
      {"counter", "counter samples: id, ts, track_id, value", true},
      {"counter_track", "counter series: id, name, upid", true},
      {"process_counter_track", "a view: the counter tracks of a process", true},
      {"flow", "flow arrows between slices: slice_out, slice_in, trace_id", true},
      {"args", "each slice's args, flattened: arg_set_id, key, int/string/real_value", true},
      {"op", "CPU operators: linked to their ET node (et_node_id) with shapes and types", false},
      {"kernel", "device ops with their launch (launch_slice_id) and launching op", false},
      {"launch", "each launch: runtime call, device op, delay", false},
      {"sync", "synchronisation dependencies: waiter_id waited on waited_on_id", false},
      {"step", "each rank's steps (ProfilerStep#N or iterations)", false},
      {"rank", "one row per rank: files, events, span, ET link", false},
      {"et_node", "every execution-trace node as read", false},
      {"memory_event", "[memory] allocations and frees with the allocation curve", false},
      {"collective", "collectives matched across ranks, one row per member", false},
      {"op_table", "the operator table (key_averages): calls, self/total CPU and device", false},
  };
}

std::vector<ExampleQuery> exampleQueries() {
  return {
      {"Time by name",
       "SELECT name, count(*) AS calls, sum(dur) AS total_ns FROM slice\n"
       "GROUP BY name ORDER BY total_ns DESC LIMIT 20"},
      {"Longest kernels",
       "SELECT k.id, k.name, k.dur, s.name AS launched_by FROM kernel k\n"
       "LEFT JOIN slice s ON s.id = k.op_slice_id ORDER BY k.dur DESC LIMIT 20"},
      {"Slices per thread",
       "SELECT thread.name AS thread, count(*) AS slices, sum(slice.dur) AS total_ns\n"
       "FROM slice JOIN thread_track ON slice.track_id = thread_track.id\n"
       "JOIN thread USING (utid) GROUP BY utid ORDER BY total_ns DESC"},
      {"Steps", "SELECT rank, number, name, dur FROM step ORDER BY rank, number"},
      {"Ops with shapes",
       "SELECT name, input_shapes, count(*) AS calls, sum(dur) AS total_ns\n"
       "FROM op GROUP BY name, input_shapes ORDER BY total_ns DESC LIMIT 20"},
      {"Launch delays",
       "SELECT name, count(*) AS launches, avg(delay) AS avg_delay_ns\n"
       "FROM launch GROUP BY name ORDER BY avg_delay_ns DESC"},
  };
}

}  // namespace sutra::sql
