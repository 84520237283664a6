// SPDX-License-Identifier: MIT
#include "analysis/compare.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <tuple>

#include "analysis/op_table_format.h"
#include "model/time.h"
#include "util/csv.h"

namespace sutra {
namespace {

using Key = std::tuple<std::string, bool, std::string>;

OpSide sideOf(const OpRow& r) {
  return {r.calls, r.selfCpu, r.cpuTotal, r.selfDevice, r.deviceTotal};
}

std::size_t shown(const OpComparison& c, std::size_t limit) {
  return limit == 0 ? c.rows.size() : std::min(limit, c.rows.size());
}

std::string signedTime(TimeNs delta) {
  if (delta == 0) return "0";
  return (delta > 0 ? "+" : "-") + formatDuration(delta > 0 ? delta : -delta);
}

nlohmann::json sideJson(const OpSide& s) {
  return {{"calls", s.calls},
          {"self_cpu_ns", s.selfCpu},
          {"cpu_total_ns", s.cpuTotal},
          {"self_device_ns", s.selfDevice},
          {"device_total_ns", s.deviceTotal}};
}

}  // namespace

std::size_t OpComparison::onlyInA() const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [](const OpDelta& d) { return d.inA && !d.inB; }));
}
std::size_t OpComparison::onlyInB() const {
  return static_cast<std::size_t>(
      std::count_if(rows.begin(), rows.end(), [](const OpDelta& d) { return d.inB && !d.inA; }));
}

OpComparison compareOpTables(const OpTable& a, const OpTable& b, std::string labelA,
                             std::string labelB) {
  OpComparison c;
  c.device = a.device;
  c.labelA = std::move(labelA);
  c.labelB = std::move(labelB);
  c.windowA = a.window;
  c.windowB = b.window;
  c.selfCpuTotalA = a.selfCpuTotal;
  c.selfCpuTotalB = b.selfCpuTotal;
  c.selfDeviceTotalA = a.selfDeviceTotal;
  c.selfDeviceTotalB = b.selfDeviceTotal;
  c.groupedByInputShapes = a.groupedByInputShapes && b.groupedByInputShapes;
  c.launchedBeforeA = a.launchedBefore;
  c.launchedBeforeB = b.launchedBefore;
  std::map<Key, OpDelta> byKey;
  auto add = [&](const OpTable& t, bool sideA) {
    for (const auto& r : t.rows) {
      const std::string shapes = c.groupedByInputShapes ? r.inputShapes : std::string();
      OpDelta& d = byKey[{r.name, r.onDevice, shapes}];
      d.name = r.name;
      d.onDevice = r.onDevice;
      d.inputShapes = shapes;
      // Without shapes a table grouped by them has several rows of one name: add them up.
      OpSide& s = sideA ? d.a : d.b;
      const OpSide add = sideOf(r);
      s.calls += add.calls;
      s.selfCpu += add.selfCpu;
      s.cpuTotal += add.cpuTotal;
      s.selfDevice += add.selfDevice;
      s.deviceTotal += add.deviceTotal;
      (sideA ? d.inA : d.inB) = true;
    }
  };
  add(a, true);
  add(b, false);
  for (auto& [key, d] : byKey) c.rows.push_back(std::move(d));
  std::stable_sort(c.rows.begin(), c.rows.end(), [](const OpDelta& x, const OpDelta& y) {
    const auto dx = std::llabs(x.selfDeviceDelta()), dy = std::llabs(y.selfDeviceDelta());
    if (dx != dy) return dx > dy;
    const auto cx = std::llabs(x.selfCpuDelta()), cy = std::llabs(y.selfCpuDelta());
    return cx > cy;
  });
  return c;
}

std::string describeChange(TimeNs a, TimeNs b) {
  if (a == b) return "same";
  if (a == 0) return "new";
  if (b == 0) return "gone";
  char buffer[64];
  if (b < a)
    std::snprintf(buffer, sizeof buffer, "%.2fx less", double(a) / double(b));
  else
    std::snprintf(buffer, sizeof buffer, "%.2fx more", double(b) / double(a));
  return buffer;
}

std::string totalLine(const std::string& what, TimeNs a, TimeNs b) {
  return what + ": " + formatDuration(a) + " -> " + formatDuration(b) + " (" +
         describeChange(a, b) + ")";
}

std::string comparisonText(const OpComparison& c, std::size_t limit) {
  std::string out = "A: " + c.labelA + "\nB: " + c.labelB + "\n";
  out += totalLine("Window", c.windowA.length(), c.windowB.length()) + "\n";
  out += totalLine("Self CPU total", c.selfCpuTotalA, c.selfCpuTotalB) + "\n";
  out += totalLine("Self " + c.device + " total", c.selfDeviceTotalA, c.selfDeviceTotalB) + "\n";
  // Device work whose launch is not in the trace belongs to no step: said, not compared.
  const auto& ua = c.launchedBeforeA;
  const auto& ub = c.launchedBeforeB;
  if ((ua.ops > 0 && !ua.inRows) || (ub.ops > 0 && !ub.inRows)) {
    auto side = [](const UnlaunchedWork& u) {
      return u.inRows ? std::string("in the rows")
                      : std::to_string(u.ops) + " device ops, " + formatDuration(u.time);
    };
    out += "Launched before the trace (in no step, not in the rows): A " + side(ua) + "; B " +
           side(ub) + "\n";
  }
  out += "Operators: " + std::to_string(c.rows.size()) + " (" + std::to_string(c.onlyInA()) +
         " only in A, " + std::to_string(c.onlyInB()) + " only in B)\n\n";
  const std::string dev = c.device;
  const std::vector<std::string> headers = {"Name",
                                            "Side",
                                            "Calls A",
                                            "Calls B",
                                            "Self CPU A",
                                            "Self CPU B",
                                            "Self CPU delta",
                                            "Self " + dev + " A",
                                            "Self " + dev + " B",
                                            "Self " + dev + " delta",
                                            dev + " total delta"};
  std::size_t nameWidth = 4;
  for (std::size_t k = 0; k < shown(c, limit); ++k)
    nameWidth = std::max(nameWidth, std::min<std::size_t>(c.rows[k].name.size(), 52));
  auto cell = [](const std::string& text, std::size_t width, bool left) {
    std::string t = text.size() > width ? text.substr(0, width - 3) + "..." : text;
    const std::string pad(width - t.size(), ' ');
    return left ? t + pad : pad + t;
  };
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s = cell(cells[0], nameWidth, true);
    for (std::size_t i = 1; i < cells.size(); ++i)
      s += "  " + cell(cells[i], i == 1 ? 6 : 14, false);
    return s + "\n";
  };
  out += line(headers);
  for (std::size_t k = 0; k < shown(c, limit); ++k) {
    const OpDelta& d = c.rows[k];
    std::string name = d.name + (d.inputShapes.empty() ? "" : " " + d.inputShapes);
    out += line({name,
                 d.inA && d.inB ? "both"
                 : d.inA        ? "A"
                                : "B",
                 std::to_string(d.a.calls), std::to_string(d.b.calls), formatDuration(d.a.selfCpu),
                 formatDuration(d.b.selfCpu), signedTime(d.selfCpuDelta()),
                 formatDuration(d.a.selfDevice), formatDuration(d.b.selfDevice),
                 signedTime(d.selfDeviceDelta()), signedTime(d.deviceTotalDelta())});
  }
  if (shown(c, limit) < c.rows.size())
    out += "... " + std::to_string(c.rows.size() - shown(c, limit)) + " more rows\n";
  return out;
}

nlohmann::json comparisonJson(const OpComparison& c, std::size_t limit) {
  auto side = [](const std::string& label, const TimeWindow& w, TimeNs cpu, TimeNs dev) {
    return nlohmann::json{{"label", label},
                          {"window", {{"start_ns", w.start}, {"end_ns", w.end}}},
                          {"self_cpu_total_ns", cpu},
                          {"self_device_total_ns", dev}};
  };
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t k = 0; k < shown(c, limit); ++k) {
    const OpDelta& d = c.rows[k];
    nlohmann::json row;
    row["name"] = d.name;
    if (c.groupedByInputShapes) row["input_shapes"] = d.inputShapes;
    row["on_device"] = d.onDevice;
    row["side"] = d.inA && d.inB ? "both" : d.inA ? "a" : "b";
    row["a"] = sideJson(d.a);
    row["b"] = sideJson(d.b);
    row["delta"] = {{"calls", d.callsDelta()},
                    {"self_cpu_ns", d.selfCpuDelta()},
                    {"cpu_total_ns", d.cpuTotalDelta()},
                    {"self_device_ns", d.selfDeviceDelta()},
                    {"device_total_ns", d.deviceTotalDelta()}};
    rows.push_back(std::move(row));
  }
  return {{"device", c.device},
          {"a", side(c.labelA, c.windowA, c.selfCpuTotalA, c.selfDeviceTotalA)},
          {"b", side(c.labelB, c.windowB, c.selfCpuTotalB, c.selfDeviceTotalB)},
          {"rows", std::move(rows)}};
}

std::string comparisonCsv(const OpComparison& c, std::size_t limit) {
  std::string out = "name,";
  if (c.groupedByInputShapes) out += "input_shapes,";
  out +=
      "on_device,side,calls_a,calls_b,self_cpu_ns_a,self_cpu_ns_b,cpu_total_ns_a,cpu_total_ns_b,"
      "self_device_ns_a,self_device_ns_b,device_total_ns_a,device_total_ns_b\n";
  for (std::size_t k = 0; k < shown(c, limit); ++k) {
    const OpDelta& d = c.rows[k];
    out += csvField(d.name) + ",";
    if (c.groupedByInputShapes) out += csvField(d.inputShapes) + ",";
    out += std::string(d.onDevice ? "1" : "0") + "," +
           (d.inA && d.inB ? "both"
            : d.inA        ? "a"
                           : "b");
    for (auto v : {TimeNs(d.a.calls), TimeNs(d.b.calls), d.a.selfCpu, d.b.selfCpu, d.a.cpuTotal,
                   d.b.cpuTotal, d.a.selfDevice, d.b.selfDevice, d.a.deviceTotal, d.b.deviceTotal})
      out += "," + std::to_string(v);
    out += "\n";
  }
  return out;
}

}  // namespace sutra
