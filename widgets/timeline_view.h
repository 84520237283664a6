// SPDX-License-Identifier: MIT
#pragma once
// The lane timeline: a QWidget that paints a LaneLayout of one Trace with level of detail.
// Geometry (boxes per row, batched by colour) is rebuilt only when the window, the size, the
// scroll position, the collapsed groups or the highlight change; hover and selection replay it.
//
// Keys: W/S or Ctrl+wheel zoom, A/D or drag pan, F fits the selection, 0 fits everything, Esc
// clears the selection. Click selects, double-click on a merged run zooms into it.
#include <QScrollBar>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "lane_layout.h"
#include "time_axis.h"
#include "timeline_geometry.h"

namespace sutra::widgets {

class TimelineView : public QWidget {
  Q_OBJECT

 public:
  explicit TimelineView(QWidget* parent = nullptr);
  ~TimelineView() override;

  void setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const LaneLayout> layout);
  void clear();
  const Trace* trace() const { return trace_.get(); }
  const LaneLayout* layout() const { return layout_.get(); }

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
  void fitSelection();
  void zoomBy(double factor);  // < 1 zooms in, around the cursor when it is over the events
  void panBy(double fraction);

  EventId selectedEvent() const { return selected_; }
  // Selects `event` (kNoEvent clears); with reveal, expands its group, scrolls to its row and
  // brings it into the window.
  void selectEvent(EventId event, bool reveal = true);
  // Events to stand out (a table row's occurrences, search matches); the rest is faded.
  void setHighlighted(std::vector<EventId> events);
  const std::vector<EventId>& highlighted() const { return highlighted_; }

  // Search by name: a case-insensitive substring, or a regular expression. Highlights every match
  // and returns their number, or -1 for an invalid expression.
  int search(const QString& pattern, bool regex);
  void clearSearch();
  // Highlights `events` as matches (e.g. a table row's occurrences) that next/previous step through.
  void showMatches(std::vector<EventId> events) { applyMatches(std::move(events)); }
  // Selects the next (previous) match after (before) the selection and reveals it.
  void nextMatch();
  void previousMatch();
  int matchCount() const { return static_cast<int>(matches_.size()); }

  // The time range selected on the ruler (shaded over the lanes); empty when none.
  TimeRange selectedTimeRange() const { return timeRange_; }
  void setSelectedTimeRange(TimeRange range);
  int rulerHeight() const;
  int currentMatch() const { return currentMatch_; }

  bool isGroupCollapsed(std::uint32_t group) const;
  void setGroupCollapsed(std::uint32_t group, bool collapsed);

  // For tests and tools: where things are drawn, and what was drawn last.
  int eventAreaLeft() const { return labelWidth_; }
  int eventAreaWidth() const;
  int rowTop(std::uint32_t row) const;  // in widget coordinates, -1 when not shown
  int counterTop(std::uint32_t counter) const;  // the same for a counter's graph
  EventId eventAt(const QPoint& pos) const;
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
    enum Kind : std::uint8_t { GroupHeader, Row, Counter } kind;
    std::uint32_t index;  // group, row or counter
    int y;                // top, in content coordinates
    int height;
  };
  struct Geometry;

  void rebuildLines();
  void updateScrollBar();
  void invalidateGeometry();
  const Geometry& geometry() const;
  int lineAt(int y) const;  // index into lines_ for a widget y, or -1
  const TimelineBox* boxAt(const QPoint& pos) const;
  void computeSelectionFlows();
  void applyMatches(std::vector<EventId> matches);
  void revealEvent(EventId event);
  double anchorX() const;

  std::shared_ptr<const Trace> trace_;
  std::shared_ptr<const LaneLayout> layout_;
  std::vector<std::uint8_t> nameColour_;  // per StringId
  mutable std::vector<QString> nameText_;  // per StringId, filled as labels need them
  std::vector<bool> collapsed_;           // per group
  std::vector<Line> lines_;
  std::vector<int> rowLine_;  // per row: its line, or -1 while its group is collapsed
  int contentHeight_ = 0;
  int labelWidth_ = 300;
  int minimumLabelWidth_ = 0;
  std::optional<TimeRange> extraBounds_;
  QScrollBar* vscroll_ = nullptr;
  TimeRange range_;

  EventId selected_ = kNoEvent;
  std::vector<std::pair<EventId, EventId>> selectionFlows_;
  std::vector<EventId> highlighted_;
  std::vector<bool> highlightMask_;  // per event, empty when nothing is highlighted
  std::vector<EventId> matches_;     // search matches by start time
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
