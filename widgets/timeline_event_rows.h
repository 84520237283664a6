// SPDX-License-Identifier: MIT
#pragma once
// The timeline's event rows: the item that draws every LayoutRow of the scene, a host thread's
// framework and runtime rows as a device stream's (they are one kind of lane: events nested by
// depth), and a thread's band of folded Python frames, thinner and without names. Per frame it
// turns the rows on screen into boxes (timeline_geometry.h: level of detail, runs of sub-pixel
// events), batched by colour, with the names that fit and the outlines of highlighted events; the
// boxes are kept until the window, the size, the scroll position or the lines change, so hover
// and selection replay them. It answers which event is under a point, and its tooltip.
#include <QPoint>
#include <QRectF>
#include <QString>
#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "timeline_scene.h"
#include "view/timeline_geometry.h"
#include "view/timeline_palette.h"

namespace sutra::widgets {

struct TimelineFrameStats {
  std::size_t boxes = 0;
  std::size_t runs = 0;
  std::size_t mergedEvents = 0;  // events inside runs
  std::size_t labels = 0;
  // Rows drawn from their blocks while the pages of their events are read in from disk: the
  // frame is drawn again shortly (TimelineView), until none is.
  std::size_t pendingRows = 0;
};

class TimelineEventRows {
 public:
  explicit TimelineEventRows(const TimelineScene& scene);
  ~TimelineEventRows();

  // The boxes are built anew on the next frame (the lines, the highlight or the labels changed).
  void invalidate();
  // The boxes, their names and the highlighted events' outlines, clipped to the event area.
  void paint(const TimelineFrame& f) const;
  // A row's label: a track's first row its band colour and label, its second the thread's name;
  // a band of folded Python frames how deep they go.
  void paintLabel(const TimelineFrame& f, const TimelineScene::Line& line) const;

  // The box under a widget point, with its part and row (box null where there is none).
  struct Hit {
    int part = 0;
    const TimelineBox* box = nullptr;
    const TimelinePart* shown = nullptr;
    const LayoutRow* row = nullptr;
    // A merged run's first start and last end, in the part's own time.
    std::pair<TimeNs, TimeNs> runSpan() const;
  };
  Hit boxAt(const QPoint& pos) const;
  // The event under a point: a box's, or in a run the one that starts last at or before it.
  TimelineEvent eventAt(const QPoint& pos) const;
  // `origin`: where the ruler counts from, on the shared axis.
  QString toolTip(const Hit& hit, TimeNs origin) const;
  TimelineFrameStats lastFrameStats() const { return stats_; }

 private:
  struct Geometry;
  const Geometry& geometry() const;
  void addRowGeometry(Geometry& g, const TimelineScene::Line& line,
                      const GeometryOptions& options) const;

  const TimelineScene& scene_;
  mutable std::unique_ptr<Geometry> geometry_;
  mutable TimelineFrameStats stats_;
  // The view whose frames have had rows waiting on the disk, and for how many frames in a row:
  // after kPatienceFrames the next one reads what it needs however long that takes (pages that
  // do not all fit in memory at once would otherwise keep the rows waiting for ever).
  static constexpr int kPatienceFrames = 20;
  struct PendingView {
    TimeRange range;
    int width = -1, height = -1, scroll = -1;
    int frames = 0;
  };
  mutable PendingView pending_;
};

}  // namespace sutra::widgets
