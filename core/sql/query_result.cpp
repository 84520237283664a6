// SPDX-License-Identifier: MIT
#include "sql/query_result.h"

#include <cstdio>

namespace sutra::sql {

std::string_view valueTypeName(ValueType type) {
  switch (type) {
    case ValueType::Null:
      return "null";
    case ValueType::Integer:
      return "integer";
    case ValueType::Real:
      return "real";
    case ValueType::Text:
      return "text";
    case ValueType::Blob:
      return "blob";
  }
  return "null";
}

ValueType typeOf(const Value& value) {
  switch (value.index()) {
    case 1:
      return ValueType::Integer;
    case 2:
      return ValueType::Real;
    case 3:
      return ValueType::Text;
    case 4:
      return ValueType::Blob;
    default:
      return ValueType::Null;
  }
}

std::string displayText(const Value& value) {
  switch (value.index()) {
    case 1:
      return std::to_string(std::get<std::int64_t>(value));
    case 2: {
      char buffer[32];
      std::snprintf(buffer, sizeof buffer, "%.15g", std::get<double>(value));
      return buffer;
    }
    case 3:
      return std::get<std::string>(value);
    case 4:
      return "<blob " + std::to_string(std::get<Blob>(value).bytes.size()) + " bytes>";
    default:
      return "NULL";
  }
}

std::vector<Value> QueryResult::columnValues(std::size_t c) const {
  std::vector<Value> values;
  values.reserve(rows.size());
  for (const auto& row : rows) values.push_back(row[c]);
  return values;
}

}  // namespace sutra::sql
