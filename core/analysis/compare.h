// SPDX-License-Identifier: MIT
#pragma once
// Two operator tables side by side (two runs, or two steps of one run): per-row deltas of calls and
// self and total CPU and device time, the rows found on one side only, and the totals with their
// ratio ("Self CUDA total: 2.355 ms -> 403.3 us (5.84x less)"). Rows match by name, device side
// and, where both tables were grouped by input shapes, the shapes.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/op_table.h"

namespace sutra {

struct OpSide {
  std::uint64_t calls = 0;
  TimeNs selfCpu = 0, cpuTotal = 0, selfDevice = 0, deviceTotal = 0;
};

struct OpDelta {
  std::string name;
  std::string inputShapes;
  bool onDevice = false;
  bool inA = false, inB = false;
  OpSide a, b;

  TimeNs selfCpuDelta() const { return b.selfCpu - a.selfCpu; }
  TimeNs selfDeviceDelta() const { return b.selfDevice - a.selfDevice; }
  TimeNs cpuTotalDelta() const { return b.cpuTotal - a.cpuTotal; }
  TimeNs deviceTotalDelta() const { return b.deviceTotal - a.deviceTotal; }
  std::int64_t callsDelta() const {
    return static_cast<std::int64_t>(b.calls) - static_cast<std::int64_t>(a.calls);
  }
};

struct OpComparison {
  std::string device;          // the backend's column name (side A's)
  std::string labelA, labelB;  // e.g. "base.json.gz step 1009"
  TimeWindow windowA, windowB;
  TimeNs selfCpuTotalA = 0, selfCpuTotalB = 0;
  TimeNs selfDeviceTotalA = 0, selfDeviceTotalB = 0;
  bool groupedByInputShapes = false;
  UnlaunchedWork launchedBeforeA, launchedBeforeB;  // OpTable::launchedBefore of each side
  // Largest change first: by |self device delta|, then |self CPU delta|, then name.
  std::vector<OpDelta> rows;

  std::size_t onlyInA() const;
  std::size_t onlyInB() const;
};

OpComparison compareOpTables(const OpTable& a, const OpTable& b, std::string labelA,
                             std::string labelB);

// "5.84x less", "1.20x more", "same", "new" (a = 0), "gone" (b = 0).
std::string describeChange(TimeNs a, TimeNs b);
// "Self CUDA total: 2.355 ms -> 403.3 us (5.84x less)"
std::string totalLine(const std::string& what, TimeNs a, TimeNs b);

// The totals, then a table of the rows (at most `limit`, 0 = all) with A, B and the delta.
std::string comparisonText(const OpComparison& c, std::size_t limit = 50);
// {"device","a":{"label","window":{...},"self_cpu_total_ns","self_device_total_ns"},"b":{...},
//  "rows":[{"name","input_shapes"?,"on_device","side":"both|a|b","a":{calls,self_cpu_ns,
//  cpu_total_ns,self_device_ns,device_total_ns},"b":{...},"delta":{...}}]}
nlohmann::json comparisonJson(const OpComparison& c, std::size_t limit = 0);
std::string comparisonCsv(const OpComparison& c, std::size_t limit = 0);

}  // namespace sutra
