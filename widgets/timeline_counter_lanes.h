// SPDX-License-Identifier: MIT
#pragma once
// The timeline's counter lanes: the item that draws each counter series of the scene (Kineto
// "ph":"C", the memory curves) as a small graph under its group's tracks, one column per pixel
// (counter_geometry.h), with its marks (the memory peak: a dashed line, a diamond and a label);
// it answers which mark is under a point, and its tooltip.
#include <QPoint>
#include <QString>

#include "timeline_scene.h"

namespace sutra::widgets {

class TimelineCounterLanes {
 public:
  explicit TimelineCounterLanes(const TimelineScene& scene) : scene_(scene) {}

  // The graphs of the counters on screen, clipped to the event area.
  void paint(const TimelineFrame& f) const;
  // A counter's label: its colour, name and extent.
  void paintLabel(const TimelineFrame& f, const TimelineScene::Line& line) const;

  // The counter mark under a widget point, with its part (mark null where there is none).
  struct MarkHit {
    int part = 0;
    const CounterMark* mark = nullptr;
  };
  MarkHit markAt(const QPoint& pos) const;
  // `origin`: where the ruler counts from, on the shared axis.
  QString toolTip(const MarkHit& hit, TimeNs origin) const;

 private:
  void paintMarks(const TimelineFrame& f, const std::vector<CounterMark>& marks,
                  const TimeRange& local, double top, double h, const LayoutCounter& counter) const;

  const TimelineScene& scene_;
};

}  // namespace sutra::widgets
