// SPDX-License-Identifier: MIT
#pragma once
// The timeline's time <-> pixel maths as pure functions, so that degenerate ranges and extreme
// zooms (a 10 ns window on an epoch-based trace, a zero-width widget) are tested without a widget.
#include <string>

#include "model/time.h"
#include "view/widgets_names.h"

namespace sutra::view {

struct TimeRange {
  TimeNs start = 0;
  TimeNs end = 0;
  TimeNs span() const { return end - start; }
  bool operator==(const TimeRange&) const = default;
};

// The narrowest window the view shows: below this a nanosecond is wider than the screen.
inline constexpr TimeNs kMinVisibleSpanNs = 10;

// x of time t in a view `widthPx` wide showing `range`; may lie outside [0, widthPx]. A range of
// zero or negative span maps everything to 0.
double timeToX(TimeNs t, const TimeRange& range, double widthPx);
// The time at pixel x, rounded to the nearest nanosecond; range.start for a zero-width view.
TimeNs xToTime(double x, const TimeRange& range, double widthPx);

// `wanted` made showable: at least minSpan wide and, where `bounds` is wider than that, inside
// bounds (shifted, not shrunk, when it sticks out). Never overflows.
TimeRange clampRange(TimeRange wanted, const TimeRange& bounds, TimeNs minSpan = kMinVisibleSpanNs);
// Zooms by `factor` (< 1 zooms in) keeping `anchor` at the same pixel.
TimeRange zoomAround(const TimeRange& range, TimeNs anchor, double factor);
// Moves the window by `fraction` of its span (negative: towards earlier times).
TimeRange panByFraction(const TimeRange& range, double fraction);

// The ruler's tick spacing: 1, 2 or 5 times a power of ten nanoseconds, the smallest that keeps
// ticks at least minPxPerTick apart.
TimeNs tickStep(TimeNs span, double widthPx, double minPxPerTick);
// The first tick at or after `start` on the grid of `step` counted from `origin` (the ruler counts
// from the trace start, so ticks fall on round offsets from it, not on round epoch times).
TimeNs firstTickAtOrAfter(TimeNs start, TimeNs origin, TimeNs step);
// A tick label relative to the trace start: "0", "250 us", "1.5 ms", "12 s", readable at any step.
std::string tickLabel(TimeNs offset, TimeNs step);

}  // namespace sutra::view
