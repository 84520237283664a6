// SPDX-License-Identifier: MIT
#pragma once
// The step time breakdown of TensorBoard's profiler Overview and HTA's temporal breakdown: where
// each step's time went, on each device and on the host thread that ran the step.
//
// Device (per device index, all its streams together), over the step's span [start, deviceEnd):
// each instant is kernel, memcpy, memset, communication or idle, so the five parts sum to the
// step's duration. Where ops of several kinds overlap (streams run concurrently), the instant goes
// to the first of kernel > memcpy > memset > communication, TensorBoard's order (its
// ProfileRole): communication counts only where it is not hidden behind compute or copies.
// Communication is a collective kernel (NCCL/RCCL by name, or a collective_comm event).
// Host, over the step's own span [start, end) on the thread that holds its annotation (for a
// whole-trace step, the thread with the most framework time): each instant goes to the innermost
// event there; runtime (a runtime or driver call, or a sync span) > dataloader (inside an op
// whose name holds "dataloader", any case: torch's enumerate(DataLoader)#... ) > CPU ops (inside a
// cpu_op) > other (annotations alone, Python frames outside any op, nothing at all). The four
// parts sum to the step's host span.
// Consecutive steps may overlap on the device (device work of step N still running when N+1
// starts): each step's breakdown covers its own span, as Step::duration() does.
//
// Hints are measured, never generic: a device idle for at least `idleHintPercent` of a step, with
// the host call or op it mostly overlapped ("waiting for cudaStreamSynchronize in aten::item"); a
// dataloader taking at least `dataloaderHintPercent` of a step's host span.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "link/steps.h"
#include "model/trace.h"

namespace sutra {

struct DeviceBreakdown {
  std::int32_t device = -1;
  TimeNs kernel = 0, memcpy = 0, memset = 0, communication = 0, idle = 0;
  TimeNs total() const { return kernel + memcpy + memset + communication + idle; }
};

struct HostBreakdown {
  LaneId lane = 0;
  TimeNs runtime = 0, dataloader = 0, cpuOps = 0, other = 0;
  TimeNs total() const { return runtime + dataloader + cpuOps + other; }
};

struct StepBreakdown {
  std::int64_t step = 0;  // Step::number
  std::string name;       // Step::name
  TimeNs start = 0, end = 0, deviceEnd = 0;
  HostBreakdown host;
  std::vector<DeviceBreakdown> devices;  // by device index; empty for a trace without device ops
  std::vector<std::string> hints;
};

struct BreakdownOptions {
  double idleHintPercent = 10.0;
  double dataloaderHintPercent = 10.0;
};

struct Breakdown {
  std::string deviceBackend;  // "CUDA", "MTIA" ... (TraceMetadata::deviceBackend)
  std::vector<StepBreakdown> steps;
};

// One entry per step given, in that order.
Breakdown buildBreakdown(const Trace& trace, std::span<const Step> steps,
                         const BreakdownOptions& options = {});

// A device op counted as communication: an NCCL/RCCL kernel (by name) or a collective_comm event.
bool isCommunicationOp(const Trace& trace, const Event& event);

// {"device_backend", "steps":[{"step","name","start_ns","end_ns","device_end_ns",
//   "host":{"thread","runtime_ns","dataloader_ns","cpu_ops_ns","other_ns"},
//   "devices":[{"device","kernel_ns","memcpy_ns","memset_ns","communication_ns","idle_ns"}],
//   "hints":[...]}]}
nlohmann::json breakdownJson(const Trace& trace, const Breakdown& breakdown);
std::string breakdownText(const Trace& trace, const Breakdown& breakdown);

}  // namespace sutra
