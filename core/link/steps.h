// SPDX-License-Identifier: MIT
#pragma once
// Steps (iterations) of a trace and the time windows the analyses work over.
//
// A step is, in order of preference:
// - a ProfilerStep#N annotation (a user_annotation; PyTorch <= 1.12 writes it as an op);
// - where a trace has none, the span from one instance of the outermost repeating annotation to
//   the next (an iteration: Optimizer.zero_grad#... to the next Optimizer.zero_grad#...).
//   Outermost: no instance of another repeating annotation encloses it; of several, the one whose
//   first instance starts first (the one that opens the loop). One annotation instance alone (e.g.
//   Optimizer.step, 5 ms of a 95 ms iteration) is never taken for the iteration;
// - else the whole trace as one step.
// Its measured time runs from its start to the later of its end and the end of the last device op
// launched inside it (device work queued in a step still belongs to it).
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/trace.h"
#include "util/result.h"

namespace sutra {

class LaunchIndex;

enum class StepSource : std::uint8_t {
  ProfilerStep,         // ProfilerStep#N annotations
  RepeatingAnnotation,  // the spans between repeats of the outermost repeating annotation
  WholeTrace,           // neither: the whole trace is the one step
};

struct Step {
  std::int64_t number = 0;        // N of ProfilerStep#N; the instance index (0, 1, ...) otherwise
  std::string name;               // the annotation's name, or "whole trace"
  EventId annotation = kNoEvent;  // kNoEvent for the whole-trace step; the opening instance
  TimeNs start = 0;
  TimeNs end = 0;
  TimeNs deviceEnd = 0;  // max(end, end of the last device op launched in [start, end))
  StepSource source = StepSource::ProfilerStep;

  TimeNs duration() const { return deviceEnd - start; }
};

// Steps sorted by start. Never empty for a trace with events.
std::vector<Step> findSteps(const Trace& trace, const LaunchIndex& launches);

// The window (model/time.h) that a table or an analysis covers: an event belongs to it when it
// starts inside it; a device op, when its launch call does.

// What the user asked for: the whole trace (nothing set), one step, or a time range.
struct WindowSpec {
  std::optional<std::int64_t> step = std::nullopt;  // a Step::number
  std::optional<TimeNs> start = std::nullopt;       // a range; either end may be left open
  std::optional<TimeNs> end = std::nullopt;
};

// The whole trace: from its first event's start to just past its last event's end.
TimeWindow wholeTraceWindow(const Trace& trace);
TimeWindow stepWindow(const Step& step);
// Resolves a WindowSpec; fails (naming the trace and the step) for a step the trace does not have,
// a range that is empty or both a step and a range.
Result<TimeWindow> resolveWindow(const Trace& trace, std::span<const Step> steps,
                                 const WindowSpec& spec);
// The step with that number, or null.
const Step* findStep(std::span<const Step> steps, std::int64_t number);
// The device ops (kernels, memcpy, memset) that belong to `window`: those whose launch call starts
// in it, and, where the window holds the whole trace, those launched before the trace began (no
// launch call in it). By event id.
std::vector<EventId> deviceOpsInWindow(const Trace& trace, const LaunchIndex& launches,
                                       const TimeWindow& window);

// What a window spec covers, in words, saying where the steps came from: "step 5" (ProfilerStep#5),
// "iteration 2: Optimizer.zero_grad#SGD.zero_grad #2 to #3 (no ProfilerStep in
// the trace: the spans between repeats of its outermost repeating annotation)", "the whole trace
// (no ProfilerStep and no repeating annotation)", "[T0, T1) ns".
std::string describeWindow(std::span<const Step> steps, const WindowSpec& spec);

}  // namespace sutra
