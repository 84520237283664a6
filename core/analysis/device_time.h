// SPDX-License-Identifier: MIT
#pragma once
// How a rank's device time splits by the type of its device ops, as Holistic Trace Analysis
// computes it (hta/analyzers/breakdown_analysis.py: the temporal breakdown and the kernel type
// breakdown; communication_analysis.py: the communication/computation overlap), over the device
// ops of a window (all devices and streams of the rank together, overlaps counted once):
// - span: from the first op's start to the last op's end; busy: the union of every op; idle = span
//   - busy; computation: the union of computation kernels; non-computation = busy - computation
//   (HTA's temporal breakdown: idle, compute and non-compute time);
// - by kernel types: each instant where a computation, communication or memory op runs goes to
//   the set of those types running then ("computation", "computation overlapping memory", ...),
//   HTA's kernel type breakdown with memory kernels included (its default);
// - overlap: the time computation and communication run together over the union of
//   communication, HTA's comp_comm_overlap ratio (none without communication).
//
// Types by name, HTA's rules (hta/utils/utils.py get_kernel_type): memory: a name starting with
// Memcpy, Memset or dma; computation: any other name that holds neither Memcpy nor Sync and does
// not start with Memset; other: the rest (e.g. a kernel named ...Sync...).
// Where Sutra differs from HTA, deliberately:
// - communication is isCommunicationOp (a name holding nccl or rccl, any case, or a
//   collective_comm event), HTA's is a name matching ^nccl.*Kernel: RCCL kernels count too;
// - device ops are kernels, memcpy and memset; HTA counts every event with a stream, cuda_sync
//   events included, so the span a stream spent waiting for an event is busy non-compute time
//   there. It is idle here: the stream runs nothing then.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace sutra {

class LaunchIndex;

enum class KernelType : std::uint8_t { Computation, Communication, Memory, Other };
KernelType kernelTypeOf(const Trace& trace, const Event& deviceOp);
std::string_view kernelTypeName(KernelType type);  // "computation", "communication", ...

struct KernelTypeTime {
  std::string types;  // "computation", "computation overlapping memory", ... (HTA's order)
  TimeNs time = 0;
};

struct DeviceTime {
  std::size_t ops = 0;
  TimeNs first = 0, last = 0;  // the first op's start, the last op's end; 0 without ops
  TimeNs busy = 0;
  TimeNs computation = 0, communication = 0, memory = 0;  // each type's union
  TimeNs computationWithCommunication = 0;                // both at once
  std::vector<KernelTypeTime> byKernelTypes;  // the combinations that occur, longest first

  TimeNs span() const { return last - first; }
  TimeNs idle() const { return span() - busy; }
  TimeNs nonComputation() const { return busy - computation; }
  // computationWithCommunication / communication; none without communication.
  std::optional<double> overlapRatio() const;
};

// The device ops of `window` (deviceOpsInWindow).
DeviceTime deviceTime(const Trace& trace, const LaunchIndex& launches, const TimeWindow& window);

// {"ops","first_ns","last_ns","span_ns","busy_ns","idle_ns","computation_ns",
//  "non_computation_ns","communication_ns","memory_ns","computation_with_communication_ns",
//  "overlap_ratio" (null without communication),"kernel_types":[{"types","time_ns"}]}
nlohmann::json deviceTimeJson(const DeviceTime& time);
std::string deviceTimeText(const DeviceTime& time);

}  // namespace sutra
