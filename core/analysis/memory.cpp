// SPDX-License-Identifier: MIT
#include "analysis/memory.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <unordered_map>

#include "model/event_args.h"

namespace sutra {
namespace {

EventId enclosingOp(const Trace& trace, LaneId lane, TimeNs t) {
  if (lane >= trace.lanes.size()) return kNoEvent;
  for (EventId e = trace.innermostAt(lane, t); e != kNoEvent; e = trace.events[e].parent)
    if (isFramework(trace.events[e].klass)) return e;
  return kNoEvent;
}

struct RawMemoryEvent {
  TimeNs time;
  std::int64_t bytes;
  std::optional<std::int64_t> allocated, reserved, addr;
  EventId op;
};

std::string bytesText(std::int64_t bytes) { return formatBytes(bytes); }

// The peak as a mark on the device's counter lane: its size, and in the tooltip the op that
// reached it and the ops whose allocations were live then (the report's, not computed again).
CounterMark peakMark(const Trace& trace, const MemoryDevice& device) {
  constexpr std::size_t kOpsShown = 5;
  CounterMark mark;
  mark.time = device.peakNs;
  mark.value = static_cast<double>(device.peakBytes);
  mark.event = device.peakOp;
  mark.label = "peak " + bytesText(device.peakBytes);
  mark.detail = mark.label;
  if (device.peakOp != kNoEvent)
    mark.detail += " in " + std::string(trace.name(trace.events[device.peakOp]));
  mark.detail += device.matchedByAddress ? "\nlive at the peak, by the op that allocated it:"
                                         : "\nallocated up to the peak, by op:";
  for (std::size_t i = 0; i < device.liveAtPeak.size() && i < kOpsShown; ++i) {
    const MemoryOpShare& op = device.liveAtPeak[i];
    mark.detail += "\n" + bytesText(op.bytes) + "  " + op.name + " (" +
                   std::to_string(op.allocations) +
                   (op.allocations == 1 ? " allocation)" : " allocations)");
  }
  if (device.liveAtPeak.size() > kOpsShown)
    mark.detail += "\n" + std::to_string(device.liveAtPeak.size() - kOpsShown) + " more ops";
  return mark;
}

}  // namespace

std::string deviceTypeName(std::int64_t type) {
  // c10/core/DeviceType.h
  static const char* const kNames[] = {"CPU", "CUDA", "MKLDNN",     "OPENGL", "OPENCL", "IDEEP",
                                       "HIP", "FPGA", "MAIA",       "XLA",    "Vulkan", "Metal",
                                       "XPU", "MPS",  "Meta",       "HPU",    "VE",     "Lazy",
                                       "IPU", "MTIA", "PrivateUse1"};
  if (type >= 0 && type < static_cast<std::int64_t>(std::size(kNames))) return kNames[type];
  return std::to_string(type);
}

MemoryReport buildMemoryReport(const Trace& trace) {
  MemoryReport report;
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<RawMemoryEvent>> byDevice;
  for (const Instant& i : trace.instants) {
    if (trace.names.view(i.name) != "[memory]") continue;
    ++report.events;
    if (i.args == kNoArgs) {
      ++report.unreadable;
      continue;
    }
    auto args = nlohmann::json::parse(trace.args.get(i.args), nullptr, false);
    auto bytes = args.is_object() ? integerArg(args, "Bytes") : std::nullopt;
    if (!bytes) {
      ++report.unreadable;
      continue;
    }
    const std::int64_t type = integerArg(args, "Device Type").value_or(0);
    const std::int64_t id = integerArg(args, "Device Id").value_or(-1);
    byDevice[{type, id}].push_back({i.time, *bytes, integerArg(args, "Total Allocated"),
                                    integerArg(args, "Total Reserved"), integerArg(args, "Addr"),
                                    enclosingOp(trace, i.lane, i.time)});
  }
  for (auto& [key, events] : byDevice) {
    std::stable_sort(events.begin(), events.end(),
                     [](const auto& a, const auto& b) { return a.time < b.time; });
    MemoryDevice d;
    d.deviceType = key.first;
    d.deviceId = key.second;
    d.typeName = deviceTypeName(key.first);
    d.totalsRecorded = std::all_of(events.begin(), events.end(),
                                   [](const auto& e) { return e.allocated.has_value(); });
    d.matchedByAddress =
        std::all_of(events.begin(), events.end(), [](const auto& e) { return e.addr.has_value(); });
    std::int64_t running = 0;
    std::size_t peakIndex = 0;
    for (std::size_t k = 0; k < events.size(); ++k) {
      const auto& e = events[k];
      running += e.bytes;
      MemoryPoint p;
      p.time = e.time;
      p.bytes = e.bytes;
      p.allocated = d.totalsRecorded ? *e.allocated : running;
      p.reserved = e.reserved.value_or(-1);
      p.op = e.op;
      if (e.bytes > 0) ++d.allocations;
      if (e.bytes < 0) ++d.frees;
      if (k == 0 || p.allocated > d.points[peakIndex].allocated) peakIndex = k;
      d.peakReserved = std::max(d.peakReserved, p.reserved);
      d.points.push_back(p);
    }
    d.peakBytes = d.points[peakIndex].allocated;
    d.peakNs = d.points[peakIndex].time;
    d.peakOp = d.points[peakIndex].op;
    // What is live at the peak: allocations up to it, less those freed by then (by address).
    struct Live {
      std::int64_t bytes;
      EventId op;
    };
    std::unordered_map<std::int64_t, Live> liveByAddr;
    std::vector<Live> liveNoAddr;
    for (std::size_t k = 0; k <= peakIndex; ++k) {
      const auto& e = events[k];
      if (d.matchedByAddress) {
        if (e.bytes > 0)
          liveByAddr[*e.addr] = {e.bytes, e.op};
        else if (e.bytes < 0)
          liveByAddr.erase(*e.addr);
      } else if (e.bytes > 0) {
        liveNoAddr.push_back({e.bytes, e.op});
      }
    }
    std::map<std::string, MemoryOpShare> shares;
    auto add = [&](const Live& l) {
      std::string name = l.op == kNoEvent ? std::string("(outside any op)")
                                          : std::string(trace.name(trace.events[l.op]));
      MemoryOpShare& s = shares[name];
      s.name = name;
      s.bytes += l.bytes;
      s.allocations += 1;
    };
    for (const auto& [addr, l] : liveByAddr) add(l);
    for (const Live& l : liveNoAddr) add(l);
    for (auto& [name, s] : shares) d.liveAtPeak.push_back(std::move(s));
    std::stable_sort(d.liveAtPeak.begin(), d.liveAtPeak.end(),
                     [](const auto& a, const auto& b) { return a.bytes > b.bytes; });
    report.devices.push_back(std::move(d));
  }
  return report;
}

nlohmann::json memoryJson(const Trace& trace, const MemoryReport& report, std::size_t maxOps) {
  nlohmann::json devices = nlohmann::json::array();
  for (const MemoryDevice& d : report.devices) {
    nlohmann::json ops = nlohmann::json::array();
    for (std::size_t i = 0; i < d.liveAtPeak.size() && (maxOps == 0 || i < maxOps); ++i)
      ops.push_back({{"name", d.liveAtPeak[i].name},
                     {"bytes", d.liveAtPeak[i].bytes},
                     {"allocations", d.liveAtPeak[i].allocations}});
    devices.push_back(
        {{"device_type", d.typeName},
         {"device_id", d.deviceId},
         {"peak_bytes", d.peakBytes},
         {"peak_ns", d.peakNs},
         {"peak_reserved_bytes",
          d.peakReserved < 0 ? nlohmann::json(nullptr) : nlohmann::json(d.peakReserved)},
         {"peak_op", d.peakOp == kNoEvent ? nlohmann::json(nullptr)
                                          : nlohmann::json(trace.name(trace.events[d.peakOp]))},
         {"totals_recorded", d.totalsRecorded},
         {"matched_by_address", d.matchedByAddress},
         {"allocations", d.allocations},
         {"frees", d.frees},
         {"live_at_peak", std::move(ops)}});
  }
  return {{"memory_events", report.events},
          {"unreadable_memory_events", report.unreadable},
          {"devices", std::move(devices)}};
}

std::string memoryText(const Trace& trace, const MemoryReport& report, std::size_t maxOps) {
  if (report.devices.empty())
    return "No memory events in " + trace.path +
           (report.events ? " that could be read (" + std::to_string(report.events) +
                                " [memory] events without Bytes)"
                          : std::string()) +
           ": record with torch.profiler's profile_memory=True.\n";
  std::string out;
  for (const MemoryDevice& d : report.devices) {
    out += d.typeName + (d.deviceId >= 0 ? " " + std::to_string(d.deviceId) : std::string()) +
           ": peak " + bytesText(d.peakBytes) + " at " + std::to_string(d.peakNs) + " ns";
    if (d.peakOp != kNoEvent) out += " in " + std::string(trace.name(trace.events[d.peakOp]));
    out += d.totalsRecorded ? "" : " (running sum of Bytes: no Total Allocated recorded)";
    out += "\n";
    if (d.peakReserved >= 0) out += "  reserved at most " + bytesText(d.peakReserved) + "\n";
    out += "  " + std::to_string(d.allocations) + " allocations, " + std::to_string(d.frees) +
           " frees\n";
    out += d.matchedByAddress ? "  live at the peak, by the op that allocated it:\n"
                              : "  allocated up to the peak (no Addr to match frees), by op:\n";
    for (std::size_t i = 0; i < d.liveAtPeak.size() && (maxOps == 0 || i < maxOps); ++i) {
      char line[256];
      std::snprintf(line, sizeof line, "    %12s %6llu  %s\n",
                    bytesText(d.liveAtPeak[i].bytes).c_str(),
                    static_cast<unsigned long long>(d.liveAtPeak[i].allocations),
                    d.liveAtPeak[i].name.c_str());
      out += line;
    }
  }
  return out;
}

void addMemoryCounters(Trace& trace) {
  const StringId memory = trace.names.find("[memory]");
  if (memory == StringTable::kMissing) return;  // the common case costs one lookup
  std::string hostPid;
  for (const Instant& i : trace.instants)
    if (i.name == memory && i.lane < trace.lanes.size()) {
      hostPid = trace.lanes[i.lane].pid;
      break;
    }
  const MemoryReport report = buildMemoryReport(trace);
  for (const MemoryDevice& device : report.devices) {
    if (device.points.empty()) continue;
    CounterSeries series;
    series.name = "memory allocated (" + device.typeName +
                  (device.deviceId >= 0 ? " " + std::to_string(device.deviceId) : std::string()) +
                  ")";
    series.pid = device.deviceType == 0 ? hostPid : std::to_string(device.deviceId);
    for (const MemoryPoint& point : device.points)
      series.samples.emplace_back(point.time, static_cast<double>(point.allocated));
    series.marks.push_back(peakMark(trace, device));
    trace.counters.push_back(std::move(series));
  }
}

}  // namespace sutra
