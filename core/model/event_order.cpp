// SPDX-License-Identifier: MIT
#include "model/event_order.h"

#include <algorithm>
#include <numeric>

namespace sutra {
namespace {

// Puts events[i] = old events[order[i]] for every i, in place, one cycle of the permutation at a
// time; `order` is spent (it becomes the identity).
void applyOrder(Event* events, std::vector<std::uint32_t>& order) {
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    if (order[i] == i) continue;
    const Event first = events[i];
    std::uint32_t at = i;
    for (;;) {
      const std::uint32_t from = order[at];
      order[at] = at;
      if (from == i) {
        events[at] = first;
        break;
      }
      // The next event to move is at order[from], anywhere in memory: fetched while this one is
      // copied (the moves are cache misses).
      __builtin_prefetch(&events[order[from]]);
      events[at] = events[from];
      at = from;
    }
  }
}

void sortByIndex(Event* first, Event* last) {
  std::vector<std::uint32_t> order(static_cast<std::size_t>(last - first));
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return startsBefore(first[a], first[b]);
  });
  applyOrder(first, order);
}

}  // namespace

void groupByLane(std::span<Event> events, std::vector<Lane>& lanes) {
  for (Lane& lane : lanes) lane.firstEvent = lane.endEvent = 0;
  // One pass finds the lanes' ranges where the events are grouped already (the Kineto reader
  // groups them as it merges), and whether they are.
  bool grouped = true;
  for (EventId i = 0; i < events.size(); ++i) {
    const LaneId lane = events[i].lane;
    if (i > 0 && lane == events[i - 1].lane) continue;
    if (i > 0) {
      grouped = grouped && lane > events[i - 1].lane;
      lanes[events[i - 1].lane].endEvent = i;
    }
    lanes[lane].firstEvent = i;
  }
  if (!events.empty()) lanes[events.back().lane].endEvent = static_cast<EventId>(events.size());
  if (grouped) return;
  std::vector<std::uint32_t> next(lanes.size() + 1, 0);  // a counting sort: stable
  for (const Event& e : events) ++next[e.lane + 1];
  for (std::size_t l = 1; l < next.size(); ++l) next[l] += next[l - 1];
  for (std::size_t l = 0; l < lanes.size(); ++l) {
    if (next[l] == next[l + 1]) continue;  // no events: [0, 0), as in the pass above
    lanes[l].firstEvent = next[l];
    lanes[l].endEvent = next[l + 1];
  }
  std::vector<std::uint32_t> order(events.size());
  for (std::uint32_t i = 0; i < events.size(); ++i) order[next[events[i].lane]++] = i;
  applyOrder(events.data(), order);
}

void sortLane(Event* first, Event* last) {
  if (last - first < 2) return;
  // Merging costs what it moves; beyond a few passes over the lane an index sort is cheaper.
  const std::size_t budget = 4 * static_cast<std::size_t>(last - first);
  std::size_t moved = 0;
  Event* sortedEnd = first + 1;
  while (sortedEnd < last && !startsBefore(*sortedEnd, sortedEnd[-1])) ++sortedEnd;
  while (sortedEnd < last) {
    Event* runEnd = sortedEnd + 1;
    while (runEnd < last && !startsBefore(*runEnd, runEnd[-1])) ++runEnd;
    // Only [from, to) is out of order: the sorted events up to `from` precede the whole run, and
    // the run's events from `to` on follow every sorted one (at a tie the earlier in the file
    // stays first, as stable sorting keeps it).
    Event* from = std::upper_bound(first, sortedEnd, *sortedEnd, startsBefore);
    Event* to = std::partition_point(
        sortedEnd, runEnd, [&](const Event& e) { return startsBefore(e, sortedEnd[-1]); });
    moved += static_cast<std::size_t>(to - from);
    if (moved > budget) {
      sortByIndex(first, last);
      return;
    }
    std::inplace_merge(from, sortedEnd, to, startsBefore);
    sortedEnd = runEnd;
  }
}

}  // namespace sutra
