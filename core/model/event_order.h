// SPDX-License-Identifier: MIT
#pragma once
// The order of Trace::events (trace.h): grouped by lane, and inside a lane by start, the longer
// event first at equal starts (so it becomes the parent), the file's order at full ties (a child
// written before its parent with the same times keeps the file's order, the best evidence left).
#include <cstdint>
#include <span>
#include <vector>

#include "model/trace.h"

namespace sutra {

// Inside one lane: by start, then longer first.
inline bool startsBefore(const Event& x, const Event& y) {
  if (x.start != y.start) return x.start < y.start;
  return x.dur > y.dur;
}

// Groups events by lane (ascending lane id), keeping the file's order inside each lane, and sets
// each lane's [firstEvent, endEvent), [0, 0) for a lane without events (every event's lane must
// be one of `lanes`). Costs 4 bytes an event, not a second copy of the events (the readers' peak
// memory).
void groupByLane(std::span<Event> events, std::vector<Lane>& lanes);

// Sorts one lane's events [first, last) by startsBefore, stably and in place. Kineto writes a
// thread's events in a few long sorted runs (a parent after its children, a step's events after
// the step): each run is merged into the sorted part only where the two overlap, so a lane in
// order costs one pass. Where the runs overlap too much, an index sort takes over.
void sortLane(Event* first, Event* last);

}  // namespace sutra
