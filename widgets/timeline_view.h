// SPDX-License-Identifier: MIT
#pragma once
// The lane timeline: a QWidget that paints the LaneLayout of one Trace, or of several (the ranks
// of a run, each a "part" under its own collapsible header, one above the other on one time
// axis), with level of detail. Geometry (boxes per row, batched by colour) is rebuilt only when
// the window, the size, the scroll position, the collapsed groups or the highlight change; hover
// and selection replay it. Only the rows on screen are walked, so a frame costs the same whether
// one rank or sixteen are loaded.
//
// With several parts an event is (part, EventId). The "current part" is the one the last
// selection was made on; the single-trace calls (trace(), layout(), selectEvent(EventId),
// setHighlighted, showMatches, rowTop(row), group collapse) act on it.
//
// Keys: W/S or Ctrl+wheel zoom, A/D or drag pan, F fits the selection (the ruler's range, else the
// selected event), 0 fits everything, Esc clears the selection. Click selects, double-click on a
// merged run zooms into it.
#include <QScrollBar>
#include <QWidget>
#include <functional>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "view/lane_layout.h"
#include "view/time_axis.h"
#include "view/timeline_geometry.h"

namespace sutra::widgets {

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

class TimelineView : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineView(QWidget* parent = nullptr);
  ~TimelineView() override;

  // One trace, without a part header.
  void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const LaneLayout> layout);
  // Several, each under its header, in this order; fitted to all of them.
  void setParts(std::vector<TimelinePart> parts);
  // Appends a part (a rank that finished loading), keeping the selection, the highlights and the
  // window, unless the window showed everything: then it still does.
  void addPart(TimelinePart part);
  void clear();
  int partCount() const { return static_cast<int>(parts_.size()); }
  const TimelinePart& part(int index) const { return parts_[static_cast<std::size_t>(index)].part; }
  // Lays parts out anew (index i gets layouts[i], of the same trace): the window, the selection,
  // highlights, linked events, path edges and matches stay, as they name events, not rows; groups
  // start expanded.
  void setLayouts(const std::vector<std::shared_ptr<const LaneLayout>>& layouts);
  // Moves parts along the axis (index i gets offsets[i]); keeps everything else.
  void setPartOffsets(const std::vector<TimeNs>& offsets);
  int currentPart() const { return currentPart_; }
  void setCurrentPart(int index);
  const Trace* trace() const { return parts_.empty() ? nullptr : current().part.trace.get(); }
  const LaneLayout* layout() const {
    return parts_.empty() ? nullptr : current().part.layout.get();
  }
  // Where the ruler counts from: the earliest start of any part on the shared axis.
  TimeNs timeOrigin() const;
  // A few words after the window's span in the ruler's corner (how the parts are aligned).
  void setAxisNote(const QString& note);
  QString axisNote() const { return axisNote_; }

  TimeRange visibleRange() const { return range_; }
  // The trace's extent with a small margin: what "fit all" shows and panning stays inside.
  TimeRange boundsRange() const;
  // Widens the bounds to cover `range` too, so that views locked together (measured and simulated
  // timelines) can show the same window even where one trace ends earlier.
  void setExtraBounds(TimeRange range);
  // The label column's width; views stacked on one time axis give theirs the widest of them.
  int labelWidth() const { return labelWidth_; }
  void setMinimumLabelWidth(int width);
  void setVisibleRange(TimeRange range);
  void fitAll();
  void fitSelection();         // the range selected on the ruler where there is one, else the event
  void zoomBy(double factor);  // < 1 zooms in, around the cursor when it is over the events
  void panBy(double fraction);
  // Does what key `key` (a Qt::Key) does on the timeline (the keys above); false for another key.
  // The window's shortcuts call it, so that the keys work wherever focus is.
  bool pressKey(int key);

  EventId selectedEvent() const { return selected_.event; }
  int selectedPart() const { return selected_.part; }
  // Selects `event` of the current part (kNoEvent clears); with reveal, expands its group,
  // scrolls to its row and brings it into the window.
  void selectEvent(EventId event, bool reveal = true) { selectEvent(currentPart_, event, reveal); }
  // Selects `event` of `part`, which becomes the current part.
  void selectEvent(int part, EventId event, bool reveal = true);
  // Events of the current part to stand out (a table row's occurrences); the rest is faded.
  void setHighlighted(std::vector<EventId> events);
  const std::vector<EventId>& highlighted() const { return highlightedOn(currentPart_); }
  const std::vector<EventId>& highlightedOn(int part) const;

  // Events of several parts that are one thing (a collective's kernel on each rank): outlined and
  // joined at their starts, so that the one that started last stands out. Empty clears.
  void setLinkedEvents(std::vector<TimelineEvent> events);
  const std::vector<TimelineEvent>& linkedEvents() const { return linked_; }

  // A critical path's hops on the current part (critical_path_view.h): an arrow from the end of
  // each `first` to the start of its `second` where they lie on different rows. Empty clears.
  void setPathEdges(std::vector<std::pair<EventId, EventId>> edges);
  const std::vector<std::pair<EventId, EventId>>& pathEdges() const { return pathEdges_; }

  // Search by name in every part: a case-insensitive substring, or a regular expression.
  // Highlights every match and returns their number, or -1 for an invalid expression.
  int search(const QString& pattern, bool regex);
  void clearSearch();
  // Highlights `events` of the current part as matches (e.g. a table row's occurrences) that
  // next/previous step through.
  void showMatches(const std::vector<EventId>& events);
  // Selects the next (previous) match after (before) the selection and reveals it.
  void nextMatch();
  void previousMatch();
  int matchCount() const { return static_cast<int>(matches_.size()); }

  // The time range selected on the ruler (shaded over the lanes); empty when none.
  TimeRange selectedTimeRange() const { return timeRange_; }
  void setSelectedTimeRange(TimeRange range);
  int rulerHeight() const;
  int currentMatch() const { return currentMatch_; }

  bool isGroupCollapsed(std::uint32_t group) const { return isGroupCollapsed(currentPart_, group); }
  void setGroupCollapsed(std::uint32_t group, bool collapsed) {
    setGroupCollapsed(currentPart_, group, collapsed);
  }
  bool isGroupCollapsed(int part, std::uint32_t group) const;
  void setGroupCollapsed(int part, std::uint32_t group, bool collapsed);
  // A whole part (rank) folded to its header.
  bool isPartCollapsed(int part) const;
  void setPartCollapsed(int part, bool collapsed);
  void setAllPartsCollapsed(bool collapsed);  // every rank folded to its header, or all open

  // For tests and tools: where things are drawn, and what was drawn last.
  int eventAreaLeft() const { return labelWidth_; }
  int eventAreaWidth() const;
  int rowTop(std::uint32_t row) const { return rowTop(currentPart_, row); }  // -1 when not shown
  int rowTop(int part, std::uint32_t row) const;  // in widget coordinates, -1 when not shown
  // A row's height: thinner for a band of folded Python frames (LayoutRow::pythonFrames).
  int rowHeight(int part, std::uint32_t row) const;
  // Scrolls `row` of `part` on screen, with the rows under it, where it is not shown already.
  void revealRow(int part, std::uint32_t row);
  int counterTop(std::uint32_t counter) const;  // the same for a counter's graph (current part)
  int partHeaderTop(int part) const;  // -1 with one part (no header) or when scrolled away
  int groupHeaderTop(int part, std::uint32_t group) const;
  EventId eventAt(const QPoint& pos) const { return hitAt(pos).event; }
  TimelineEvent hitAt(const QPoint& pos) const;
  QString toolTipAt(const QPoint& pos) const;
  struct FrameStats {
    std::size_t boxes = 0;
    std::size_t runs = 0;
    std::size_t mergedEvents = 0;  // events inside runs
    std::size_t labels = 0;
  };
  FrameStats lastFrameStats() const { return stats_; }

 signals:
  void selectionChanged(sutra::EventId event);
  void eventActivated(sutra::EventId event);  // double-click on an event
  void visibleRangeChanged(sutra::TimeNs start, sutra::TimeNs end);
  void matchesChanged(int current, int total);
  // A drag on the ruler selected [start, end); a click on the ruler clears it (start == end).
  void timeRangeSelected(sutra::TimeNs start, sutra::TimeNs end);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  bool event(QEvent* event) override;

 private:
  struct Line {
    enum Kind : std::uint8_t { PartHeader, GroupHeader, Row, Counter } kind;
    std::uint16_t part;
    std::uint32_t index;  // part, group, row or counter
    int y;                // top, in content coordinates
    int height;
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
  struct Geometry;
  struct Frame;  // what the paint passes of one frame share
  struct LineRange {
    std::vector<Line>::const_iterator first, last;
  };

  const PartState& current() const { return parts_[static_cast<std::size_t>(currentPart_)]; }
  PartState makePart(TimelinePart part) const;
  void updateLabelWidth();
  bool multiPart() const { return parts_.size() > 1; }
  void rebuildLines();
  void updateScrollBar();
  void invalidateGeometry();
  const Geometry& geometry() const;
  void addRowGeometry(Geometry& g, const Line& line) const;
  LineRange visibleLines(int scroll) const;  // the lines on screen at this scroll position
  // paintEvent's passes, in the order it runs them.
  void paintBackgrounds(const Frame& f) const;
  void paintGrid(const Frame& f) const;
  static void paintBoxes(const Frame& f, const Geometry& g);
  void paintBoxLabels(const Frame& f, const Geometry& g) const;
  void paintCounters(const Frame& f) const;
  void paintCounterMarks(const Frame& f, const std::vector<CounterMark>& marks,
                         const TimeRange& local, double top, double h,
                         const std::function<double(double)>& yOf) const;
  static void paintOutlines(const Frame& f, const Geometry& g);
  void paintSelection(const Frame& f) const;
  static void paintFlowArrow(const Frame& f, QPointF a, QPointF b);
  void paintLinkedEvents(const Frame& f) const;
  void paintPathEdges(const Frame& f) const;
  void paintTimeRangeShade(const Frame& f) const;
  void paintRuler(const Frame& f) const;
  void paintCorner(const Frame& f) const;
  void paintLabelColumn(const Frame& f) const;
  void paintPartHeaderLabel(const Frame& f, const Line& line, int y, const QFont& bold) const;
  void paintGroupHeaderLabel(const Frame& f, const Line& line, int y, const QFont& bold) const;
  void paintCounterLabel(const Frame& f, const Line& line, int y) const;
  void paintRowLabel(const Frame& f, const Line& line, int y, const QFont& small) const;
  int tickX(const Frame& f, TimeNs t) const;  // a ruler tick's widget x
  std::optional<std::pair<double, double>> timeRangeXs(const Frame& f) const;
  int lineAt(int y) const;  // index into lines_ for a widget y, or -1
  // The box under a widget point, with its part and row (box null where there is none).
  struct BoxHit {
    int part = 0;
    const TimelineBox* box = nullptr;
    const TimelinePart* shown = nullptr;
    const LayoutRow* row = nullptr;
    // A merged run's first start and last end, in the part's own time.
    std::pair<TimeNs, TimeNs> runSpan() const;
  };
  BoxHit boxAt(const QPoint& pos) const;
  // The counter mark under a widget point, with its part (mark null where there is none).
  struct MarkHit {
    int part = 0;
    const CounterMark* mark = nullptr;
  };
  MarkHit markAt(const QPoint& pos) const;
  void computeSelectionFlows();
  void applyMatches(std::vector<TimelineEvent> matches);
  void applyHighlights(const std::vector<TimelineEvent>& events);
  void revealEvent(TimelineEvent event);
  double anchorX() const;
  TimeNs shownStart(const TimelineEvent& e) const;  // its start on the shared axis

  std::vector<PartState> parts_;
  int currentPart_ = 0;
  QString axisNote_;
  std::vector<Line> lines_;
  int contentHeight_ = 0;
  int labelWidth_ = 300;
  int minimumLabelWidth_ = 0;
  std::optional<TimeRange> extraBounds_;
  QScrollBar* vscroll_ = nullptr;
  TimeRange range_;

  TimelineEvent selected_;
  std::vector<std::pair<EventId, EventId>> selectionFlows_;  // in the selected part
  bool fading_ = false;                 // something is highlighted: the rest is faded
  std::vector<TimelineEvent> matches_;  // search matches by start time on the shared axis
  std::vector<TimelineEvent> linked_;   // in part order
  std::vector<std::pair<EventId, EventId>> pathEdges_;  // setPathEdges, on the current part
  int currentMatch_ = -1;

  mutable std::unique_ptr<Geometry> geometry_;
  mutable FrameStats stats_;
  QPoint pressPos_;
  TimeRange pressRange_;
  int pressScroll_ = 0;
  bool dragging_ = false;
  bool pressed_ = false;
  bool rangeDrag_ = false;  // the press was on the ruler: dragging selects a time range
  TimeRange timeRange_{0, 0};
};

}  // namespace sutra::widgets
