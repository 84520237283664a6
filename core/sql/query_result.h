// SPDX-License-Identifier: MIT
#pragma once
// What a SQL query over a loaded run returns: named, typed columns and rows of plain values, with
// no SQLite type in sight, so the CLI, the window and the Python bindings read it alike (a
// DataFrame is built column by column from `columnValues`).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace sutra::sql {

enum class ValueType : std::uint8_t { Null, Integer, Real, Text, Blob };
std::string_view valueTypeName(ValueType type);  // "null", "integer", "real", "text", "blob"

// A blob is kept as its bytes in a string, marked apart from text.
struct Blob {
  std::string bytes;
  bool operator==(const Blob&) const = default;
};
using Value = std::variant<std::monostate, std::int64_t, double, std::string, Blob>;

ValueType typeOf(const Value& value);
// As the table view shows a value: integers in full, reals with up to 15 significant digits,
// NULL as "NULL", a blob as "<blob N bytes>".
std::string displayText(const Value& value);

struct ResultColumn {
  std::string name;
  // The column's declared type where it comes straight from a table, else the type of its first
  // value that is not NULL (Null where every value is).
  ValueType type = ValueType::Null;
};

struct QueryResult {
  std::vector<ResultColumn> columns;
  std::vector<std::vector<Value>> rows;  // rows[i][c]
  bool truncated = false;                // QueryOptions::maxRows stopped it
  std::size_t statements = 0;            // statements the text held (the last one's rows are here)

  // Column c's values top to bottom (for front ends that build columns).
  std::vector<Value> columnValues(std::size_t c) const;
};

}  // namespace sutra::sql
