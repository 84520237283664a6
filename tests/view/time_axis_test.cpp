// SPDX-License-Identifier: MIT
#include "view/time_axis.h"

#include <gtest/gtest.h>

namespace sutra::view {
namespace {

constexpr TimeNs kEpoch = 1'700'000'000'123'456'789;  // Kineto times are epoch-based nanoseconds

TEST(TimeAxis, MapsBothWaysAtATenNanosecondWindowOnEpochTimes) {
  const TimeRange range{kEpoch, kEpoch + 10};
  EXPECT_DOUBLE_EQ(timeToX(kEpoch, range, 1000), 0.0);
  EXPECT_DOUBLE_EQ(timeToX(kEpoch + 5, range, 1000), 500.0);
  EXPECT_DOUBLE_EQ(timeToX(kEpoch + 10, range, 1000), 1000.0);
  EXPECT_DOUBLE_EQ(timeToX(kEpoch - 1, range, 1000), -100.0);
  for (TimeNs t = kEpoch; t <= kEpoch + 10; ++t)
    EXPECT_EQ(xToTime(timeToX(t, range, 1000), range, 1000), t);
  EXPECT_EQ(xToTime(449.9, range, 1000), kEpoch + 4);
  EXPECT_EQ(xToTime(450.1, range, 1000), kEpoch + 5);
}

TEST(TimeAxis, MapsAWholeDayOntoAFewPixels) {
  const TimeNs day = 86'400'000'000'000;
  const TimeRange range{kEpoch, kEpoch + day};
  EXPECT_DOUBLE_EQ(timeToX(kEpoch + day / 2, range, 3), 1.5);
  EXPECT_EQ(xToTime(3, range, 3), kEpoch + day);
  EXPECT_EQ(xToTime(1, range, 3), kEpoch + day / 3);
}

TEST(TimeAxis, DegenerateRangesAndWidthsMapToTheStart) {
  const TimeRange empty{kEpoch, kEpoch};
  EXPECT_EQ(timeToX(kEpoch + 100, empty, 800), 0.0);
  EXPECT_EQ(xToTime(400, empty, 800), kEpoch);
  const TimeRange range{0, 1000};
  EXPECT_EQ(timeToX(500, range, 0), 0.0);
  EXPECT_EQ(xToTime(10, range, 0), 0);
  EXPECT_EQ(xToTime(std::numeric_limits<double>::quiet_NaN(), range, 100), 0);
  // Far outside the window: clamped to the representable times, not wrapped around.
  EXPECT_EQ(xToTime(1e30, {kEpoch, kEpoch + 1'000'000'000}, 1), std::numeric_limits<TimeNs>::max());
}

TEST(TimeAxis, ClampKeepsTheMinimumSpanAndStaysInsideTheBounds) {
  const TimeRange bounds{1000, 2000};
  EXPECT_EQ(clampRange({1500, 1500}, bounds, 10), (TimeRange{1495, 1505}));
  EXPECT_EQ(clampRange({1600, 1400}, bounds, 10), (TimeRange{1400, 1600}));  // reversed
  EXPECT_EQ(clampRange({900, 1100}, bounds, 10), (TimeRange{1000, 1200}));   // shifted right
  EXPECT_EQ(clampRange({1950, 2150}, bounds, 10), (TimeRange{1800, 2000}));  // shifted left
  EXPECT_EQ(clampRange({0, 5000}, bounds, 10), bounds);                      // shrunk to the bounds
  EXPECT_EQ(clampRange({1000, 1003}, bounds, 10), (TimeRange{1000, 1010}));
  // Bounds narrower than the minimum span (a one-event trace): the minimum span wins.
  EXPECT_EQ(clampRange({5, 5}, {5, 5}, 10), (TimeRange{5, 15}));
}

TEST(TimeAxis, ZoomKeepsTheAnchorInPlace) {
  const TimeRange range{kEpoch, kEpoch + 1000};
  const TimeRange in = zoomAround(range, kEpoch + 250, 0.5);
  EXPECT_EQ(in, (TimeRange{kEpoch + 125, kEpoch + 625}));
  EXPECT_DOUBLE_EQ(timeToX(kEpoch + 250, range, 1000), timeToX(kEpoch + 250, in, 1000));
  EXPECT_EQ(zoomAround(range, kEpoch, 2.0), (TimeRange{kEpoch, kEpoch + 2000}));
  EXPECT_EQ(zoomAround(range, kEpoch, 0.0), range);  // nonsense factors change nothing
  EXPECT_EQ(panByFraction(range, -0.25), (TimeRange{kEpoch - 250, kEpoch + 750}));
}

TEST(TimeAxis, TickStepsAreOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_EQ(tickStep(1'000'000'000, 1000, 100), 100'000'000);  // wanted 1e8 exactly
  EXPECT_EQ(tickStep(7'000'000, 1000, 100), 1'000'000);        // wanted 7e5 -> 1e6
  EXPECT_EQ(tickStep(1'300, 1000, 100), 200);                  // wanted 130 -> 200
  EXPECT_EQ(tickStep(400, 1000, 100), 50);                     // wanted 40 -> 50
  EXPECT_EQ(tickStep(10, 1000, 100), 1);                       // never below a nanosecond
  EXPECT_EQ(tickStep(0, 1000, 100), 1);
  EXPECT_EQ(tickStep(1000, 0, 100), 1);
}

TEST(TimeAxis, TickLabelsUseTheStepsUnit) {
  EXPECT_EQ(tickLabel(0, 1000), "0");
  EXPECT_EQ(tickLabel(250'000, 50'000), "250 us");
  EXPECT_EQ(tickLabel(1'500'000, 500'000), "1.5 ms");
  EXPECT_EQ(tickLabel(12'000'000'000, 2'000'000'000), "12 s");
  EXPECT_EQ(tickLabel(40, 20), "40 ns");
  EXPECT_EQ(tickLabel(1'200, 200), "1.2 us");
  EXPECT_EQ(tickLabel(5'000'001, 1), "5000001 ns");  // a 1 ns step keeps nanoseconds
}

TEST(TimeAxis, FirstTickCountsFromTheOriginOnEitherSideOfIt) {
  EXPECT_EQ(firstTickAtOrAfter(kEpoch + 1, kEpoch, 250), kEpoch + 250);
  EXPECT_EQ(firstTickAtOrAfter(kEpoch + 500, kEpoch, 250), kEpoch + 500);  // on a tick
  EXPECT_EQ(firstTickAtOrAfter(kEpoch, kEpoch, 250), kEpoch);
  // A window starting before the origin (a rank moved earlier): the ticks go on below it.
  EXPECT_EQ(firstTickAtOrAfter(kEpoch - 5, kEpoch, 10), kEpoch);
  EXPECT_EQ(firstTickAtOrAfter(kEpoch - 15, kEpoch, 10), kEpoch - 10);
  EXPECT_EQ(firstTickAtOrAfter(kEpoch - 20, kEpoch, 10), kEpoch - 20);
  EXPECT_EQ(firstTickAtOrAfter(kEpoch + 7, kEpoch, 0), kEpoch + 7);  // no grid
}

}  // namespace
}  // namespace sutra::view
