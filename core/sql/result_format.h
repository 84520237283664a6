// SPDX-License-Identifier: MIT
#pragma once
// A query's result as text: an aligned table (numbers right-aligned, long cells cut at
// `maxWidth` with "..."), CSV (RFC 4180, through util/csv.h) or JSON (an array of one object per
// row, keys in column order; integers, reals, text and null as JSON's own, a blob as its size).
#include <cstddef>
#include <string>

#include "sql/query_result.h"

namespace sutra::sql {

std::string resultTable(const QueryResult& result, std::size_t maxWidth = 60);
std::string resultCsv(const QueryResult& result);
std::string resultJson(const QueryResult& result, int indent = 2);

}  // namespace sutra::sql
