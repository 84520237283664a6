// SPDX-License-Identifier: MIT
#include "view/timeline_geometry.h"

#include <algorithm>
#include <cmath>

namespace sutra::view {

void buildRowBoxes(const Trace& trace, const LayoutRow& row, std::uint32_t rowIndex,
                   const TimeRange& range, double widthPx, std::vector<TimelineBox>& out,
                   const GeometryOptions& options) {
  const std::size_t n = row.events.size();
  if (n == 0 || range.span() <= 0 || widthPx <= 0) return;
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

  std::size_t i = row.firstEndingAtOrAfter(range.start);
  while (i < n) {
    const Event& e = events[row.events[i]];
    if (e.start > range.end) break;
    const double x0 = xOf(e.start);
    const double x1 = xOf(e.end());
    if (x1 - x0 >= options.minBoxPx) {
      out.push_back({clip(x0), clip(x1), rowIndex, static_cast<std::uint32_t>(i), 1});
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
          row.firstEndingAfter(next, lastTimeBefore(std::floor(runEnd) + 1.0));
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
    out.push_back({clip(x0), clip(std::max(runEnd, x0 + 1.0)), rowIndex,
                   static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(next - first)});
    i = next;
  }
}

}  // namespace sutra::view
