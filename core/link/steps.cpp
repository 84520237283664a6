// SPDX-License-Identifier: MIT
#include "link/steps.h"

#include <algorithm>
#include <charconv>
#include <string_view>

#include "link/launch_index.h"

namespace sutra {
namespace {

constexpr std::string_view kProfilerStep = "ProfilerStep#";

std::optional<std::int64_t> profilerStepNumber(std::string_view name) {
  if (!name.starts_with(kProfilerStep)) return std::nullopt;
  name.remove_prefix(kProfilerStep.size());
  std::int64_t n = 0;
  auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), n);
  if (ec != std::errc() || ptr != name.data() + name.size()) return std::nullopt;
  return n;
}

// The spans between consecutive instances of the outermost repeating annotation, or none.
std::vector<Step> repeatSteps(const Trace& trace) {
  const auto& events = trace.events;
  std::vector<std::uint32_t> count(trace.names.size(), 0);
  for (const Event& e : events)
    if (e.klass == CategoryClass::UserAnnotation) ++count[e.name];
  auto repeating = [&](EventId i) {
    return events[i].klass == CategoryClass::UserAnnotation && count[events[i].name] >= 2;
  };
  // The earliest instance of a repeating annotation that no other repeating one encloses.
  EventId first = kNoEvent;
  for (EventId i = 0; i < events.size(); ++i) {
    if (!repeating(i)) continue;
    bool outermost = true;
    for (EventId a = events[i].parent; a != kNoEvent && outermost; a = events[a].parent)
      outermost = !repeating(a) || events[a].name == events[i].name;
    if (!outermost) continue;
    if (first == kNoEvent || events[i].start < events[first].start ||
        (events[i].start == events[first].start && events[i].dur > events[first].dur))
      first = i;
  }
  std::vector<Step> steps;
  if (first == kNoEvent) return steps;
  // Its instances on its thread, outermost ones only (an instance nested in another of the same
  // name is no new iteration).
  std::vector<EventId> instances;
  for (EventId i = trace.lanes[events[first].lane].firstEvent;
       i < trace.lanes[events[first].lane].endEvent; ++i) {
    if (events[i].name != events[first].name || events[i].klass != CategoryClass::UserAnnotation)
      continue;
    bool nested = false;
    for (EventId a = events[i].parent; a != kNoEvent && !nested; a = events[a].parent)
      nested = events[a].name == events[i].name;
    if (!nested) instances.push_back(i);
  }
  for (std::size_t k = 0; k + 1 < instances.size(); ++k) {
    const Event& e = events[instances[k]];
    const TimeNs end = events[instances[k + 1]].start;
    steps.push_back({static_cast<std::int64_t>(k), std::string(trace.name(e)), instances[k],
                     e.start, end, end, StepSource::RepeatingAnnotation});
  }
  return steps;
}

std::vector<Step> annotationSteps(const Trace& trace) {
  std::vector<Step> steps;
  for (EventId i = 0; i < trace.events.size(); ++i) {
    const Event& e = trace.events[i];
    // PyTorch <= 1.12 records ProfilerStep#N as an op ("Operator", cpu_op), later ones as a
    // user_annotation; HTA takes the name from any host event.
    if (e.klass != CategoryClass::UserAnnotation && e.klass != CategoryClass::CpuOp) continue;
    if (auto n = profilerStepNumber(trace.name(e)))
      steps.push_back(
          {*n, std::string(trace.name(e)), i, e.start, e.end(), e.end(), StepSource::ProfilerStep});
  }
  if (steps.empty()) return repeatSteps(trace);
  // A step number written twice (e.g. on two threads) keeps its first instance in time.
  std::sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) {
    return a.number != b.number ? a.number < b.number : a.start < b.start;
  });
  steps.erase(std::unique(steps.begin(), steps.end(),
                          [](const Step& a, const Step& b) { return a.number == b.number; }),
              steps.end());
  std::sort(steps.begin(), steps.end(),
            [](const Step& a, const Step& b) { return a.start < b.start; });
  return steps;
}

}  // namespace

std::vector<Step> findSteps(const Trace& trace, const LaunchIndex& launches) {
  std::vector<Step> steps = annotationSteps(trace);
  if (steps.empty()) {
    if (trace.events.empty()) return steps;
    steps.push_back({0, "whole trace", kNoEvent, trace.startNs, trace.endNs, trace.endNs,
                     StepSource::WholeTrace});
    return steps;
  }
  // Each device op extends the step whose [start, end) holds its launch call. Steps may nest or
  // overlap (annotations on several threads), so every step containing the call is extended.
  std::vector<TimeNs> starts, maxEndSoFar;  // maxEndSoFar[k]: the latest end of steps[0..k]
  for (const auto& s : steps) {
    starts.push_back(s.start);
    maxEndSoFar.push_back(std::max(maxEndSoFar.empty() ? s.end : maxEndSoFar.back(), s.end));
  }
  for (EventId d = 0; d < trace.events.size(); ++d) {
    if (!isDeviceOp(trace.events[d].klass)) continue;
    const EventId call = launches.runtimeCallOf(d);
    if (call == kNoEvent) continue;
    const TimeNs t = trace.events[call].start;
    const TimeNs deviceEnd = trace.events[d].end();
    auto k = static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), t) -
                                      starts.begin());
    // Walk back over the steps starting at or before t while any of them may still contain t.
    while (k > 0 && maxEndSoFar[k - 1] > t) {
      --k;
      if (t < steps[k].end) steps[k].deviceEnd = std::max(steps[k].deviceEnd, deviceEnd);
    }
  }
  return steps;
}

TimeWindow wholeTraceWindow(const Trace& trace) {
  // One past the last end, so that a zero-duration event at the very end is inside.
  return {trace.startNs, trace.endNs + 1};
}

TimeWindow stepWindow(const Step& step) { return {step.start, step.end}; }

const Step* findStep(std::span<const Step> steps, std::int64_t number) {
  for (const auto& s : steps)
    if (s.number == number) return &s;
  return nullptr;
}

std::vector<EventId> deviceOpsInWindow(const Trace& trace, const LaunchIndex& launches,
                                       const TimeWindow& window) {
  const bool wholeTrace = window.start <= trace.startNs && window.end > trace.endNs;
  std::vector<EventId> ops;
  for (const DeviceLaunch& launch : launches.launches()) {
    const bool in = launch.runtimeCall != kNoEvent
                        ? window.contains(trace.events[launch.runtimeCall].start)
                        : wholeTrace;
    if (in) ops.push_back(launch.deviceOp);
  }
  return ops;
}

Result<TimeWindow> resolveWindow(const Trace& trace, std::span<const Step> steps,
                                 const WindowSpec& spec) {
  if (spec.step && (spec.start || spec.end))
    return makeError(trace.path, "choose either a step or a time range, not both");
  if (spec.step) {
    if (const Step* s = findStep(steps, *spec.step)) return stepWindow(*s);
    std::string known;
    for (std::size_t i = 0; i < steps.size() && i < 8; ++i)
      known += (i ? ", " : "") + std::to_string(steps[i].number);
    if (steps.size() > 8) known += ", ...";
    return makeError(trace.path, "no step " + std::to_string(*spec.step) +
                                     " (steps: " + (known.empty() ? "none" : known) + ")");
  }
  TimeWindow w = wholeTraceWindow(trace);
  if (spec.start) w.start = *spec.start;
  if (spec.end) w.end = *spec.end;
  if (w.end <= w.start)
    return makeError(trace.path, "empty time range [" + std::to_string(w.start) + ", " +
                                     std::to_string(w.end) + ") ns");
  return w;
}

std::string describeWindow(std::span<const Step> steps, const WindowSpec& spec) {
  if (spec.start || spec.end)
    return "[" + (spec.start ? std::to_string(*spec.start) : std::string("start")) + ", " +
           (spec.end ? std::to_string(*spec.end) : std::string("end")) + ") ns";
  const Step* s = spec.step ? findStep(steps, *spec.step) : nullptr;
  const bool whole = !s || s->source == StepSource::WholeTrace;
  if (whole) {
    if (!steps.empty() && steps.front().source == StepSource::WholeTrace)
      return "the whole trace (no ProfilerStep and no repeating annotation)";
    return "the whole trace";
  }
  if (s->source == StepSource::ProfilerStep) return "step " + std::to_string(s->number);
  return "iteration " + std::to_string(s->number) + ": " + s->name + " #" +
         std::to_string(s->number) + " to #" + std::to_string(s->number + 1) +
         " (no ProfilerStep in the trace: the spans between repeats of its outermost repeating "
         "annotation)";
}

}  // namespace sutra
