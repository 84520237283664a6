// SPDX-License-Identifier: MIT
#pragma once
// The operator table of torch.profiler's key_averages().table(): one row per name (or per name and
// input shapes), with self and total CPU time, self and total device time and the number of calls,
// over a time window.
//
// Semantics, as torch's FunctionEvent/EventList compute them (torch/autograd/profiler_util.py):
// - Rows: framework ops (cpu_op), user annotations, runtime and driver calls (host side), and
//   device ops (kernels, memcpys, memsets). Python frames are no rows and no children (torch drops
//   them from its events); neither are cuda_sync spans, device annotations, nor the utility ops
//   torch filters (aten::is_leaf, aten::output_nr, aten::_version, profiler::_record_function_*).
//   ProfilerStep#N annotations share one row, "ProfilerStep*", as torch names it.
// - Self CPU = duration minus the durations of the direct host children (rows on the same thread
//   that the op encloses). CPU total = duration. Device rows have no CPU time.
// - Self device time of a host op = the durations of the device ops it launched itself: a device op
//   belongs to the innermost framework op enclosing its launch call (LaunchIndex::launcherOf).
//   Device total adds its descendants'. A device row's self and total are its own duration.
// - Recursion: an op nested in an op of the same row counts its calls and self times, but not its
//   totals, which its ancestor's total already holds (torch would count that time twice).
// - Percentages: Self CPU % and CPU total % of the sum of Self CPU over all rows; Self <DEV> % of
//   the sum of Self <DEV> over the device rows ("Self CUDA time total"), as torch prints them.
// - Window: host ops starting in it; device ops whose launch call starts in it (or, never
//   launched by a known call, that start in it themselves).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/steps.h"
#include "model/trace.h"

namespace sutra {

class LaunchIndex;

struct OpRow {
  std::string name;
  std::string inputShapes;  // torch's str(input_shapes), e.g. "[[2, 3], []]"; only when grouped
  bool onDevice = false;    // a device op row (kernel, memcpy, memset)
  std::uint64_t calls = 0;
  TimeNs selfCpu = 0;
  TimeNs cpuTotal = 0;
  TimeNs selfDevice = 0;
  TimeNs deviceTotal = 0;
  std::vector<EventId> events;  // the row's occurrences in the window, by start

  double cpuAverage() const { return calls ? double(cpuTotal) / double(calls) : 0.0; }
  double deviceAverage() const { return calls ? double(deviceTotal) / double(calls) : 0.0; }
};

struct OpTableOptions {
  TimeWindow window;  // from resolveWindow(); an empty window gives an empty table
  bool groupByInputShapes = false;
};

struct OpTable {
  std::string device;  // the backend as torch names its columns: "CUDA", "MTIA", ...
  TimeWindow window;
  bool groupedByInputShapes = false;
  std::vector<OpRow> rows;     // in order of first occurrence; sort with sortOpRows()
  TimeNs selfCpuTotal = 0;     // sum of Self CPU over all rows ("Self CPU time total")
  TimeNs selfDeviceTotal = 0;  // sum of Self <DEV> over the device rows ("Self CUDA time total")

  // Shares in percent, as torch's _format_time_share computes them (0 where the total is 0).
  double selfCpuPercent(const OpRow& r) const { return share(r.selfCpu, selfCpuTotal); }
  double cpuTotalPercent(const OpRow& r) const { return share(r.cpuTotal, selfCpuTotal); }
  double selfDevicePercent(const OpRow& r) const { return share(r.selfDevice, selfDeviceTotal); }
  bool hasDeviceTime() const;

 private:
  static double share(TimeNs part, TimeNs total) {
    return total == 0 ? 0.0 : double(part) * 100.0 / double(total);
  }
};

OpTable buildOpTable(const Trace& trace, const LaunchIndex& launches,
                     const OpTableOptions& options);

enum class OpSort { SelfDevice, SelfCpu, CpuTotal, DeviceTotal, Calls, Name };
// Descending by the key (ascending by name for Name); ties broken by name, so output is stable.
void sortOpRows(std::vector<OpRow>& rows, OpSort by);
// "self_device", "self_cpu", "cpu_total", "device_total", "calls", "name".
std::optional<OpSort> parseOpSort(std::string_view text);

// torch's Input Dims as torch prints str(input_shapes): "[[2, 3], [], [4]]".
std::string formatInputShapes(std::string_view inputDimsJson);

}  // namespace sutra
