// SPDX-License-Identifier: MIT
#pragma once
// Level of detail for one timeline row: the events of the visible window turned into boxes in
// pixels, where events narrower than a pixel are merged into runs that keep their count (for the
// tooltip and "double-click to zoom in"). A row is walked in O(pixels x log events), not
// O(events): the walk jumps over everything that ends inside the pixel column it has reached, so
// a ten-million-event row costs about as much as a thousand-event one at full zoom-out.
#include <cstdint>
#include <vector>

#include "view/lane_layout.h"
#include "view/time_axis.h"
#include "view/widgets_names.h"

namespace sutra::view {

struct TimelineBox {
  float x0 = 0;  // pixels from the left of the event area, clipped to just outside the view
  float x1 = 0;
  std::uint32_t row = 0;
  std::uint32_t first = 0;   // index into the row's events
  std::uint32_t count = 0;   // 1: one event; more: a run of narrow events [first, first + count)
  EventId event = kNoEvent;  // count == 1: the event, and its name (drawing reads no event)
  StringId name = 0;
};

// Rows of at least this many events get a level of detail (LayoutRow::lod), drawn at the row's
// span over kLodPixels pixels.
inline constexpr std::size_t kLodFromEvents = std::size_t{1} << 16;
inline constexpr double kLodPixels = 65536;

// The level of detail of `row`: its boxes over its whole span at `nsPerPx`, in time.
std::vector<LodItem> buildRowLevelOfDetail(const Trace& trace, const LayoutRow& row,
                                           double nsPerPx);

// A row on disk keeps its events in blocks (LayoutRow::blocks) of at most this many.
inline constexpr std::size_t kRowBlockEvents = 64;

struct GeometryOptions {
  double minBoxPx = 1.0;    // events narrower than this join a run
  double mergeGapPx = 1.0;  // a run swallows gaps up to this wide
  // false (a window's frame): where a row has blocks and the pages its visible events lie in are
  // not in memory, ask the kernel to read them and draw the blocks instead of waiting; true (an
  // image made once): read them, however long that takes.
  bool waitForDisk = false;
};

// What buildRowBoxes drew: the row's events (or its level of detail or blocks, as fine as the
// zoom shows), or, while the pages of its visible events are read in from disk, its blocks (runs
// of kRowBlockEvents): a frame with a pending row is drawn again a moment later.
enum class RowDetail : std::uint8_t { Exact, Pending };

// Appends the boxes of `row` (row number `rowIndex`) for `range` drawn `widthPx` wide, in x order;
// from the row's level of detail where the frame is zoomed out at least as far as it.
RowDetail buildRowBoxes(const Trace& trace, const LayoutRow& row, std::uint32_t rowIndex,
                        const TimeRange& range, double widthPx, std::vector<TimelineBox>& out,
                        const GeometryOptions& options = {});

}  // namespace sutra::view
