// SPDX-License-Identifier: MIT
#include "analysis/compare_story.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace sutra {
namespace {

bool isOpOrAnnotation(CategoryClass k) {
  return k == CategoryClass::CpuOp || k == CategoryClass::UserAnnotation;
}

// The host rows found on one side only that a user would name: framework ops and annotations
// (not Python frames) of which some call, in the side's window, is inside no other op found on
// that side only. For the naive RMSNorm against its compiled version that is mul, mean, add,
// rsqrt, not aten::sum and aten::div_, which mean calls.
std::vector<const OpDelta*> outermostOnlyIn(const OpComparison& c, const Trace& trace,
                                            const TimeWindow& window, bool sideA) {
  std::vector<bool> onlyHere(trace.names.size(), false);
  for (const OpDelta& d : c.rows)
    if (!d.onDevice && (sideA ? d.inA && !d.inB : d.inB && !d.inA))
      if (auto id = trace.names.find(d.name); id != StringTable::kMissing) onlyHere[id] = true;
  std::vector<bool> outermost(trace.names.size(), false);
  for (const Event& e : trace.events) {
    if (!isOpOrAnnotation(e.klass) || !onlyHere[e.name] || !window.contains(e.start)) continue;
    bool inside = false;
    for (EventId p = e.parent; p != kNoEvent && !inside; p = trace.events[p].parent)
      inside = isOpOrAnnotation(trace.events[p].klass) && onlyHere[trace.events[p].name];
    if (!inside) outermost[e.name] = true;
  }
  std::vector<const OpDelta*> out;
  for (const OpDelta& d : c.rows)
    if (!d.onDevice && (sideA ? d.inA && !d.inB : d.inB && !d.inA))
      if (auto id = trace.names.find(d.name); id != StringTable::kMissing && outermost[id])
        out.push_back(&d);
  return out;
}

// The names of the rows found on one side only, the largest first (the comparison's order), at
// most `most` of them and "..." for the rest: the outermost host ops where the side has some
// (their device ops are counted after them, their kernel names say little), else the device ops.
std::string namesOnlyIn(const OpComparison& c, const std::vector<const OpDelta*>& host, bool sideA,
                        std::size_t most) {
  std::vector<const OpDelta*> device, frames;
  for (const OpDelta& d : c.rows)
    if (sideA ? d.inA && !d.inB : d.inB && !d.inA) (d.onDevice ? device : frames).push_back(&d);
  // Where the side has neither ops nor device ops of its own, its own rows are Python frames.
  const std::vector<const OpDelta*>& named =
      !host.empty() ? host : (!device.empty() ? device : frames);
  std::string out;
  for (std::size_t i = 0; i < named.size() && i < most; ++i)
    out += (i == 0 ? "" : ", ") + named[i]->name;
  if (named.size() > most) out += ", ...";
  if (!host.empty() && !device.empty())
    out +=
        "; " + std::to_string(device.size()) + (device.size() == 1 ? " device op" : " device ops");
  return out;
}

// The mean time a step of the window takes, ProfilerStep#N's first start to its last end over their
// number (what torch's ProfilerStep events span); the window over `steps` where there are none.
TimeNs timePerStep(const Trace& trace, const TimeWindow& window, std::size_t steps) {
  TimeNs first = 0, last = 0;
  std::size_t found = 0;
  for (const Event& e : trace.events) {
    if (e.klass != CategoryClass::UserAnnotation || !window.contains(e.start) ||
        !trace.name(e).starts_with("ProfilerStep#"))
      continue;
    first = found == 0 ? e.start : std::min(first, e.start);
    last = found == 0 ? e.end() : std::max(last, e.end());
    ++found;
  }
  if (found > 0) return (last - first) / TimeNs(found);
  return steps > 0 ? window.length() / TimeNs(steps) : window.length();
}

std::string plural(std::uint64_t n, const std::string& one, const std::string& many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

RunTotals runTotals(const Trace& trace, const TimeWindow& window, TimeNs selfCpu,
                    TimeNs selfDevice) {
  RunTotals t;
  t.window = window.length();
  t.selfCpu = selfCpu;
  t.selfDevice = selfDevice;
  std::vector<std::pair<TimeNs, TimeNs>> busy;  // framework ops, clipped to the window
  for (const Event& e : trace.events) {
    if (!window.contains(e.start)) continue;
    if (e.klass == CategoryClass::Kernel) ++t.kernels;
    if (isDeviceOp(e.klass)) ++t.deviceOps;
    if (e.klass == CategoryClass::CpuOp) busy.emplace_back(e.start, std::min(e.end(), window.end));
  }
  std::sort(busy.begin(), busy.end());
  TimeNs covered = 0, from = window.start, to = window.start;
  for (const auto& [start, end] : busy) {
    if (start > to) {
      covered += to - from;
      from = start;
      to = end;
    } else {
      to = std::max(to, end);
    }
  }
  covered += to - from;
  t.hostIdle = busy.empty() ? 0 : std::max<TimeNs>(0, t.window - covered);
  return t;
}

ComparisonStory tellComparison(const OpComparison& c, const Trace& a, const Trace& b,
                               std::size_t stepsA, std::size_t stepsB) {
  ComparisonStory story;
  story.a = runTotals(a, c.windowA, c.selfCpuTotalA, c.selfDeviceTotalA);
  story.b = runTotals(b, c.windowB, c.selfCpuTotalB, c.selfDeviceTotalB);
  story.a.steps = stepsA;
  story.b.steps = stepsB;
  // Per step where both windows hold the same steps and each side's kernels divide evenly.
  const std::size_t steps = stepsA == stepsB && stepsA > 1 && story.a.kernels % stepsA == 0 &&
                                    story.b.kernels % stepsB == 0
                                ? stepsA
                                : 1;
  const std::string perStep = steps > 1 ? " per step" : "";
  const std::string dev = c.device.empty() ? "device" : c.device;
  std::string h = "B (" + c.labelB + ") against A (" + c.labelA + "): ";
  auto change = [](const std::string& what, TimeNs x, TimeNs y) {
    const std::string how = describeChange(x, y);
    const std::string times = " (" + formatDuration(x) + " -> " + formatDuration(y) + ")";
    if (how == "same") return what + " the same" + times;
    if (how == "new" || how == "gone") return what + " " + how + times;
    return how + " " + what + times;
  };
  // A run with no device work on either side (a CPU recording) is told by its CPU time and its
  // step, not by a device time of 0 ns in both.
  const bool deviceWork = story.a.selfDevice != 0 || story.b.selfDevice != 0 ||
                          story.a.kernels != 0 || story.b.kernels != 0;
  if (deviceWork) {
    h += change(dev + " time", story.a.selfDevice, story.b.selfDevice);
    if (story.a.kernels != story.b.kernels)
      h += ", " + plural(story.a.kernels / steps, "kernel", "kernels") + " -> " +
           std::to_string(story.b.kernels / steps) + perStep;
    else
      h += ", " + plural(story.a.kernels / steps, "kernel", "kernels") + perStep + " in both";
  } else if (stepsA == stepsB && stepsA > 0) {
    const TimeNs stepA = timePerStep(a, c.windowA, stepsA),
                 stepB = timePerStep(b, c.windowB, stepsB);
    std::string how = describeChange(stepA, stepB);  // "2.50x less": of a step, "shorter"
    if (how.ends_with(" less")) how.replace(how.size() - 4, 4, "shorter");
    if (how.ends_with(" more")) how.replace(how.size() - 4, 4, "longer");
    const std::string times = formatDuration(stepA) + " -> " + formatDuration(stepB) + " over " +
                              std::to_string(stepsA) + (stepsA == 1 ? " step" : " steps");
    h += how == "same" ? "time per step the same (" + times + ")"
                       : "time per step " + how + " (" + times + ")";
  }
  h += (h.ends_with(": ") ? "" : ", ") + change("CPU time", story.a.selfCpu, story.b.selfCpu);
  if (story.a.hostIdle != 0 || story.b.hostIdle != 0)
    h += ", host idle " + formatDuration(story.a.hostIdle) + " -> " +
         formatDuration(story.b.hostIdle);
  story.headline = std::move(h);

  const std::size_t onlyA = c.onlyInA(), onlyB = c.onlyInB();
  if (onlyA > 0 || onlyB > 0) {
    const auto hostA = outermostOnlyIn(c, a, c.windowA, true);
    const auto hostB = outermostOnlyIn(c, b, c.windowB, false);
    // Counted as users think of them: the outermost host ops where a side has some, its device
    // ops otherwise.
    auto count = [&](const std::vector<const OpDelta*>& host, bool sideA, std::size_t all) {
      const bool device = std::any_of(c.rows.begin(), c.rows.end(), [&](const OpDelta& d) {
        return d.onDevice && (sideA ? d.inA && !d.inB : d.inB && !d.inA);
      });
      if (!host.empty()) return plural(host.size(), "op", "ops");
      return device ? plural(all, "device op", "device ops")
                    : plural(all, "Python frame", "Python frames");
    };
    if (onlyA > 0 && onlyB > 0)
      story.replaced = count(hostA, true, onlyA) + " only in A (" + namesOnlyIn(c, hostA, true, 5) +
                       ") replaced by " + count(hostB, false, onlyB) + " only in B (" +
                       namesOnlyIn(c, hostB, false, 5) + ")";
    else if (onlyA > 0)
      story.replaced = count(hostA, true, onlyA) + " only in A, gone in B (" +
                       namesOnlyIn(c, hostA, true, 5) + ")";
    else
      story.replaced =
          count(hostB, false, onlyB) + " only in B, new (" + namesOnlyIn(c, hostB, false, 5) + ")";
  }
  return story;
}

}  // namespace sutra
