// SPDX-License-Identifier: MIT
#pragma once
// The timeline's keys (W/S zoom, A/D pan, F fit the selection, 0 fit everything) wherever focus
// is in the window, not only on the timeline: after a click on a table row or a chain hop they
// still move the timeline. A text field (line edit, text edit, spin box) keeps its typing: it
// claims printable keys before a window shortcut fires.
class QWidget;

namespace sutra::widgets {
class TimelineView;
}

namespace sutra::gui {

void installTimelineKeys(QWidget* window, widgets::TimelineView* timeline);

}  // namespace sutra::gui
