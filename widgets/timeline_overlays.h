// SPDX-License-Identifier: MIT
#pragma once
// The timeline's overlays: the item that draws over the event rows what joins events rather than
// one row's boxes: the selection's outline and the flows through it (launch -> kernel), the linked
// events of several parts (one collective on each rank, their starts joined), and a critical
// path's hops. An event in a collapsed group is pointed at on its group's header, else its part's.
#include <QPointF>
#include <utility>
#include <vector>

#include "timeline_scene.h"

namespace sutra::widgets {

class TimelineOverlays {
 public:
  explicit TimelineOverlays(const TimelineScene& scene) : scene_(scene) {}

  // The selection, and arrows along `flows` (event pairs of the selection's part).
  void paintSelection(const TimelineFrame& f, const TimelineEvent& selected,
                      const std::vector<std::pair<EventId, EventId>>& flows) const;
  // Linked events (in part order): outlined, their starts joined top to bottom.
  void paintLinkedEvents(const TimelineFrame& f, const std::vector<TimelineEvent>& linked) const;
  // A critical path's hops on `part` between rows: from each first's end to its second's start.
  void paintPathEdges(const TimelineFrame& f, int part,
                      const std::vector<std::pair<EventId, EventId>>& edges) const;

 private:
  // A flow from `a` to `b`: a curve leaving and arriving vertically, with an arrow head at `b`.
  static void paintFlowArrow(const TimelineFrame& f, QPointF a, QPointF b);

  const TimelineScene& scene_;
};

}  // namespace sutra::widgets
