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
  std::uint32_t first = 0;  // index into the row's events
  std::uint32_t count = 0;  // 1: one event; more: a run of narrow events [first, first + count)
};

struct GeometryOptions {
  double minBoxPx = 1.0;    // events narrower than this join a run
  double mergeGapPx = 1.0;  // a run swallows gaps up to this wide
};

// Appends the boxes of `row` (row number `rowIndex`) for `range` drawn `widthPx` wide, in x order.
void buildRowBoxes(const Trace& trace, const LayoutRow& row, std::uint32_t rowIndex,
                   const TimeRange& range, double widthPx, std::vector<TimelineBox>& out,
                   const GeometryOptions& options = {});

}  // namespace sutra::view
