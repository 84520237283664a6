// SPDX-License-Identifier: MIT
#include "view/chart_data.h"

#include <algorithm>
#include <bit>

#include "simulate/step_projection.h"

namespace sutra::view {

UtilisationSeries deviceUtilisation(const Trace& trace, std::size_t buckets) {
  UtilisationSeries out;
  out.start = trace.startNs;
  const TimeNs extent = std::max<TimeNs>(trace.endNs - trace.startNs, 1);
  if (buckets == 0) return out;
  out.bucketNs = std::max<TimeNs>((extent + TimeNs(buckets) - 1) / TimeNs(buckets), 1);
  for (LaneId lane = 0; lane < trace.lanes.size(); ++lane) {
    const Lane& l = trace.lanes[lane];
    if (l.kind != LaneKind::DeviceStream) continue;
    StreamUtilisation s;
    s.lane = lane;
    s.label = "stream " + std::to_string(l.stream) + " (device " + std::to_string(l.device) + ")";
    std::vector<TimeNs> busyNs(buckets, 0);
    // Events are sorted by start: merge overlapping ops into one busy interval before counting.
    TimeNs runStart = 0, runEnd = 0;
    bool open = false;
    auto flush = [&] {
      for (TimeNs t = runStart; t < runEnd;) {
        const auto b = static_cast<std::size_t>((t - out.start) / out.bucketNs);
        if (b >= buckets) break;
        const TimeNs bucketEnd = out.start + TimeNs(b + 1) * out.bucketNs;
        const TimeNs until = std::min(bucketEnd, runEnd);
        busyNs[b] += until - t;
        t = until;
      }
    };
    for (const Event& e : trace.laneEvents(lane)) {
      if (!isDeviceOp(e.klass)) continue;
      if (open && e.start <= runEnd) {
        runEnd = std::max(runEnd, e.end());
        continue;
      }
      if (open) flush();
      runStart = e.start;
      runEnd = e.end();
      open = true;
    }
    if (open) flush();
    s.busy.resize(buckets);
    for (std::size_t b = 0; b < buckets; ++b) s.busy[b] = double(busyNs[b]) / double(out.bucketNs);
    out.streams.push_back(std::move(s));
  }
  return out;
}

DurationHistogram kernelDurationHistogram(const Trace& trace) {
  DurationHistogram h;
  auto power = [](TimeNs d) { return d <= 1 ? 0 : int(std::bit_width(std::uint64_t(d))) - 1; };
  int lo = 64, hi = -1;
  for (const Event& e : trace.events)
    if (e.klass == CategoryClass::Kernel) {
      lo = std::min(lo, power(e.dur));
      hi = std::max(hi, power(e.dur));
    }
  if (hi < 0) return h;
  h.firstPower = lo;
  h.counts.assign(std::size_t(hi - lo + 1), 0);
  for (const Event& e : trace.events)
    if (e.klass == CategoryClass::Kernel) ++h.counts[std::size_t(power(e.dur) - lo)];
  return h;
}

std::vector<NamedTime> topOperatorsByDeviceTime(const OpTable& table, std::size_t count) {
  std::vector<NamedTime> out;
  for (const OpRow& r : table.rows)
    if (r.onDevice) out.push_back({r.name, r.deviceTotal});
  std::sort(out.begin(), out.end(), [](const NamedTime& x, const NamedTime& y) {
    return x.value != y.value ? x.value > y.value : x.name < y.name;
  });
  if (out.size() > count) out.resize(count);
  return out;
}

std::vector<DeltaBar> comparisonDeltas(const OpComparison& comparison, std::size_t count) {
  std::vector<DeltaBar> out;
  for (const OpDelta& d : comparison.rows) {
    if (out.size() == count) break;
    if (d.selfDeviceDelta() == 0 && d.selfCpuDelta() == 0) continue;
    out.push_back({d.name, d.inputShapes, d.onDevice, d.selfDeviceDelta(), d.selfCpuDelta()});
  }
  return out;
}

std::vector<StepTiming> stepTimings(const SimGraph& graph, const SimRun& run,
                                    const std::vector<Step>& steps) {
  std::vector<StepTiming> out;
  for (const StepProjection& p : projectSteps(graph, run, steps).steps)
    out.push_back({p.number, p.name, p.measuredNs, p.simulatedNs});
  return out;
}

}  // namespace sutra::view
