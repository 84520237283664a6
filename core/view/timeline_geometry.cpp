// SPDX-License-Identifier: MIT
#include "view/timeline_geometry.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "util/page_residency.h"

namespace sutra::view {

namespace {

// The boxes from items of the row kept in memory (its level of detail or its blocks): the same
// merging as over its events.
void boxesFromItems(const std::vector<LodItem>& items, std::uint32_t rowIndex,
                    const TimeRange& range, double widthPx, std::vector<TimelineBox>& out,
                    const GeometryOptions& options) {
  const double scale = widthPx / static_cast<double>(range.span());
  auto xOf = [&](TimeNs t) { return static_cast<double>(t - range.start) * scale; };
  const float lo = -2.0f;
  const auto hi = static_cast<float>(widthPx + 2.0);
  auto clip = [&](double x) { return std::clamp(static_cast<float>(x), lo, hi); };
  // Items come in start order; one that starts earlier may still reach into the window.
  auto k = static_cast<std::size_t>(
      std::lower_bound(items.begin(), items.end(), range.start,
                       [](const LodItem& item, TimeNs t) { return item.start < t; }) -
      items.begin());
  while (k > 0 && items[k - 1].end >= range.start) --k;
  bool inRun = false;
  double runX0 = 0, runEnd = 0;
  std::uint32_t runFirst = 0, runCount = 0;
  const LodItem* runItem = nullptr;  // the run's first item: its event where the run has one
  auto flush = [&] {
    if (inRun)
      out.push_back({clip(runX0), clip(std::max(runEnd, runX0 + 1.0)), rowIndex, runFirst, runCount,
                     runCount == 1 ? runItem->event : kNoEvent,
                     runCount == 1 ? runItem->name : StringId{0}});
    inRun = false;
  };
  for (; k < items.size() && items[k].start <= range.end; ++k) {
    const LodItem& item = items[k];
    const double x0 = xOf(item.start);
    const double x1 = xOf(item.end);
    if (item.count == 1 && x1 - x0 >= options.minBoxPx) {
      flush();
      out.push_back({clip(x0), clip(x1), rowIndex, item.first, 1, item.event, item.name});
      continue;
    }
    if (inRun && x0 - runEnd <= options.mergeGapPx && runFirst + runCount == item.first) {
      runEnd = std::max(runEnd, x1);
      runCount += item.count;
      continue;
    }
    flush();
    inRun = true;
    runX0 = x0;
    runEnd = x1;
    runFirst = item.first;
    runCount = item.count;
    runItem = &item;
  }
  flush();
}

// The row's events a frame over `range` can draw lie in [first, end): found in the row's blocks
// (in memory), so that nothing of the row is read before its pages are known to be in memory.
struct RowWindow {
  std::size_t first = 0;
  std::size_t end = 0;
};
RowWindow windowFromBlocks(const LayoutRow& row, const TimeRange& range) {
  const auto& blocks = row.blocks;
  // Blocks start in order and their ends (running maxima) never decrease.
  const auto from = std::partition_point(blocks.begin(), blocks.end(),
                                         [&](const LodItem& b) { return b.end < range.start; });
  if (from == blocks.end()) return {row.events.size(), row.events.size()};
  const auto to = std::partition_point(from, blocks.end(),
                                       [&](const LodItem& b) { return b.start <= range.end; });
  return {from->first, to == blocks.end() ? row.events.size() : std::size_t{to->first}};
}

// Whether every page the walk over [w.first, w.end) reads is in memory: the row's two slices and
// each visible event. Where one is not, asks the kernel to read what is missing and says false.
bool windowInMemory(const Trace& trace, const LayoutRow& row, RowWindow w) {
  if (w.end <= w.first) return true;
  const std::size_t count = w.end - w.first;
  const EventId* ids = row.events.data() + w.first;
  const TimeNs* ends = row.maxEnd.data() + w.first;
  if (!pagesInMemory(ids, count * sizeof(EventId)) ||
      !pagesInMemory(ends, count * sizeof(TimeNs))) {
    readPagesAhead(ids, count * sizeof(EventId));
    readPagesAhead(ends, count * sizeof(TimeNs));
    return false;
  }
  if (!trace.events.isExternal()) return true;
  // The events in clusters of near neighbours, each asked about as one range: a deep row's events
  // lie far apart among their lane's, and asking about every page between them would cost more
  // than the frame. A sparse row's thousands of clusters are asked about by a sample of
  // kAskedClusters (a call each, about a microsecond): where one of the sample is missing, its
  // neighbours up to the next are read ahead too. What the sample misses is read by the walk.
  constexpr std::size_t kNear = 4096 / sizeof(Event) * 4;  // within four pages
  constexpr std::size_t kAskedClusters = 256;
  const Event* events = trace.events.data();
  std::vector<std::pair<const Event*, std::size_t>> clusters;  // first event, bytes
  for (std::size_t from = 0; from < count;) {
    std::size_t to = from + 1;
    while (to < count && ids[to] >= ids[to - 1] && ids[to] - ids[to - 1] <= kNear) ++to;
    const Event* lo = events + ids[from];
    clusters.emplace_back(lo,
                          static_cast<std::size_t>(events + ids[to - 1] + 1 - lo) * sizeof(Event));
    from = to;
  }
  const std::size_t stride = (clusters.size() + kAskedClusters - 1) / kAskedClusters;
  bool all = true;
  for (std::size_t c = 0; c < clusters.size(); c += stride) {
    if (pagesInMemory(clusters[c].first, clusters[c].second)) continue;
    all = false;
    for (std::size_t k = c; k < std::min(c + stride, clusters.size()); ++k)
      readPagesAhead(clusters[k].first, clusters[k].second);
  }
  return all;
}

}  // namespace

std::vector<LodItem> buildRowLevelOfDetail(const Trace& trace, const LayoutRow& row,
                                           double nsPerPx) {
  std::vector<LodItem> items;
  if (row.events.empty() || nsPerPx <= 0) return items;
  const TimeRange whole{trace.events[row.events[0]].start, row.maxEnd[row.events.size() - 1]};
  if (whole.span() <= 0) return items;
  LayoutRow plain;  // the row without a level of detail: the boxes come from its events
  plain.events = row.events;
  plain.maxEnd = row.maxEnd;
  std::vector<TimelineBox> boxes;
  buildRowBoxes(trace, plain, 0, whole, static_cast<double>(whole.span()) / nsPerPx, boxes);
  items.reserve(boxes.size());
  for (const TimelineBox& b : boxes) {
    const Event& first = trace.events[row.events[b.first]];
    items.push_back({first.start, b.count == 1 ? first.end() : row.maxEnd[b.first + b.count - 1],
                     b.first, b.count, b.count == 1 ? row.events[b.first] : kNoEvent,
                     b.count == 1 ? first.name : StringId{0}});
  }
  return items;
}

RowDetail buildRowBoxes(const Trace& trace, const LayoutRow& row, std::uint32_t rowIndex,
                        const TimeRange& range, double widthPx, std::vector<TimelineBox>& out,
                        const GeometryOptions& options) {
  if (row.events.empty() || range.span() <= 0 || widthPx <= 0) return RowDetail::Exact;
  if (!row.lod.empty() && static_cast<double>(range.span()) / widthPx >= row.lodNsPerPx) {
    boxesFromItems(row.lod, rowIndex, range, widthPx, out, options);
    return RowDetail::Exact;
  }
  RowWindow window{0, row.events.size()};
  if (!row.blocks.empty()) {
    window = windowFromBlocks(row, range);
    // Zoomed out as far as the blocks' resolution: they are as fine as the eye can tell (no gap
    // inside one is a pixel wide), and reading the events would fetch pages by the thousand.
    if (row.lod.empty() && static_cast<double>(range.span()) / widthPx >= row.blockNsPerPx) {
      boxesFromItems(row.blocks, rowIndex, range, widthPx, out, options);
      return RowDetail::Exact;
    }
    if (!options.waitForDisk && !windowInMemory(trace, row, window)) {
      boxesFromItems(row.blocks, rowIndex, range, widthPx, out, options);
      return RowDetail::Pending;
    }
  }
  const std::size_t n = window.end;  // the walk reads nothing past the window
  const double scale = widthPx / static_cast<double>(range.span());  // pixels per nanosecond
  // Offsets from range.start are exact in 64 bits; only they go to floating point.
  auto xOf = [&](TimeNs t) { return static_cast<double>(t - range.start) * scale; };
  // The last nanosecond that still falls before pixel x (x stays near the view, so no overflow).
  auto lastTimeBefore = [&](double x) {
    return range.start + static_cast<TimeNs>(std::ceil(x / scale)) - 1;
  };
  const float lo = -2.0f;
  const auto hi = static_cast<float>(widthPx + 2.0);
  auto clip = [&](double x) { return std::clamp(static_cast<float>(x), lo, hi); };
  const auto& events = trace.events;

  std::size_t i = row.firstEndingAtOrAfter(range.start, window.first, n);
  while (i < n) {
    const Event& e = events[row.events[i]];
    if (e.start > range.end) break;
    const double x0 = xOf(e.start);
    const double x1 = xOf(e.end());
    if (x1 - x0 >= options.minBoxPx) {
      out.push_back(
          {clip(x0), clip(x1), rowIndex, static_cast<std::uint32_t>(i), 1, row.events[i], e.name});
      ++i;
      continue;
    }
    // A run: everything that ends inside the run's last pixel column joins it in one jump; then
    // the next event joins if it is narrow and close, which moves the run at least a pixel on.
    const std::size_t first = i;
    double runEnd = x1;
    std::size_t next = i + 1;
    while (next < n) {
      const std::size_t jumped =
          row.firstEndingAfter(next, lastTimeBefore(std::floor(runEnd) + 1.0), n);
      if (jumped > next) runEnd = std::max(runEnd, xOf(row.maxEnd[jumped - 1]));
      next = jumped;
      if (next >= n) break;
      const Event& f = events[row.events[next]];
      if (f.start > range.end) break;
      const double fx0 = xOf(f.start);
      const double fx1 = xOf(f.end());
      if (fx0 - runEnd > options.mergeGapPx || fx1 - fx0 >= options.minBoxPx) break;
      runEnd = std::max(runEnd, fx1);
      ++next;
    }
    const auto count = static_cast<std::uint32_t>(next - first);
    out.push_back({clip(x0), clip(std::max(runEnd, x0 + 1.0)), rowIndex,
                   static_cast<std::uint32_t>(first), count,
                   count == 1 ? row.events[first] : kNoEvent, count == 1 ? e.name : StringId{0}});
    i = next;
  }
  return RowDetail::Exact;
}

}  // namespace sutra::view
