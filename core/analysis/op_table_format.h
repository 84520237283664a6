// SPDX-License-Identifier: MIT
#pragma once
// The operator table written out: as torch's EventList.table() prints it, as the CLI's JSON
// document, and as CSV (for spreadsheets and the GUI's export).
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/op_table.h"

namespace sutra {

// torch's _format_time: "12.345us", "1.234ms", "1.500s" (from nanoseconds).
std::string formatTorchTime(double ns);
// torch's _format_time_share: "12.34%", "NaN" where the total is 0.
std::string formatTorchShare(TimeNs part, TimeNs total);

// The rows in their current order (sort first), at most `limit` of them (0: all), laid out as
// torch's _build_table does: right-aligned columns, names cut at 52 characters with "...",
// device columns only where some row has device time, the totals underneath.
std::string opTableText(const OpTable& table, std::size_t limit = 100);
// {"device","window":{"start_ns","end_ns"},"rows":[{"name","input_shapes"?,"calls","self_cpu_ns",
//  "cpu_total_ns","self_device_ns","device_total_ns"}],"recursion_counted_once"?: true,
//  "launched_before_trace"?: {"ops","time_ns","in_rows"}}
nlohmann::json opTableJson(const OpTable& table, std::size_t limit = 0);
// One header line, one line per row; fields quoted where needed (RFC 4180).
std::string opTableCsv(const OpTable& table, std::size_t limit = 0);

}  // namespace sutra
