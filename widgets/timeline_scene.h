// SPDX-License-Identifier: MIT
#pragma once
// What the timeline's controller (TimelineView) keeps and its items draw from: the parts shown
// (the ranks of a run, or one trace) with what the view keeps per part, the lines top to bottom (a
// rank's header, a group's header, an event row, a counter's graph) with their heights, and the
// window in time with the pixels it maps to. The controller changes it; the items
// (timeline_event_rows.h, timeline_counter_lanes.h, timeline_headers.h, timeline_overlays.h,
// timeline_ruler.h) only read it, each drawing and hit-testing its own kind of line.
#include <QColor>
#include <QFont>
#include <QRect>
#include <QString>
#include <cstdint>
#include <memory>
#include <vector>

#include "view/lane_layout.h"
#include "view/time_axis.h"

class QPainter;

namespace sutra::widgets {

struct Theme;

// One (Trace, LaneLayout) pair on the shared time axis: a rank of the all-ranks view.
struct TimelinePart {
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const LaneLayout> layout;
  QString label;      // its header where several parts are shown: "rank1  (rank1.json)"
  TimeNs offset = 0;  // added to its times on the shared axis (ranks aligned on a step)
};

// An event of one part.
struct TimelineEvent {
  int part = 0;
  EventId event = kNoEvent;
  bool operator==(const TimelineEvent&) const = default;
};

// The timeline's metrics, in pixels.
namespace timeline {
inline constexpr int kRulerHeight = 28;
inline constexpr int kRowHeight = 18;
inline constexpr int kFoldedRowHeight = 10;  // a thread's folded Python frames: a thin band
inline constexpr int kHeaderHeight = 22;
inline constexpr int kPartHeaderHeight = 24;
inline constexpr int kTrackGap = 3;
inline constexpr int kCounterHeight = 30;
}  // namespace timeline

struct TimelineScene {
  struct Line {
    enum Kind : std::uint8_t { PartHeader, GroupHeader, Row, Counter } kind;
    std::uint16_t part;
    std::uint32_t index;  // part, group, row or counter
    int y;                // top, in content coordinates
    int height;
  };
  struct LineRange {
    std::vector<Line>::const_iterator first, last;
  };
  // A part and what the view keeps per part.
  struct PartState {
    TimelinePart part;
    std::vector<std::uint8_t> nameColour;   // per StringId
    mutable std::vector<QString> nameText;  // per StringId, filled as labels need them
    std::vector<bool> collapsed;            // per group
    bool folded = false;                    // the whole part
    std::vector<int> rowLine;               // per row: its line, or -1 while its group is collapsed
    std::vector<EventId> highlighted;
    std::vector<bool> highlightMask;  // per event, empty when nothing of it is highlighted
    std::uint32_t rowBase = 0;        // its row 0's index among all parts' rows
  };

  std::vector<PartState> parts;
  std::vector<Line> lines;
  int contentHeight = 0;
  TimeRange range{0, 1000};  // the window, on the shared axis
  int labelWidth = 300;
  int width = 0;  // the widget's
  int height = 0;
  int areaWidth = 1;  // the event area's, right of the labels
  int scroll = 0;     // the vertical scroll position
  QFont font;
  bool fading = false;  // something is highlighted: the rest is faded

  static PartState makePart(TimelinePart part);
  bool multiPart() const { return parts.size() > 1; }
  const PartState& part(int index) const { return parts[static_cast<std::size_t>(index)]; }
  // Lays the lines out anew from the parts' layouts and what is collapsed.
  void rebuildLines();
  // The lines on screen at the scroll position, and the one at a widget y (-1 for none).
  LineRange visibleLines() const;
  int lineAt(int y) const;
  int top(const Line& line) const { return line.y - scroll + timeline::kRulerHeight; }
  // Widget coordinates; -1 where not shown (collapsed or scrolled away).
  int rowTop(int part, std::uint32_t row) const;
  int rowHeight(int part, std::uint32_t row) const;
  int counterTop(int part, std::uint32_t counter) const;
  int partHeaderTop(int part) const;
  int groupHeaderTop(int part, std::uint32_t group) const;
  // Where an event of a collapsed group is pointed at: its group's header, else its part's; -1.
  int foldedTop(int part, std::uint32_t row) const;
  // The window in a part's own times: the same pixels as the shared window.
  TimeRange localRange(const PartState& state) const {
    return {range.start - state.part.offset, range.end - state.part.offset};
  }
  // A shared-axis time's x from the event area's left.
  double xOf(TimeNs t) const { return timeToX(t, range, areaWidth); }
  bool inEventArea(int x) const { return x >= labelWidth && x < labelWidth + areaWidth; }
};

// What every paint pass of one frame shares. The passes paint in order, each setting the pen,
// brush and font it draws with, so that none depends on what the one before left in the painter.
struct TimelineFrame {
  QPainter& p;
  const Theme& theme;              // the palette's set: a PaletteChange repaints in the new one
  QColor partHeaderBackground;     // a rank's header stands out from its groups' headers
  QRect eventArea;                 // right of the labels, below the ruler
  TimelineScene::LineRange lines;  // the lines on screen
  TimeNs origin = 0;               // where the ruler counts from
  TimeNs step = 0;                 // between the ruler's ticks
};

// A label cut to its column with an ellipsis, where the column is narrower than the label.
void drawTimelineLabel(QPainter& p, const QRect& rect, const QString& text);

}  // namespace sutra::widgets
