// SPDX-License-Identifier: MIT
#pragma once
// The timeline's ruler: the item that draws the time axis over the event area (ticks labelled from
// the time origin, the grid lines under the lanes), the range selected on the ruler (shaded over
// the lanes, its span written on the ruler), and the corner over the label column (the window's
// span, and a note on how the parts share the axis).
#include <QString>
#include <optional>
#include <utility>

#include "timeline_scene.h"

namespace sutra::widgets {

class TimelineRuler {
 public:
  explicit TimelineRuler(const TimelineScene& scene) : scene_(scene) {}

  // Grid lines at the ruler's ticks, under the lanes.
  void paintGrid(const TimelineFrame& f) const;
  // `selected`: the range selected on the ruler, empty for none.
  void paintRangeShade(const TimelineFrame& f, const TimeRange& selected) const;
  void paintRuler(const TimelineFrame& f, const TimeRange& selected) const;
  void paintCorner(const TimelineFrame& f, const QString& axisNote) const;

 private:
  int tickX(TimeNs t) const;  // a tick's widget x
  // The selected range from x0 to x1 of the event area (clamped to just outside it), or nothing.
  std::optional<std::pair<double, double>> rangeXs(const TimeRange& selected) const;

  const TimelineScene& scene_;
};

}  // namespace sutra::widgets
