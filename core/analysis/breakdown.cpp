// SPDX-License-Identifier: MIT
#include "analysis/breakdown.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <unordered_map>

#include "link/launch_index.h"

namespace sutra {
namespace {

// Device kinds in TensorBoard's priority order: the lower wins where ops overlap.
enum DeviceKind : int { kKernel = 0, kMemcpy = 1, kMemset = 2, kCommunication = 3, kKinds = 4 };

struct DeviceSegment {
  TimeNs start = 0, end = 0;
  int kind = kKernel;
};

struct HostSegment {
  TimeNs start = 0, end = 0;
  EventId event = kNoEvent;  // the innermost event covering [start, end)
};

bool containsNoCase(std::string_view text, std::string_view what) {
  auto it = std::search(text.begin(), text.end(), what.begin(), what.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
  return it != text.end();
}

// Each device's time as non-overlapping segments of the winning kind; the gaps are idle.
std::map<std::int32_t, std::vector<DeviceSegment>> deviceSegments(const Trace& trace) {
  struct Edge {
    TimeNs time;
    int delta;
    int kind;
  };
  std::map<std::int32_t, std::vector<Edge>> edges;
  for (const Lane& lane : trace.lanes) {
    if (lane.kind != LaneKind::DeviceStream) continue;
    for (const Event& e : trace.laneEvents(static_cast<LaneId>(&lane - trace.lanes.data()))) {
      if (e.dur <= 0) continue;
      int kind;
      if (e.klass == CategoryClass::Collective ||
          (isDeviceOp(e.klass) && isCommunicationOp(trace, e)))
        kind = kCommunication;
      else if (e.klass == CategoryClass::Kernel)
        kind = kKernel;
      else if (e.klass == CategoryClass::Memcpy)
        kind = kMemcpy;
      else if (e.klass == CategoryClass::Memset)
        kind = kMemset;
      else
        continue;
      auto& list = edges[lane.device];
      list.push_back({e.start, +1, kind});
      list.push_back({e.end(), -1, kind});
    }
  }
  std::map<std::int32_t, std::vector<DeviceSegment>> out;
  for (auto& [device, list] : edges) {
    std::sort(list.begin(), list.end(),
              [](const Edge& a, const Edge& b) { return a.time < b.time; });
    std::array<int, kKinds> active{};
    auto& segments = out[device];
    TimeNs t = 0;
    int current = -1;
    for (std::size_t i = 0; i < list.size();) {
      const TimeNs now = list[i].time;
      if (current >= 0 && now > t) {
        if (!segments.empty() && segments.back().end == t && segments.back().kind == current)
          segments.back().end = now;
        else
          segments.push_back({t, now, current});
      }
      for (; i < list.size() && list[i].time == now; ++i) active[list[i].kind] += list[i].delta;
      current = -1;
      for (int k = 0; k < kKinds; ++k)
        if (active[k] > 0) {
          current = k;
          break;
        }
      t = now;
    }
  }
  return out;
}

// The innermost event at each instant of a lane (zero-length events cover nothing). An event that
// overlaps its enclosing one without nesting is cut at the enclosing event's end.
std::vector<HostSegment> hostSegments(const Trace& trace, LaneId laneId) {
  std::vector<HostSegment> out;
  struct Open {
    EventId event;
    TimeNs end;
  };
  std::vector<Open> stack;
  TimeNs t = 0;
  auto emit = [&](TimeNs from, TimeNs to, EventId e) {
    if (from < to) out.push_back({from, to, e});
  };
  const Lane& lane = trace.lanes[laneId];
  for (EventId id = lane.firstEvent; id < lane.endEvent; ++id) {
    const Event& e = trace.events[id];
    if (e.dur <= 0) continue;
    while (!stack.empty() && stack.back().end <= e.start) {
      emit(t, stack.back().end, stack.back().event);
      t = stack.back().end;
      stack.pop_back();
    }
    if (!stack.empty()) emit(t, e.start, stack.back().event);
    t = e.start;
    const TimeNs end = stack.empty() ? e.end() : std::min(e.end(), stack.back().end);
    stack.push_back({id, end});
  }
  while (!stack.empty()) {
    emit(t, stack.back().end, stack.back().event);
    t = stack.back().end;
    stack.pop_back();
  }
  return out;
}

// Segments are sorted and disjoint, so their ends are sorted too: the first one reaching past t.
template <typename Segment>
typename std::vector<Segment>::const_iterator firstEndingAfter(const std::vector<Segment>& s,
                                                               TimeNs t) {
  return std::upper_bound(s.begin(), s.end(), t,
                          [](TimeNs time, const Segment& seg) { return time < seg.end; });
}

TimeNs overlap(TimeNs a0, TimeNs a1, TimeNs b0, TimeNs b1) {
  return std::max<TimeNs>(0, std::min(a1, b1) - std::max(a0, b0));
}

enum class HostKind { Runtime, Dataloader, CpuOps, Other };

class HostClassifier {
 public:
  explicit HostClassifier(const Trace& trace) : trace_(trace) {}
  HostKind kind(EventId id) {
    const Event& e = trace_.events[id];
    if (isRuntime(e.klass)) return HostKind::Runtime;
    bool inOp = false;
    for (EventId a = id; a != kNoEvent; a = trace_.events[a].parent) {
      const Event& ancestor = trace_.events[a];
      if (isDataloader(ancestor)) return HostKind::Dataloader;
      if (ancestor.klass == CategoryClass::CpuOp) inOp = true;
    }
    return inOp ? HostKind::CpuOps : HostKind::Other;
  }

 private:
  bool isDataloader(const Event& e) {
    auto [it, added] = dataloaderNames_.try_emplace(e.name, false);
    if (added) it->second = containsNoCase(trace_.name(e), "dataloader");
    return it->second;
  }
  const Trace& trace_;
  std::unordered_map<StringId, bool> dataloaderNames_;
};

// The host thread with the most top-level framework time; UINT32_MAX where there is none (a
// trace of device streams only).
LaneId busiestHostLane(const Trace& trace) {
  LaneId best = UINT32_MAX;
  TimeNs bestTime = -1;
  for (LaneId l = 0; l < trace.lanes.size(); ++l) {
    if (trace.lanes[l].kind != LaneKind::HostThread) continue;
    TimeNs time = 0;
    for (const Event& e : trace.laneEvents(l))
      if (e.depth == 0 && isFramework(e.klass)) time += e.dur;
    if (time > bestTime) {
      bestTime = time;
      best = l;
    }
  }
  return best;
}

std::string deviceWord(const Trace& trace, std::int32_t device) {
  const std::string& backend = trace.meta.deviceBackend;
  return (backend == "CUDA" ? std::string("GPU") : backend) + " " + std::to_string(device);
}

std::string percentText(double percent) {
  char buf[32];
  std::snprintf(buf, sizeof buf, percent < 10 ? "%.1f %%" : "%.0f %%", percent);
  return buf;
}

// What the host thread did while the device stood idle: the largest share of the idle time by
// the innermost host event (a runtime call named with the op it ran in).
std::string idleHint(const Trace& trace, const StepBreakdown& step, const DeviceBreakdown& device,
                     const std::vector<DeviceSegment>& busy, const std::vector<HostSegment>& host) {
  const TimeNs span = step.deviceEnd - step.start;
  // Idle intervals of the step on this device.
  std::vector<std::pair<TimeNs, TimeNs>> idle;
  TimeNs t = step.start;
  for (auto it = firstEndingAfter(busy, step.start); it != busy.end() && it->start < step.deviceEnd;
       ++it) {
    if (it->start > t) idle.emplace_back(t, it->start);
    t = std::max(t, it->end);
  }
  if (t < step.deviceEnd) idle.emplace_back(t, step.deviceEnd);
  static const std::string kNoOp = "while the host thread was in no op";
  std::map<std::string, TimeNs> byWhat;
  TimeNs covered = 0;
  for (auto [from, to] : idle) {
    for (auto it = firstEndingAfter(host, from); it != host.end() && it->start < to; ++it) {
      const TimeNs o = overlap(from, to, it->start, it->end);
      if (o <= 0) continue;
      const Event& e = trace.events[it->event];
      std::string what;
      if (isRuntime(e.klass)) {
        what = "waiting for " + std::string(trace.name(e));
        EventId op = enclosingFrameworkOp(trace, it->event);
        if (op != kNoEvent) what += " in " + std::string(trace.name(trace.events[op]));
      } else if (e.klass == CategoryClass::UserAnnotation) {
        what = kNoOp;  // inside ProfilerStep#N or a record_function only: no op runs
      } else {
        what = std::string(e.klass == CategoryClass::PythonFunction ? "while the host ran Python "
                                                                    : "while the host ran ") +
               std::string(trace.name(e));
      }
      byWhat[what] += o;
      covered += o;
    }
  }
  if (device.idle > covered) byWhat[kNoOp] += device.idle - covered;
  auto top = std::max_element(byWhat.begin(), byWhat.end(),
                              [](const auto& a, const auto& b) { return a.second < b.second; });
  std::string text = deviceWord(trace, device.device) + " is idle " +
                     percentText(100.0 * double(device.idle) / double(span)) + " of step " +
                     std::to_string(step.step) + " (" + formatDuration(device.idle) + ")";
  if (top != byWhat.end() && top->second > 0) {
    const double share = double(top->second) / double(device.idle);
    text += share >= 0.5 ? ", mostly " : ", the largest part " + percentText(100.0 * share) + " ";
    text += top->first + " (" + formatDuration(top->second) + ")";
  }
  return text;
}

}  // namespace

bool isCommunicationOp(const Trace& trace, const Event& event) {
  if (event.klass == CategoryClass::Collective) return true;
  if (!isDeviceOp(event.klass)) return false;
  std::string_view name = trace.name(event);
  return containsNoCase(name, "nccl") || containsNoCase(name, "rccl");
}

Breakdown buildBreakdown(const Trace& trace, std::span<const Step> steps,
                         const BreakdownOptions& options) {
  Breakdown out;
  out.deviceBackend = trace.meta.deviceBackend;
  const auto devices = deviceSegments(trace);
  std::unordered_map<LaneId, std::vector<HostSegment>> hostByLane;
  HostClassifier classify(trace);
  std::optional<LaneId> busiest;
  for (const Step& step : steps) {
    StepBreakdown sb;
    sb.step = step.number;
    sb.name = step.name;
    sb.start = step.start;
    sb.end = step.end;
    sb.deviceEnd = step.deviceEnd;
    LaneId lane;
    if (step.annotation != kNoEvent) {
      lane = trace.events[step.annotation].lane;
    } else {
      if (!busiest) busiest = busiestHostLane(trace);
      lane = *busiest;
    }
    sb.host.lane = lane;
    auto [hit, added] = hostByLane.try_emplace(lane);
    if (added && lane < trace.lanes.size()) hit->second = hostSegments(trace, lane);
    const auto& host = hit->second;
    TimeNs hostCovered = 0;
    for (auto it = firstEndingAfter(host, step.start); it != host.end() && it->start < step.end;
         ++it) {
      const TimeNs o = overlap(step.start, step.end, it->start, it->end);
      hostCovered += o;
      switch (classify.kind(it->event)) {
        case HostKind::Runtime:
          sb.host.runtime += o;
          break;
        case HostKind::Dataloader:
          sb.host.dataloader += o;
          break;
        case HostKind::CpuOps:
          sb.host.cpuOps += o;
          break;
        case HostKind::Other:
          sb.host.other += o;
          break;
      }
    }
    sb.host.other += (step.end - step.start) - hostCovered;

    for (const auto& [device, segments] : devices) {
      DeviceBreakdown db;
      db.device = device;
      TimeNs busy = 0;
      for (auto it = firstEndingAfter(segments, step.start);
           it != segments.end() && it->start < step.deviceEnd; ++it) {
        const TimeNs o = overlap(step.start, step.deviceEnd, it->start, it->end);
        busy += o;
        switch (it->kind) {
          case kKernel:
            db.kernel += o;
            break;
          case kMemcpy:
            db.memcpy += o;
            break;
          case kMemset:
            db.memset += o;
            break;
          default:
            db.communication += o;
            break;
        }
      }
      db.idle = (step.deviceEnd - step.start) - busy;
      sb.devices.push_back(db);
    }

    const TimeNs span = step.deviceEnd - step.start;
    for (const DeviceBreakdown& db : sb.devices)
      if (span > 0 && db.idle > 0 &&
          100.0 * double(db.idle) / double(span) >= options.idleHintPercent)
        sb.hints.push_back(idleHint(trace, sb, db, devices.at(db.device), host));
    const TimeNs hostSpan = step.end - step.start;
    if (hostSpan > 0 && sb.host.dataloader > 0 &&
        100.0 * double(sb.host.dataloader) / double(hostSpan) >= options.dataloaderHintPercent)
      sb.hints.push_back("the dataloader takes " +
                         percentText(100.0 * double(sb.host.dataloader) / double(hostSpan)) +
                         " of step " + std::to_string(step.number) + " on the host (" +
                         formatDuration(sb.host.dataloader) + ")");
    out.steps.push_back(std::move(sb));
  }
  return out;
}

namespace {

std::string threadLabel(const Trace& trace, LaneId lane) {
  if (lane >= trace.lanes.size()) return {};
  const Lane& l = trace.lanes[lane];
  std::string text = l.pid + "/" + l.tid;
  if (!l.threadName.empty()) text += " (" + l.threadName + ")";
  return text;
}

}  // namespace

nlohmann::json breakdownJson(const Trace& trace, const Breakdown& breakdown) {
  nlohmann::json steps = nlohmann::json::array();
  for (const StepBreakdown& s : breakdown.steps) {
    nlohmann::json devices = nlohmann::json::array();
    for (const DeviceBreakdown& d : s.devices)
      devices.push_back({{"device", d.device},
                         {"kernel_ns", d.kernel},
                         {"memcpy_ns", d.memcpy},
                         {"memset_ns", d.memset},
                         {"communication_ns", d.communication},
                         {"idle_ns", d.idle}});
    steps.push_back({{"step", s.step},
                     {"name", s.name},
                     {"start_ns", s.start},
                     {"end_ns", s.end},
                     {"device_end_ns", s.deviceEnd},
                     {"host",
                      {{"thread", threadLabel(trace, s.host.lane)},
                       {"runtime_ns", s.host.runtime},
                       {"dataloader_ns", s.host.dataloader},
                       {"cpu_ops_ns", s.host.cpuOps},
                       {"other_ns", s.host.other}}},
                     {"devices", devices},
                     {"hints", s.hints}});
  }
  return {{"device_backend", breakdown.deviceBackend}, {"steps", steps}};
}

std::string breakdownText(const Trace& trace, const Breakdown& breakdown) {
  std::string out;
  char line[512];
  auto pct = [](TimeNs part, TimeNs total) {
    return total > 0 ? 100.0 * double(part) / double(total) : 0.0;
  };
  for (const StepBreakdown& s : breakdown.steps) {
    const TimeNs span = s.deviceEnd - s.start;
    const TimeNs hostSpan = s.end - s.start;
    out += "Step " + std::to_string(s.step) + " (" + s.name + "): " + formatDuration(span) + "\n";
    std::snprintf(line, sizeof line, "  host %s, %s:\n", threadLabel(trace, s.host.lane).c_str(),
                  formatDuration(hostSpan).c_str());
    out += line;
    const std::pair<const char*, TimeNs> hostParts[] = {{"runtime", s.host.runtime},
                                                        {"dataloader", s.host.dataloader},
                                                        {"CPU ops", s.host.cpuOps},
                                                        {"other", s.host.other}};
    for (auto [name, value] : hostParts) {
      std::snprintf(line, sizeof line, "    %-14s %12s %6.1f %%\n", name,
                    formatDuration(value).c_str(), pct(value, hostSpan));
      out += line;
    }
    for (const DeviceBreakdown& d : s.devices) {
      out += "  " + deviceWord(trace, d.device) + ":\n";
      const std::pair<const char*, TimeNs> parts[] = {{"kernel", d.kernel},
                                                      {"memcpy", d.memcpy},
                                                      {"memset", d.memset},
                                                      {"communication", d.communication},
                                                      {"idle", d.idle}};
      for (auto [name, value] : parts) {
        std::snprintf(line, sizeof line, "    %-14s %12s %6.1f %%\n", name,
                      formatDuration(value).c_str(), pct(value, span));
        out += line;
      }
    }
    for (const std::string& hint : s.hints) out += "  hint: " + hint + "\n";
  }
  if (breakdown.steps.empty()) out += "No steps.\n";
  return out;
}

}  // namespace sutra
