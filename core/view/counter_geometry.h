// SPDX-License-Identifier: MIT
#pragma once
// A counter series (Kineto "ph":"C") drawn as a small graph in its lane, with level of detail as
// the event lanes have it: the samples of the visible window are folded into one column per pixel
// holding the value at the column's start and the lowest and highest values inside it, so a frame
// draws at most a few segments per pixel however many samples the window holds. Pure maths, no Qt.
#include <cstdint>
#include <utility>
#include <vector>

#include "model/time.h"
#include "model/trace.h"
#include "view/time_axis.h"
#include "view/widgets_names.h"

namespace sutra::view {

struct CounterColumn {
  int x = 0;         // pixel column, 0 = the window's start
  double first = 0;  // the value in force at the column's left edge (or its first sample)
  double low = 0;    // the lowest and highest values in force inside the column
  double high = 0;
  bool operator==(const CounterColumn&) const = default;
};

// Columns of `samples` (sorted by time; each value holds until the next sample) over `range` drawn
// `widthPx` wide. Columns before the first sample are left out; the last value holds to the end
// of the window.
std::vector<CounterColumn> counterColumns(const std::vector<std::pair<TimeNs, double>>& samples,
                                          const TimeRange& range, int widthPx);

// The mark of `marks` (sorted by time) drawn nearest `x` (0 = the window's start) on
// a window `range` drawn `widthPx` wide, if one is within `tolerancePx`; -1 where none is. A mark
// outside the window is never hit.
int counterMarkAt(const std::vector<CounterMark>& marks, const TimeRange& range, int widthPx,
                  double x, double tolerancePx);

}  // namespace sutra::view
