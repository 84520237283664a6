// SPDX-License-Identifier: MIT
#include "sql/result_format.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "util/csv.h"

namespace sutra::sql {
namespace {

// Characters a cell takes on screen: UTF-8 continuation bytes take none.
std::size_t displayWidth(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

// One line of a cell: line breaks and tabs shown as spaces, cut to maxWidth characters.
std::string cellText(const Value& value, std::size_t maxWidth) {
  std::string text = displayText(value);
  std::replace_if(
      text.begin(), text.end(), [](char c) { return c == '\n' || c == '\r' || c == '\t'; }, ' ');
  if (displayWidth(text) <= maxWidth || maxWidth < 4) return text;
  std::string cut;
  std::size_t width = 0;
  for (const char c : text) {
    const bool starts = (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    if (starts && ++width > maxWidth - 3) break;
    cut += c;
  }
  return cut + "...";
}

bool isNumber(const Value& value) {
  return std::holds_alternative<std::int64_t>(value) || std::holds_alternative<double>(value);
}

}  // namespace

std::string resultTable(const QueryResult& result, std::size_t maxWidth) {
  const std::size_t columns = result.columns.size();
  std::vector<std::vector<std::string>> cells;
  std::vector<std::size_t> widths(columns, 0);
  for (std::size_t c = 0; c < columns; ++c)
    widths[c] = std::min(displayWidth(result.columns[c].name), std::max<std::size_t>(maxWidth, 4));
  for (const auto& row : result.rows) {
    cells.emplace_back();
    for (std::size_t c = 0; c < columns; ++c) {
      cells.back().push_back(cellText(row[c], maxWidth));
      widths[c] = std::max(widths[c], displayWidth(cells.back().back()));
    }
  }
  auto pad = [](const std::string& text, std::size_t width, bool right) {
    const std::size_t fill = width - std::min(width, displayWidth(text));
    return right ? std::string(fill, ' ') + text : text + std::string(fill, ' ');
  };
  std::string out;
  auto line = [&](const std::vector<std::string>& texts, const std::vector<Value>* row) {
    std::string text;
    for (std::size_t c = 0; c < columns; ++c) {
      if (c) text += "  ";
      const bool right = row && isNumber((*row)[c]);
      text += pad(texts[c], widths[c], right);
    }
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out += text + "\n";
  };
  std::vector<std::string> header;
  for (const auto& column : result.columns) header.push_back(cellText(column.name, maxWidth));
  line(header, nullptr);
  std::vector<std::string> rule;
  for (std::size_t c = 0; c < columns; ++c) rule.push_back(std::string(widths[c], '-'));
  line(rule, nullptr);
  for (std::size_t r = 0; r < cells.size(); ++r) line(cells[r], &result.rows[r]);
  const std::size_t n = result.rows.size();
  out += "(" + std::to_string(n) + (n == 1 ? " row" : " rows") +
         (result.truncated ? ", more not shown" : "") + ")\n";
  return out;
}

std::string resultCsv(const QueryResult& result) {
  std::string out;
  for (std::size_t c = 0; c < result.columns.size(); ++c) {
    if (c) out += ',';
    out += csvField(result.columns[c].name);
  }
  out += "\n";
  for (const auto& row : result.rows) {
    for (std::size_t c = 0; c < row.size(); ++c) {
      if (c) out += ',';
      if (row[c].index() != 0) out += csvField(displayText(row[c]));
    }
    out += "\n";
  }
  return out;
}

std::string resultJson(const QueryResult& result, int indent) {
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& row : result.rows) {
    nlohmann::ordered_json object = nlohmann::ordered_json::object();
    for (std::size_t c = 0; c < row.size(); ++c) {
      const Value& v = row[c];
      nlohmann::ordered_json value;
      if (const auto* i = std::get_if<std::int64_t>(&v))
        value = *i;
      else if (const auto* d = std::get_if<double>(&v))
        value = *d;
      else if (const auto* s = std::get_if<std::string>(&v))
        value = *s;
      else if (const auto* b = std::get_if<Blob>(&v))
        value = "<blob " + std::to_string(b->bytes.size()) + " bytes>";
      object[result.columns[c].name] = std::move(value);
    }
    rows.push_back(std::move(object));
  }
  return rows.dump(indent, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace sutra::sql
