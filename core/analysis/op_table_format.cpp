// SPDX-License-Identifier: MIT
#include "analysis/op_table_format.h"

#include <algorithm>
#include <cstdio>
#include <vector>

#include "util/csv.h"

namespace sutra {
namespace {

constexpr std::size_t kMaxNameWidth = 55;    // torch's max_name_column_width
constexpr std::size_t kMaxShapesWidth = 80;  // torch's max_shapes_column_width
constexpr std::size_t kColumnWidth = 12;     // torch's DEFAULT_COLUMN_WIDTH

std::string printf1(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

std::string rightAligned(const std::string& text, std::size_t width) {
  return text.size() >= width ? text : std::string(width - text.size(), ' ') + text;
}

// torch's _format_memory: binary units, two decimals, named KB / MB / GB as torch names them.
std::string formatTorchMemory(std::int64_t bytes) {
  constexpr double kKb = 1024.0, kMb = 1024.0 * kKb, kGb = 1024.0 * kMb;
  const double v = double(bytes), a = v < 0 ? -v : v;
  if (a >= kGb) return printf1("%.2f GB", v / kGb);
  if (a >= kMb) return printf1("%.2f MB", v / kMb);
  if (a >= kKb) return printf1("%.2f KB", v / kKb);
  return std::to_string(bytes) + " B";
}

std::size_t rowCount(const OpTable& table, std::size_t limit) {
  return limit == 0 ? table.rows.size() : std::min(limit, table.rows.size());
}

}  // namespace

std::string formatTorchTime(double ns) {
  const double us = ns / 1000.0;
  if (us >= 1e6) return printf1("%.3fs", us / 1e6);
  if (us >= 1e3) return printf1("%.3fms", us / 1e3);
  return printf1("%.3fus", us);
}

std::string formatTorchShare(TimeNs part, TimeNs total) {
  if (total == 0) return "NaN";
  return printf1("%.2f%%", double(part) * 100.0 / double(total));
}

std::string opTableText(const OpTable& table, std::size_t limit) {
  const std::size_t n = rowCount(table, limit);
  if (table.rows.empty()) return {};
  const bool device = table.hasDeviceTime();
  const bool shapes = table.groupedByInputShapes;
  std::size_t nameWidth = 0, shapesWidth = 0;
  for (const auto& r : table.rows) {  // torch sizes the columns over all rows, not the shown ones
    nameWidth = std::max(nameWidth, r.name.size() + 4);
    shapesWidth = std::max(shapesWidth, r.inputShapes.size() + 4);
  }
  nameWidth = std::min(nameWidth, kMaxNameWidth);
  shapesWidth = std::min(shapesWidth, kMaxShapesWidth);

  std::vector<std::string> headers = {"Name",        "Self CPU %", "Self CPU",
                                      "CPU total %", "CPU total",  "CPU time avg"};
  const std::string& dev = table.device;
  if (device) {
    headers.push_back("Self " + dev);
    headers.push_back("Self " + dev + " %");
    headers.push_back(dev + " total");
    headers.push_back(dev + " time avg");
  }
  const bool deviceMemory = device && table.deviceMemoryRecorded;
  if (table.memoryRecorded) {
    headers.push_back("CPU Mem");
    headers.push_back("Self CPU Mem");
    if (deviceMemory) {
      headers.push_back(dev + " Mem");
      headers.push_back("Self " + dev + " Mem");
    }
  }
  headers.push_back("# of Calls");
  if (shapes) headers.push_back("Input Shapes");
  std::vector<std::size_t> widths(headers.size(), kColumnWidth);
  widths.front() = nameWidth;
  if (shapes) widths.back() = shapesWidth;

  std::string separator;
  for (auto w : widths) separator += std::string(w, '-') + "  ";
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (std::size_t i = 0; i < cells.size(); ++i) out += rightAligned(cells[i], widths[i]) + "  ";
    return out + "\n";
  };

  std::string out = separator + "\n" + line(headers) + separator + "\n";
  for (std::size_t k = 0; k < n; ++k) {
    const OpRow& r = table.rows[k];
    std::string name = r.name;
    if (name.size() >= kMaxNameWidth - 3) name = name.substr(0, kMaxNameWidth - 3) + "...";
    std::vector<std::string> cells = {name,
                                      formatTorchShare(r.selfCpu, table.selfCpuTotal),
                                      formatTorchTime(double(r.selfCpu)),
                                      formatTorchShare(r.cpuTotal, table.selfCpuTotal),
                                      formatTorchTime(double(r.cpuTotal)),
                                      formatTorchTime(r.cpuAverage())};
    if (device) {
      cells.push_back(formatTorchTime(double(r.selfDevice)));
      cells.push_back(formatTorchShare(r.selfDevice, table.selfDeviceTotal));
      cells.push_back(formatTorchTime(double(r.deviceTotal)));
      cells.push_back(formatTorchTime(r.deviceAverage()));
    }
    if (table.memoryRecorded) {
      cells.push_back(formatTorchMemory(r.cpuMemory));
      cells.push_back(formatTorchMemory(r.selfCpuMemory));
      if (deviceMemory) {
        cells.push_back(formatTorchMemory(r.deviceMemory));
        cells.push_back(formatTorchMemory(r.selfDeviceMemory));
      }
    }
    cells.push_back(std::to_string(r.calls));
    if (shapes) cells.push_back(r.inputShapes.substr(0, shapesWidth));
    out += line(cells);
  }
  out += separator + "\n";
  out += "Self CPU time total: " + formatTorchTime(double(table.selfCpuTotal)) + "\n";
  if (device)
    out += "Self " + dev + " time total: " + formatTorchTime(double(table.selfDeviceTotal)) + "\n";
  if (table.recursionCountedOnce)
    out += "Totals count an op nested in an op of its own name once (torch counts it twice)\n";
  if (const auto& u = table.launchedBefore; u.ops > 0 && !u.inRows)
    out += "Launched before the trace (in no step, not in the rows): " + std::to_string(u.ops) +
           " device ops, " + formatTorchTime(double(u.time)) + "\n";
  return out;
}

nlohmann::json opTableJson(const OpTable& table, std::size_t limit) {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t k = 0; k < rowCount(table, limit); ++k) {
    const OpRow& r = table.rows[k];
    nlohmann::json row;
    row["name"] = r.name;
    if (table.groupedByInputShapes) row["input_shapes"] = r.inputShapes;
    row["calls"] = r.calls;
    row["self_cpu_ns"] = r.selfCpu;
    row["cpu_total_ns"] = r.cpuTotal;
    row["self_device_ns"] = r.selfDevice;
    row["device_total_ns"] = r.deviceTotal;
    if (table.memoryRecorded) {
      row["cpu_memory_bytes"] = r.cpuMemory;
      row["self_cpu_memory_bytes"] = r.selfCpuMemory;
      row["device_memory_bytes"] = r.deviceMemory;
      row["self_device_memory_bytes"] = r.selfDeviceMemory;
    }
    rows.push_back(std::move(row));
  }
  nlohmann::json doc;
  doc["device"] = table.device;
  doc["window"] = {{"start_ns", table.window.start}, {"end_ns", table.window.end}};
  doc["rows"] = std::move(rows);
  doc["self_cpu_total_ns"] = table.selfCpuTotal;
  doc["self_device_total_ns"] = table.selfDeviceTotal;
  if (table.memoryRecorded) doc["memory_recorded"] = true;
  if (table.recursionCountedOnce) doc["recursion_counted_once"] = true;
  if (const auto& u = table.launchedBefore; u.ops > 0)
    doc["launched_before_trace"] = {{"ops", u.ops}, {"time_ns", u.time}, {"in_rows", u.inRows}};
  return doc;
}

std::string opTableCsv(const OpTable& table, std::size_t limit) {
  std::string out = "name,";
  if (table.groupedByInputShapes) out += "input_shapes,";
  out += "on_device,calls,self_cpu_ns,cpu_total_ns,self_device_ns,device_total_ns";
  if (table.memoryRecorded)
    out += ",cpu_memory_bytes,self_cpu_memory_bytes,device_memory_bytes,self_device_memory_bytes";
  out += "\n";
  for (std::size_t k = 0; k < rowCount(table, limit); ++k) {
    const OpRow& r = table.rows[k];
    out += csvField(r.name) + ",";
    if (table.groupedByInputShapes) out += csvField(r.inputShapes) + ",";
    out += std::string(r.onDevice ? "1" : "0") + "," + std::to_string(r.calls) + "," +
           std::to_string(r.selfCpu) + "," + std::to_string(r.cpuTotal) + "," +
           std::to_string(r.selfDevice) + "," + std::to_string(r.deviceTotal);
    if (table.memoryRecorded)
      out += "," + std::to_string(r.cpuMemory) + "," + std::to_string(r.selfCpuMemory) + "," +
             std::to_string(r.deviceMemory) + "," + std::to_string(r.selfDeviceMemory);
    out += "\n";
  }
  return out;
}

}  // namespace sutra
