// SPDX-License-Identifier: MIT
#pragma once
// Times are integer nanoseconds everywhere in core: Kineto writes microseconds with three decimals
// on an epoch base (~1.7e15 us), which a double cannot hold exactly, so ordering by floats would
// let children cross their parents.
#include <cstdint>
#include <string>

namespace sutra {

using TimeNs = std::int64_t;

// A half-open interval [start, end) of trace time.
struct TimeWindow {
  TimeNs start = 0;
  TimeNs end = 0;

  bool contains(TimeNs t) const { return t >= start && t < end; }
  bool overlaps(TimeNs from, TimeNs to) const { return from < end && to > start; }
  TimeNs length() const { return end - start; }
};

// "1.234 ms", "403.3 us", "12 ns": three significant digits, unit chosen by magnitude.
std::string formatDuration(TimeNs ns);
// "1.50 MiB", "512 B": a size as the views and messages show it.
std::string formatBytes(std::int64_t bytes);

}  // namespace sutra
