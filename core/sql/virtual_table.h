// SPDX-License-Identifier: MIT
#pragma once
// The bridge between SQLite's virtual-table API and Sutra's tables: a Table declares its columns,
// says which of the constraints SQLite offers it can use (xBestIndex) and opens cursors over the
// model; registerTable() makes it an eponymous virtual table of a connection (SELECT * FROM name,
// no CREATE VIRTUAL TABLE). Tables are read-only (no xUpdate) and copy nothing: a cursor reads the
// model's own arrays and hands SQLite views of its interned strings.
//
// Every constraint a table uses is checked again by SQLite (omit = false): a table may narrow its
// scan to a superset of the rows (a time window widened to whole nanoseconds, a bound of another
// type ignored), never drop a row the query wants.
#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sutra::sql {

enum class Compare : std::uint8_t { Eq, Gt, Ge, Lt, Le };

// A constraint SQLite offers: `column` compared with a value it gives at scan time.
struct Offered {
  int column = 0;
  Compare op = Compare::Eq;
  bool binaryCollation = true;  // text compared byte by byte (no COLLATE NOCASE ...)
};

struct OrderTerm {
  int column = 0;
  bool descending = false;
};

struct PlanRequest {
  std::vector<Offered> offered;  // the usable constraints
  std::vector<OrderTerm> orderBy;
};

struct ScanPlan {
  std::vector<int> use;  // indices into PlanRequest::offered that the cursor is given values for
  double cost = 1e9;
  std::int64_t rows = 1'000'000'000;
  bool ordered = false;  // rows come in PlanRequest::orderBy's order
  int mode = 0;          // the table's own note to its cursor
};

// A constraint with its value, as the cursor is given it.
struct Bound {
  int column = 0;
  Compare op = Compare::Eq;
  sqlite3_value* value = nullptr;

  // The value where it is an integer, or a real of whole value; else nullopt.
  std::optional<std::int64_t> integer() const;
  // The value where it is a number (integer or real); else nullopt.
  std::optional<double> number() const;
  // The value where it is text; else nullopt.
  std::optional<std::string_view> text() const;
};

// An integer range [lo, hi] that bounds on one column narrow (a superset of what they select).
struct IntRange {
  std::int64_t lo = INT64_MIN;
  std::int64_t hi = INT64_MAX;
  // Narrows by `bound` where its value is a number; other values leave the range as it is.
  void narrow(const Bound& bound);
  bool empty() const { return lo > hi; }
  bool contains(std::int64_t v) const { return v >= lo && v <= hi; }
  bool whole() const { return lo == INT64_MIN && hi == INT64_MAX; }
};

class Cursor {
 public:
  virtual ~Cursor() = default;
  // Starts a scan with the plan's mode and the values of the constraints it uses.
  virtual void filter(int mode, std::span<const Bound> bounds) = 0;
  virtual void next() = 0;
  virtual bool eof() const = 0;
  virtual std::int64_t rowid() const = 0;
  virtual void column(int column, sqlite3_context* ctx) const = 0;
};

class Table {
 public:
  virtual ~Table() = default;
  virtual std::string_view name() const = 0;
  // The columns as SQLite declares them: "CREATE TABLE x(id INTEGER, name TEXT, ...)".
  virtual std::string declaration() const = 0;
  // Which offered constraints to use; by default none (a full scan).
  virtual ScanPlan plan(const PlanRequest& request) const;
  virtual std::unique_ptr<Cursor> open() const = 0;
  // Bytes of what the table built on demand (row lists), beyond the model.
  virtual std::size_t builtBytes() const { return 0; }
};

// A table whose rows are numbered 0..rowCount()-1 (rowid = row), scanned in order; `keyColumn`,
// where there is one, is a column whose integer value gives the row (rowOfKey), so `key = v` reads
// one row. Most of Sutra's own tables are this.
class RowTable : public Table {
 public:
  virtual std::int64_t rowCount() const = 0;
  virtual void column(std::int64_t row, int column, sqlite3_context* ctx) const = 0;
  virtual int keyColumn() const { return -1; }
  virtual std::optional<std::int64_t> rowOfKey(std::int64_t) const { return std::nullopt; }

  ScanPlan plan(const PlanRequest& request) const override;
  std::unique_ptr<Cursor> open() const override;
};

// Registers `table` with `db` under its name; the table must outlive the connection.
int registerTable(sqlite3* db, const Table& table);

// Result helpers for column(): text is handed to SQLite as a view (SQLITE_STATIC) where it lives
// as long as the model, or copied (resultCopy) where it is built for the call.
inline void resultView(sqlite3_context* ctx, std::string_view text) {
  sqlite3_result_text(ctx, text.data(), static_cast<int>(text.size()), SQLITE_STATIC);
}
inline void resultCopy(sqlite3_context* ctx, const std::string& text) {
  sqlite3_result_text(ctx, text.data(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
}
inline void resultInt(sqlite3_context* ctx, std::int64_t v) { sqlite3_result_int64(ctx, v); }
// NULL where v is `none` (an absent id).
inline void resultIntOr(sqlite3_context* ctx, std::int64_t v, std::int64_t none) {
  if (v == none)
    sqlite3_result_null(ctx);
  else
    sqlite3_result_int64(ctx, v);
}
// NULL for empty text.
inline void resultViewOrNull(sqlite3_context* ctx, std::string_view text) {
  if (text.empty())
    sqlite3_result_null(ctx);
  else
    resultView(ctx, text);
}

}  // namespace sutra::sql
