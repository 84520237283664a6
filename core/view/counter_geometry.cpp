// SPDX-License-Identifier: MIT
#include "view/counter_geometry.h"

#include <algorithm>
#include <cmath>

namespace sutra::view {

std::vector<CounterColumn> counterColumns(const std::vector<std::pair<TimeNs, double>>& samples,
                                          const TimeRange& range, int widthPx) {
  std::vector<CounterColumn> out;
  if (samples.empty() || widthPx <= 0 || range.span() <= 0 || samples.front().first > range.end)
    return out;
  // The sample in force at the window's start: the last one at or before it, else the first.
  auto it = std::upper_bound(samples.begin(), samples.end(), range.start,
                             [](TimeNs t, const auto& s) { return t < s.first; });
  if (it != samples.begin()) --it;
  auto columnOf = [&](TimeNs t) {
    return t <= range.start ? 0 : static_cast<int>(std::floor(timeToX(t, range, widthPx)));
  };
  double value = it->second;
  const int firstColumn = columnOf(it->first);
  ++it;
  out.reserve(static_cast<std::size_t>(widthPx - firstColumn));
  for (int col = firstColumn; col < widthPx; ++col) {
    CounterColumn c{col, value, value, value};
    for (; it != samples.end() && columnOf(it->first) <= col; ++it) {
      value = it->second;
      c.low = std::min(c.low, value);
      c.high = std::max(c.high, value);
    }
    out.push_back(c);
  }
  return out;
}

int counterMarkAt(const std::vector<CounterMark>& marks, const TimeRange& range, int widthPx,
                  double x, double tolerancePx) {
  if (widthPx <= 0 || range.span() <= 0) return -1;
  int best = -1;
  double bestDistance = tolerancePx;
  for (std::size_t i = 0; i < marks.size(); ++i) {
    if (marks[i].time < range.start || marks[i].time > range.end) continue;
    const double distance = std::abs(timeToX(marks[i].time, range, widthPx) - x);
    if (distance <= bestDistance) {
      best = static_cast<int>(i);
      bestDistance = distance;
    }
  }
  return best;
}

}  // namespace sutra::view
