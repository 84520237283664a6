// SPDX-License-Identifier: MIT
#pragma once
// Memory over time from the `[memory]` instant events torch.profiler writes with
// profile_memory=True: one per allocation (Bytes > 0) or free (Bytes < 0), on the thread that
// made it, with args "Addr", "Bytes", "Total Allocated", "Total Reserved", "Device Type" (c10's
// DeviceType: 0 CPU, 1 CUDA, ...) and "Device Id".
//
// Per device (type and id): the allocation curve (after each event, "Total Allocated" where
// recorded, else the running sum of Bytes from 0 at the first event: then the curve is relative
// to what was allocated before the profiler started), its peak (the first time it reaches its
// maximum), and what held the memory at the peak: the allocations not yet freed by then (matched
// by Addr; where events carry no Addr, every allocation up to the peak), grouped by the op that
// made them (the innermost framework op enclosing the event on its thread).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "model/trace.h"

namespace sutra {

struct MemoryPoint {
  TimeNs time = 0;
  std::int64_t allocated = 0;  // the curve's value after the event
  std::int64_t reserved = -1;  // "Total Reserved", -1 where not recorded
  std::int64_t bytes = 0;      // the event's own Bytes
  EventId op = kNoEvent;       // innermost framework op enclosing it
};

struct MemoryOpShare {
  std::string name;
  std::int64_t bytes = 0;  // bytes of its allocations live at the peak
  std::uint64_t allocations = 0;
};

struct MemoryDevice {
  std::int64_t deviceType = 0;  // c10::DeviceType
  std::int64_t deviceId = 0;
  std::string typeName;             // "CPU", "CUDA", ...
  bool totalsRecorded = false;      // the curve is "Total Allocated", not a running sum
  bool matchedByAddress = false;    // the live set at the peak is matched by Addr
  std::vector<MemoryPoint> points;  // by time
  std::uint64_t allocations = 0, frees = 0;
  std::int64_t peakBytes = 0;
  TimeNs peakNs = 0;
  std::int64_t peakReserved = -1;         // the largest "Total Reserved", -1 where not recorded
  EventId peakOp = kNoEvent;              // the op whose allocation reached the peak
  std::vector<MemoryOpShare> liveAtPeak;  // largest first
};

struct MemoryReport {
  std::uint64_t events = 0;           // [memory] events read
  std::uint64_t unreadable = 0;       // [memory] events whose args had no Bytes (skipped)
  std::vector<MemoryDevice> devices;  // by device type, then id
};

MemoryReport buildMemoryReport(const Trace& trace);

// Each device's allocation curve as a counter series of `trace`, named "memory allocated (CUDA
// 0)": on the device's pid for a device (Kineto puts a GPU's lanes on pid <id>) and on the
// allocating process for host memory, so the timeline draws it as a counter lane under the
// device's streams, with its peak as the series' mark ("peak 13.00 KiB"; the tooltip lists the
// ops live at the peak). Nothing for a trace without [memory] events.
void addMemoryCounters(Trace& trace);

// "CPU", "CUDA", ... for c10::DeviceType; the number as text for one it does not know.
std::string deviceTypeName(std::int64_t type);

// {"memory_events","devices":[{"device_type","device_id","peak_bytes","peak_ns",
//  "peak_reserved_bytes","peak_op","totals_recorded","allocations","frees",
//  "live_at_peak":[{"name","bytes","allocations"}]}]}; maxOps 0 = all.
nlohmann::json memoryJson(const Trace& trace, const MemoryReport& report, std::size_t maxOps = 10);
std::string memoryText(const Trace& trace, const MemoryReport& report, std::size_t maxOps = 10);

}  // namespace sutra
