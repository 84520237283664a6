// SPDX-License-Identifier: MIT
#include "view/time_axis.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace sutra::view {

double timeToX(TimeNs t, const TimeRange& range, double widthPx) {
  const TimeNs span = range.span();
  if (span <= 0 || widthPx <= 0) return 0.0;
  // The difference is exact in 64 bits for any two times of one trace; only then go to floating
  // point, so a 10 ns window on an epoch-based (1.7e18 ns) trace keeps its precision.
  const long double offset = static_cast<long double>(t) - static_cast<long double>(range.start);
  return static_cast<double>(offset * widthPx / span);
}

TimeNs xToTime(double x, const TimeRange& range, double widthPx) {
  const TimeNs span = range.span();
  if (span <= 0 || widthPx <= 0 || !std::isfinite(x)) return range.start;
  const long double offset = static_cast<long double>(x) * span / widthPx;
  const long double t = static_cast<long double>(range.start) + std::roundl(offset);
  constexpr auto lo = static_cast<long double>(std::numeric_limits<TimeNs>::min());
  constexpr auto hi = static_cast<long double>(std::numeric_limits<TimeNs>::max());
  return static_cast<TimeNs>(std::clamp(t, lo, hi));
}

TimeRange clampRange(TimeRange wanted, const TimeRange& bounds, TimeNs minSpan) {
  minSpan = std::max<TimeNs>(minSpan, 1);
  if (wanted.end < wanted.start) std::swap(wanted.start, wanted.end);
  if (wanted.span() < minSpan) {
    const TimeNs centre = wanted.start + wanted.span() / 2;
    wanted.start = centre - minSpan / 2;
    wanted.end = wanted.start + minSpan;
  }
  const TimeNs boundsSpan = std::max<TimeNs>(bounds.span(), minSpan);
  if (wanted.span() > boundsSpan) wanted = {bounds.start, bounds.start + boundsSpan};
  if (wanted.start < bounds.start) {
    wanted = {bounds.start, bounds.start + wanted.span()};
  } else if (wanted.end > bounds.start + boundsSpan) {
    const TimeNs span = wanted.span();
    wanted.end = bounds.start + boundsSpan;
    wanted.start = wanted.end - span;
  }
  return wanted;
}

TimeRange zoomAround(const TimeRange& range, TimeNs anchor, double factor) {
  if (!(factor > 0) || !std::isfinite(factor)) return range;
  const long double before = static_cast<long double>(anchor) - range.start;
  const long double after = static_cast<long double>(range.end) - anchor;
  return {anchor - static_cast<TimeNs>(std::roundl(before * factor)),
          anchor + static_cast<TimeNs>(std::roundl(after * factor))};
}

TimeRange panByFraction(const TimeRange& range, double fraction) {
  const auto delta =
      static_cast<TimeNs>(std::llround(static_cast<double>(range.span()) * fraction));
  return {range.start + delta, range.end + delta};
}

TimeNs tickStep(TimeNs span, double widthPx, double minPxPerTick) {
  if (span <= 0 || widthPx <= 0) return 1;
  const double wanted = static_cast<double>(span) * std::max(minPxPerTick, 1.0) / widthPx;
  TimeNs power = 1;
  while (true) {
    for (TimeNs mult : {1, 2, 5})
      if (static_cast<double>(power * mult) >= wanted) return power * mult;
    if (power > std::numeric_limits<TimeNs>::max() / 100) return power * 10;
    power *= 10;
  }
}

TimeNs firstTickAtOrAfter(TimeNs start, TimeNs origin, TimeNs step) {
  if (step <= 0) return start;
  const TimeNs offset = start - origin;
  TimeNs k = offset / step;  // rounded towards zero: up for a start before the origin
  if (k * step < offset) ++k;
  return origin + k * step;
}

std::string tickLabel(TimeNs offset, TimeNs step) {
  if (offset == 0) return "0";
  struct Unit {
    TimeNs ns;
    const char* name;
  };
  constexpr Unit kUnits[] = {{1'000'000'000, "s"}, {1'000'000, "ms"}, {1'000, "us"}, {1, "ns"}};
  // The unit follows the step (a tenth of the unit or more), so every label of one ruler has the
  // same unit and no more decimals than the step needs: "0.2 ms", "10 us", "1.5 s".
  Unit unit = kUnits[3];
  for (const auto& u : kUnits)
    if (step > u.ns / 10) {
      unit = u;
      break;
    }
  int decimals = 0;
  for (TimeNs resolution = unit.ns; resolution > step && decimals < 9; resolution /= 10) ++decimals;
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f %s", decimals,
                static_cast<double>(offset) / static_cast<double>(unit.ns), unit.name);
  return buffer;
}

}  // namespace sutra::view
