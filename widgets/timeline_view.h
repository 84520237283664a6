// SPDX-License-Identifier: MIT
#pragma once
// The lane timeline: a QWidget that paints the LaneLayout of one Trace, or of several (the ranks
// of a run, each a "part" under its own collapsible header, one above the other on one time
// axis), with level of detail. Geometry (boxes per row, batched by colour) is rebuilt only when
// the window, the size, the scroll position, the collapsed groups or the highlight change; hover
// and selection replay it. Only the rows on screen are walked, so a frame costs the same whether
// one rank or sixteen are loaded.
//
// As Tracy's timeline, it is a controller and items. TimelineView is the controller: it keeps the
// view's state in a TimelineScene (timeline_scene.h: the parts, their lines, the window, the
// scroll position), takes the input (zoom, pan, clicks, keys), keeps the selection, highlights
// and search matches (view/timeline_search.h finds and orders them, without Qt), and hands each
// paint pass and hit test to the item of that kind of line: TimelineEventRows (threads' and
// streams' rows, folded Python frames), TimelineCounterLanes, TimelineHeaders, TimelineOverlays
// (selection and flows, linked events, path edges) and TimelineRuler.
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
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "timeline_counter_lanes.h"
#include "timeline_event_rows.h"
#include "timeline_headers.h"
#include "timeline_overlays.h"
#include "timeline_ruler.h"
#include "timeline_scene.h"
#include "view/lane_layout.h"
#include "view/time_axis.h"
#include "view/timeline_geometry.h"
#include "view/timeline_search.h"

class QTimer;

namespace sutra::widgets {

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
  int partCount() const { return static_cast<int>(scene_.parts.size()); }
  const TimelinePart& part(int index) const { return scene_.part(index).part; }
  // Lays parts out anew (index i gets layouts[i], of the same trace): the window, the selection,
  // highlights, linked events, path edges and matches stay, as they name events, not rows; groups
  // start expanded.
  void setLayouts(const std::vector<std::shared_ptr<const LaneLayout>>& layouts);
  // Moves parts along the axis (index i gets offsets[i]); keeps everything else.
  void setPartOffsets(const std::vector<TimeNs>& offsets);
  int currentPart() const { return currentPart_; }
  void setCurrentPart(int index);
  const Trace* trace() const { return scene_.parts.empty() ? nullptr : current().part.trace.get(); }
  const LaneLayout* layout() const {
    return scene_.parts.empty() ? nullptr : current().part.layout.get();
  }
  // Where the ruler counts from: the earliest start of any part on the shared axis.
  TimeNs timeOrigin() const;
  // A few words after the window's span in the ruler's corner (how the parts are aligned).
  void setAxisNote(const QString& note);
  QString axisNote() const { return axisNote_; }

  TimeRange visibleRange() const { return scene_.range; }
  // The trace's extent with a small margin: what "fit all" shows and panning stays inside.
  TimeRange boundsRange() const;
  // Widens the bounds to cover `range` too, so that views locked together (measured and simulated
  // timelines) can show the same window even where one trace ends earlier.
  void setExtraBounds(TimeRange range);
  // The label column's width; views stacked on one time axis give theirs the widest of them.
  int labelWidth() const { return scene_.labelWidth; }
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
  int matchCount() const { return matches_.size(); }

  // The time range selected on the ruler (shaded over the lanes); empty when none.
  TimeRange selectedTimeRange() const { return timeRange_; }
  void setSelectedTimeRange(TimeRange range);
  int rulerHeight() const;
  int currentMatch() const { return matches_.current(); }

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
  int eventAreaLeft() const { return scene_.labelWidth; }
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
  using FrameStats = TimelineFrameStats;
  FrameStats lastFrameStats() const { return rows_.lastFrameStats(); }
  // How long a frame with rows waiting on the disk waits before it is drawn again.
  static constexpr int kDetailRetryMs = 15;

 signals:
  void selectionChanged(sutra::EventId event);
  // The same, with the part the event is on (the window knows which rank a part shows).
  void partSelectionChanged(int part, sutra::EventId event);
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
  using Line = TimelineScene::Line;
  using PartState = TimelineScene::PartState;

  const PartState& current() const { return scene_.part(currentPart_); }
  // The scene with the widget's size, scroll position and font as they are now.
  const TimelineScene& scene() const;
  void updateLabelWidth();
  void rebuildLines();
  void updateScrollBar();
  void invalidateGeometry() { rows_.invalidate(); }
  void paintLabelColumn(const TimelineFrame& f) const;
  void computeSelectionFlows();
  std::vector<SearchPart> searchParts() const;
  void applyMatches(TimelineMatches matches);
  void applyHighlights(const std::vector<TimelineEvent>& events);
  void stepToMatch(int index);
  void revealEvent(TimelineEvent event);
  double anchorX() const;
  TimeNs shownStart(const TimelineEvent& e) const;  // its start on the shared axis

  mutable TimelineScene scene_;  // the size, scroll and font fields follow the widget (scene())
  TimelineEventRows rows_{scene_};
  TimelineCounterLanes counters_{scene_};
  TimelineHeaders headers_{scene_};
  TimelineOverlays overlays_{scene_};
  TimelineRuler ruler_{scene_};
  int currentPart_ = 0;
  QString axisNote_;
  int minimumLabelWidth_ = 0;
  std::optional<TimeRange> extraBounds_;
  QScrollBar* vscroll_ = nullptr;
  // Rows of the last frame drawn from their blocks while their pages are read in from disk: the
  // frame is drawn again when this fires (once per kDetailRetryMs while any row is pending).
  QTimer* detailRetry_ = nullptr;

  TimelineEvent selected_;
  std::vector<std::pair<EventId, EventId>> selectionFlows_;  // in the selected part
  TimelineMatches matches_;                                  // ordered on the shared axis
  std::vector<TimelineEvent> linked_;                        // in part order
  std::vector<std::pair<EventId, EventId>> pathEdges_;       // setPathEdges, on the current part

  QPoint pressPos_;
  TimeRange pressRange_;
  int pressScroll_ = 0;
  bool dragging_ = false;
  bool pressed_ = false;
  bool rangeDrag_ = false;  // the press was on the ruler: dragging selects a time range
  TimeRange timeRange_{0, 0};
};

}  // namespace sutra::widgets
