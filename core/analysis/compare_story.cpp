// SPDX-License-Identifier: MIT
#include "analysis/compare_story.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace sutra {
namespace {

// The names of the rows found on one side only, the largest first (the comparison's order), at
// most `most` of them and "..." for the rest: the host ops where the side has some (their device
// ops are counted after them, their kernel names say little), else the device ops.
std::string namesOnlyIn(const OpComparison& c, bool sideA, std::size_t most) {
  std::vector<const OpDelta*> host, device;
  for (const OpDelta& d : c.rows)
    if (sideA ? d.inA && !d.inB : d.inB && !d.inA) (d.onDevice ? device : host).push_back(&d);
  const std::vector<const OpDelta*>& named = host.empty() ? device : host;
  std::string out;
  for (std::size_t i = 0; i < named.size() && i < most; ++i)
    out += (i == 0 ? "" : ", ") + named[i]->name;
  if (named.size() > most) out += ", ...";
  if (!host.empty() && !device.empty())
    out +=
        "; " + std::to_string(device.size()) + (device.size() == 1 ? " device op" : " device ops");
  return out;
}

std::size_t hostRowsOnlyIn(const OpComparison& c, bool sideA) {
  return static_cast<std::size_t>(
      std::count_if(c.rows.begin(), c.rows.end(), [&](const OpDelta& d) {
        return !d.onDevice && (sideA ? d.inA && !d.inB : d.inB && !d.inA);
      }));
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
  h += change(dev + " time", story.a.selfDevice, story.b.selfDevice);
  if (story.a.kernels != story.b.kernels)
    h += ", " + plural(story.a.kernels / steps, "kernel", "kernels") + " -> " +
         std::to_string(story.b.kernels / steps) + perStep;
  else
    h += ", " + plural(story.a.kernels / steps, "kernel", "kernels") + perStep + " in both";
  h += ", " + change("CPU time", story.a.selfCpu, story.b.selfCpu);
  if (story.a.hostIdle != 0 || story.b.hostIdle != 0)
    h += ", host idle " + formatDuration(story.a.hostIdle) + " -> " +
         formatDuration(story.b.hostIdle);
  story.headline = std::move(h);

  const std::size_t onlyA = c.onlyInA(), onlyB = c.onlyInB();
  if (onlyA > 0 || onlyB > 0) {
    // Counted as users think of them: host ops where a side has some, its device ops otherwise.
    auto count = [&](bool sideA, std::size_t all) {
      const std::size_t host = hostRowsOnlyIn(c, sideA);
      return host > 0 ? plural(host, "op", "ops") : plural(all, "device op", "device ops");
    };
    if (onlyA > 0 && onlyB > 0)
      story.replaced = count(true, onlyA) + " only in A (" + namesOnlyIn(c, true, 5) +
                       ") replaced by " + count(false, onlyB) + " only in B (" +
                       namesOnlyIn(c, false, 5) + ")";
    else if (onlyA > 0)
      story.replaced =
          count(true, onlyA) + " only in A, gone in B (" + namesOnlyIn(c, true, 5) + ")";
    else
      story.replaced = count(false, onlyB) + " only in B, new (" + namesOnlyIn(c, false, 5) + ")";
  }
  return story;
}

}  // namespace sutra
