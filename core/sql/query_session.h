// SPDX-License-Identifier: MIT
#pragma once
// SQL over a loaded run: the one entry point that sutra-cli query, the window's query dock and the
// Python bindings drive.
//
// A session opens a private in-memory SQLite database whose tables are virtual tables over the
// run's model (core/sql/*_table.cpp): no event is copied. Where a table means what Perfetto's trace
// processor means by it, it has Perfetto's name and columns (slice, thread, process, thread_track,
// track, counter, counter_track, flow, args), so Perfetto's documented queries run unchanged on
// what the two share; Sutra's own knowledge has tables of its own (op, kernel, launch, sync, step,
// rank, et_node, memory_event, collective, op_table). `sql::tableDocs()` lists every table.
//
// A query may only read: the connection refuses ATTACH, every write, schema change and PRAGMA but
// a few that read (an authorizer, SQLITE_LIMIT_ATTACHED = 0, defensive mode, no extension loading,
// temporary storage in memory), and a statement SQLite does not judge read-only is refused before
// it runs. One query runs at a time; another thread may cancel it (the CancelToken given to run(),
// or interrupt()), and a canceled query fails with kCanceled and leaves the session usable.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "session/run.h"
#include "sql/query_result.h"
#include "util/cancel_token.h"
#include "util/result.h"

namespace sutra::sql {

struct QueryOptions {
  std::size_t maxRows = 0;  // keep at most this many rows (QueryResult::truncated); 0: all
};

class QuerySession {
 public:
  // A session over `run`: it keeps the run's ranks (shared) alive while it lives. Fails only when
  // SQLite cannot open an in-memory database.
  static Result<std::unique_ptr<QuerySession>> open(const Run& run);
  ~QuerySession();
  QuerySession(const QuerySession&) = delete;
  QuerySession& operator=(const QuerySession&) = delete;

  // Runs every statement of `sql` in order and returns the rows of the last one. A bad query fails
  // with SQLite's message and where it is: "line 1, column 15: no such column: nme", then the line
  // and a caret under the place. Thread-safe: calls from several threads run one after another.
  Result<QueryResult> run(std::string_view sql, const CancelToken& cancel = {},
                          const QueryOptions& options = {});
  // Stops the query running now, from any thread (it fails with kCanceled).
  void interrupt();

  // Bytes the SQL layer holds beyond the run's model: the indexes built on demand (the slice
  // table's name order, row lists of the op and launch tables) and SQLite's own memory.
  std::size_t memoryBytes() const;

  struct Impl;

 private:
  explicit QuerySession(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Where slice `id` of a session over `run` is: its rank's number (RankRun::rank) and its event in
// that rank's trace; nullopt for an id no rank holds. (Slice ids number each rank's events after
// the ranks before it, in the run's rank order.)
struct SliceLocation {
  int rank = 0;
  EventId event = kNoEvent;
};
std::optional<SliceLocation> locateSlice(const Run& run, std::int64_t id);

// A table of the session, for the docs, the CLI's help and the window's list.
struct TableDoc {
  std::string name;
  std::string about;      // one line
  bool perfetto = false;  // named and shaped as Perfetto's table of that name
};
std::vector<TableDoc> tableDocs();

// True where `sql` ends with a complete statement (a shell reads lines until it does).
bool completeStatement(const std::string& sql);

// A few queries to start from (the window's examples, the CLI's help).
struct ExampleQuery {
  std::string title;
  std::string sql;
};
std::vector<ExampleQuery> exampleQueries();

}  // namespace sutra::sql
