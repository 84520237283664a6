// SPDX-License-Identifier: MIT
#include "advice/memory_copies.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace sutra {
namespace {

std::int64_t copyBytes(const Trace& trace, const Event& e) {
  const auto args = nlohmann::json::parse(trace.argsJson(e), nullptr, false);
  if (!args.is_object()) return -1;
  const auto it = args.find("bytes");
  return it != args.end() && it->is_number_integer() ? it->get<std::int64_t>() : -1;
}

bool pageable(std::string_view name) { return name.find("Pageable") != std::string_view::npos; }

// "HtoD", "DtoH", "DtoD" ... from "Memcpy HtoD (Pageable -> Device)".
std::string_view direction(std::string_view name) {
  const auto at = name.find("Memcpy ");
  return at == std::string_view::npos ? std::string_view{} : name.substr(at + 7, 4);
}

}  // namespace

std::vector<Finding> findMemoryCopies(const AdviceScope& scope) {
  const Trace& trace = scope.trace;
  if (!scope.rank.launches()) return {};
  const LaunchIndex& launches = *scope.rank.launches();
  struct Group {
    std::vector<EventId> ops;
    std::vector<const Step*> steps;
    TimeNs time = 0;
    std::int64_t bytes = 0;
  };
  std::map<std::string, Group> groups;            // "pageable HtoD", "small DtoH", "memset"
  std::map<std::string_view, double> pinnedRate;  // best bytes/ns per direction
  for (const auto& l : launches.launches()) {
    const Event& e = trace.events[l.deviceOp];
    if (e.klass != CategoryClass::Memcpy && e.klass != CategoryClass::Memset) continue;
    const std::string_view name = trace.name(e);
    const std::int64_t bytes = copyBytes(trace, e);
    if (e.klass == CategoryClass::Memcpy && !pageable(name) && bytes > 0 && e.dur > 0)
      pinnedRate[direction(name)] = std::max(
          pinnedRate[direction(name)], static_cast<double>(bytes) / static_cast<double>(e.dur));
    const TimeNs launched = l.runtimeCall == kNoEvent ? e.start : trace.events[l.runtimeCall].start;
    const Step* step = stepAt(scope.steps, launched);
    if (!step) continue;
    std::string key;
    if (e.klass == CategoryClass::Memset)
      key = "memset";
    else if (pageable(name))
      key = "pageable " + std::string(direction(name));
    else if (bytes >= 0 && bytes < kSmallCopyBytes)
      key = "small " + std::string(direction(name));
    else
      continue;
    Group& g = groups[key];
    g.ops.push_back(l.deviceOp);
    g.time += e.dur;
    g.bytes += std::max<std::int64_t>(bytes, 0);
    noteStep(g.steps, step);
  }
  std::vector<Finding> findings;
  for (auto& [key, g] : groups) {
    Finding f = scope.newFinding(FindingKind::MemoryCopy);
    f.occurrences = g.ops.size();
    f.steps = g.steps.size();
    f.measuredNs = scope.perStep(g.time);
    f.evidence = g.ops;
    const bool isPageable = key.rfind("pageable", 0) == 0;
    f.title = key + (key == "memset" ? "s" : " copies") + ": " + std::to_string(g.ops.size()) +
              ", " + formatDuration(f.measuredNs) + " per step on the device";
    if (isPageable) {
      const auto dir = std::string_view(key).substr(9);
      const auto rate = pinnedRate.find(dir);
      f.explanation =
          "copies to or from pageable host memory are staged by the driver through a "
          "pinned buffer, at a fraction of the bus's rate, and block the calling "
          "thread; pin the host tensor (pin_memory()) and copy with non_blocking=True.";
      if (rate == pinnedRate.end() || rate->second <= 0) {
        f.price.model = "the copy at the rate of a pinned copy of the same direction";
        f.price.notPriced =
            "no pinned " + std::string(dir) + " copy in the trace to take the pinned rate from";
      } else {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.2f GB/s", rate->second);
        f.price.model = std::string("each copy at the best rate a pinned ") + std::string(dir) +
                        " copy achieved in this trace (" + buf + ")";
        for (EventId id : g.ops) {
          const auto bytes = copyBytes(trace, trace.events[id]);
          if (bytes < 0) continue;
          f.fix.deviceOpDurations.push_back(
              {scope.rankIndex, id,
               std::min(trace.events[id].dur,
                        static_cast<TimeNs>(static_cast<double>(bytes) / rate->second))});
        }
      }
    } else {
      f.explanation = key == "memset"
                          ? "each memset is a launch and a pass over memory of its own; an "
                            "allocation that need not be zeroed (torch.empty), or the zeroing "
                            "folded into the kernel that writes next, removes it."
                          : "a copy this small costs its launch and the bus's latency, not its "
                            "bytes; batch small tensors into one copy, or keep them on the device.";
      f.price.model =
          "each one folded into other work: its device time and its launch call removed "
          "(an upper bound: the merged copy's bytes are not added back)";
      for (EventId id : g.ops) {
        f.fix.deviceOpDurations.push_back({scope.rankIndex, id, 0});
        const EventId call = launches.runtimeCallOf(id);
        if (call == kNoEvent) continue;
        const Event& c = trace.events[call];
        f.fix.hostCuts.push_back({scope.rankIndex, c.lane, c.start, c.end(), c.dur});
      }
    }
    findings.push_back(std::move(f));
  }
  return findings;
}

}  // namespace sutra
