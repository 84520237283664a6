// SPDX-License-Identifier: MIT
#pragma once
// The timeline's headers: the item that draws a rank's header (the all-ranks view) and each
// group's header with their fold arrows, and shades every other track so that a thread's rows
// read as one. Clicks on a header fold it (the controller's, by the scene's lines).
#include "timeline_scene.h"

namespace sutra::widgets {

class TimelineHeaders {
 public:
  explicit TimelineHeaders(const TimelineScene& scene) : scene_(scene) {}

  // The headers' bands across the whole width, and the shade of every other track.
  void paintBackgrounds(const TimelineFrame& f) const;
  // A part's or a group's header label with its fold arrow.
  void paintLabel(const TimelineFrame& f, const TimelineScene::Line& line) const;

 private:
  const TimelineScene& scene_;
};

}  // namespace sutra::widgets
