// SPDX-License-Identifier: MIT
#pragma once
// The operator table of torch.profiler's key_averages().table(): one row per name (or per name and
// input shapes), with self and total CPU time, self and total device time and the number of calls,
// over a time window.
//
// Semantics, as torch's FunctionEvent/EventList compute them (torch/autograd/profiler_util.py):
// - Rows: framework ops (cpu_op), user annotations, Python frames (with_stack=True records them;
//   torch 2.13's key_averages() lists them as rows and children, checked live by
//   tests/python/test_torch_oracle.py), runtime and driver calls (host side), and device ops
//   (kernels, memcpys, memsets). No rows: cuda_sync spans, device annotations, and the utility ops
//   torch filters (aten::is_leaf, aten::output_nr, aten::_version, profiler::_record_function_*).
//   ProfilerStep#N annotations share one row, "ProfilerStep*", as torch names it.
// - Self CPU = duration minus the durations of the direct host children (rows on the same thread
//   that the op encloses). CPU total = duration. Device rows have no CPU time.
// - Self device time of a host op = the durations of the device ops it launched itself: a device op
//   belongs to the innermost framework op enclosing its launch call (LaunchIndex::launcherOf).
//   Device total adds its descendants'. A device row's self and total are its own duration.
// - Recursion, as torch counts it (the default): an op nested in an op of the same name adds its
//   calls, self times and totals to the row, so the nested time is counted twice in "CPU total"
//   and "<DEV> total" (aten::mm inside aten::mm: twice its time), except where it is its parent's
//   only child: torch merges it into the parent (_remove_dup_nodes), it is no call of its own.
//   OpTableOptions::countRecursionOnce is the corrected count: a nested op adds its calls and self
//   times but not its totals, which its ancestor's total already holds.
// - Percentages: Self CPU % and CPU total % of the sum of Self CPU over all rows; Self <DEV> % of
//   the sum of Self <DEV> over the device rows ("Self CUDA time total"), as torch prints them.
// - Window: host ops starting in it; device ops whose launch call starts in it, as HTA attributes
//   device work to the iteration of its launch. A device op whose launch is not in the trace
//   (queued before the profiler started) is a row of the whole trace's table, as torch lists it,
//   but belongs to no step or time range: there it is counted apart (OpTable::launchedBefore).
// - Memory (with profile_memory=True's `[memory]` events), as torch's _parse_kineto_results counts
//   it: a host op's memory is the Bytes of every memory event whose time lies in [start, end] (of
//   any thread, as torch matches them), CPU for CPU/MKLDNN/IDEEP events and device for
//   CUDA/HIP/XPU/PrivateUse1 ones; self memory subtracts its row children's. A memory event inside
//   no host op is a call of the "[memory]" row, as torch lists it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "link/steps.h"
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
  std::int64_t cpuMemory = 0, selfCpuMemory = 0;        // bytes allocated minus freed
  std::int64_t deviceMemory = 0, selfDeviceMemory = 0;  // the device's, likewise
  std::vector<EventId> events;  // the row's occurrences in the window, by start

  double cpuAverage() const { return calls ? double(cpuTotal) / double(calls) : 0.0; }
  double deviceAverage() const { return calls ? double(deviceTotal) / double(calls) : 0.0; }
};

struct OpTableOptions {
  TimeWindow window;  // from resolveWindow(); an empty window gives an empty table
  bool groupByInputShapes = false;
  // The corrected count: an op nested in an op of its own row does not add its totals again
  // (torch's key_averages() counts them twice; false matches torch).
  bool countRecursionOnce = false;
};

// Device ops in a window that no call in the trace launched: their launch came before the trace.
struct UnlaunchedWork {
  std::uint64_t ops = 0;
  TimeNs time = 0;      // the sum of their durations
  bool inRows = false;  // true for the whole trace (they are rows); else left out of the rows
};

struct OpTable {
  std::string device;  // the backend as torch names its columns: "CUDA", "MTIA", ...
  TimeWindow window;
  bool groupedByInputShapes = false;
  bool recursionCountedOnce = false;  // OpTableOptions::countRecursionOnce
  bool memoryRecorded = false;        // the trace has [memory] events (profile_memory=True)
  bool deviceMemoryRecorded = false;  // ... some of them on a device
  UnlaunchedWork launchedBefore;  // device ops starting in the window, launched before the trace
  std::vector<OpRow> rows;        // in order of first occurrence; sort with sortOpRows()
  TimeNs selfCpuTotal = 0;        // sum of Self CPU over all rows ("Self CPU time total")
  TimeNs selfDeviceTotal = 0;     // sum of Self <DEV> over the device rows ("Self CUDA time total")

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
