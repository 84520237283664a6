// SPDX-License-Identifier: MIT
// run.sql(): a SQL query over the run (core/sql), run on a worker thread so that Ctrl-C cancels
// it, its result handed over column by column: integer and real columns as NumPy arrays (with a
// mask where an integer column has NULLs), the rest as lists of Python values.
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>

#include <cmath>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "run_handle.h"

namespace sutra::python {
namespace {

template <class T>
using Array = nb::ndarray<nb::numpy, T, nb::ndim<1>>;

template <class T>
nb::object toNumpy(std::vector<T>&& values) {
  auto* owned = new std::vector<T>(std::move(values));
  nb::capsule owner(owned, [](void* p) noexcept { delete static_cast<std::vector<T>*>(p); });
  return nb::cast(Array<T>(owned->data(), {owned->size()}, owner));
}

nb::object pythonValue(const sql::Value& v) {
  switch (sql::typeOf(v)) {
    case sql::ValueType::Null:
      return nb::none();
    case sql::ValueType::Integer:
      return nb::int_(std::get<std::int64_t>(v));
    case sql::ValueType::Real:
      return nb::float_(std::get<double>(v));
    case sql::ValueType::Text: {
      const std::string& t = std::get<std::string>(v);
      return nb::str(t.data(), t.size());
    }
    case sql::ValueType::Blob: {
      const std::string& b = std::get<sql::Blob>(v).bytes;
      return nb::bytes(b.data(), b.size());
    }
  }
  return nb::none();
}

// Column c as ("int", values, mask or None), ("real", values, None), ("text", list, None) where
// every value is text or NULL, or ("object", list, None): mixed values, blobs as bytes. A column
// of NULLs alone (or no rows) takes its declared type.
nb::tuple column(const sql::QueryResult& result, std::size_t c) {
  std::size_t seen[5] = {};  // by ValueType
  for (const auto& row : result.rows) ++seen[static_cast<int>(sql::typeOf(row[c]))];
  auto has = [&](sql::ValueType t) { return seen[static_cast<int>(t)] > 0; };
  const bool anyValue = has(sql::ValueType::Integer) || has(sql::ValueType::Real) ||
                        has(sql::ValueType::Text) || has(sql::ValueType::Blob);
  const sql::ValueType declared = result.columns[c].type;
  auto only = [&](std::initializer_list<sql::ValueType> types, sql::ValueType fallback) {
    if (!anyValue) return declared == fallback;
    std::size_t in = seen[static_cast<int>(sql::ValueType::Null)];
    for (sql::ValueType t : types) in += seen[static_cast<int>(t)];
    return in == result.rows.size();
  };
  const std::size_t n = result.rows.size();
  if (only({sql::ValueType::Integer}, sql::ValueType::Integer)) {
    std::vector<std::int64_t> values(n, 0);
    std::vector<std::uint8_t> missing(n, 0);
    for (std::size_t i = 0; i < n; ++i) {
      const sql::Value& v = result.rows[i][c];
      if (std::holds_alternative<std::int64_t>(v))
        values[i] = std::get<std::int64_t>(v);
      else
        missing[i] = 1;
    }
    nb::object mask = has(sql::ValueType::Null) ? toNumpy(std::move(missing)) : nb::none();
    return nb::make_tuple("int", toNumpy(std::move(values)), mask);
  }
  if (only({sql::ValueType::Integer, sql::ValueType::Real}, sql::ValueType::Real)) {
    std::vector<double> values(n);
    for (std::size_t i = 0; i < n; ++i) {
      const sql::Value& v = result.rows[i][c];
      if (std::holds_alternative<double>(v))
        values[i] = std::get<double>(v);
      else if (std::holds_alternative<std::int64_t>(v))
        values[i] = static_cast<double>(std::get<std::int64_t>(v));
      else
        values[i] = std::nan("");
    }
    return nb::make_tuple("real", toNumpy(std::move(values)), nb::none());
  }
  nb::list values;
  for (const auto& row : result.rows) values.append(pythonValue(row[c]));
  const bool text = only({sql::ValueType::Text}, sql::ValueType::Text);
  return nb::make_tuple(text ? "text" : "object", values, nb::none());
}

nb::dict query(RunHandle& h, const std::string& text, std::size_t maxRows, nb::object progress) {
  std::optional<Result<sql::QueryResult>> answered;
  runCancellable(
      [&](const CancelToken& cancel, const ProgressSink&) {
        {
          std::lock_guard lock(h.sqlOpening);
          if (!h.sql) h.sql = valueOr(sql::QuerySession::open(h.run));
        }
        answered.emplace(h.sql->run(text, cancel, {.maxRows = maxRows}));
      },
      progress);
  const sql::QueryResult result = valueOr(std::move(*answered));
  nb::list names, types, columns;
  for (std::size_t c = 0; c < result.columns.size(); ++c) {
    names.append(result.columns[c].name);
    types.append(std::string(sql::valueTypeName(result.columns[c].type)));
    columns.append(column(result, c));
  }
  nb::dict out;
  out["names"] = names;
  out["types"] = types;
  out["columns"] = columns;
  out["truncated"] = result.truncated;
  return out;
}

nb::list tables() {
  nb::list out;
  for (const sql::TableDoc& t : sql::tableDocs()) {
    nb::dict row;
    row["table"] = t.name;
    row["about"] = t.about;
    row["perfetto"] = t.perfetto;
    out.append(row);
  }
  return out;
}

}  // namespace

void bindQuery(nb::module_& m) {
  m.def("sql", &query, nb::arg("handle"), nb::arg("query"), nb::arg("max_rows"),
        nb::arg("progress").none(),
        "Runs a read-only SQL query over the run (core/sql) and returns its columns.");
  m.def("sql_tables", &tables, "The SQL tables: name, what each holds, whether Perfetto's.");
  m.def(
      "locate_slice",
      [](const RunHandle& h, std::int64_t id) -> nb::object {
        auto where = sql::locateSlice(h.run, id);
        if (!where) return nb::none();
        return nb::make_tuple(where->rank, where->event);
      },
      nb::arg("handle"), nb::arg("slice_id"), "(rank, event id) of a slice id, or None.");
}

}  // namespace sutra::python
