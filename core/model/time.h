// SPDX-License-Identifier: MIT
#pragma once
// Times are integer nanoseconds everywhere in core: Kineto writes microseconds with three decimals
// on an epoch base (~1.7e15 us), which a double cannot hold exactly, so ordering by floats would
// let children cross their parents.
#include <cstdint>
#include <string>

namespace sutra {

using TimeNs = std::int64_t;

// "1.234 ms", "403.3 us", "12 ns": three significant digits, unit chosen by magnitude.
std::string formatDuration(TimeNs ns);

}  // namespace sutra
