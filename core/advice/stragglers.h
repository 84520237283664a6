// SPDX-License-Identifier: MIT
#pragma once
// Stragglers: the rank that arrived last at the run's collectives (matched across ranks by
// core/session/run_collectives.h, on the ranks' aligned clocks), and how long the others waited
// for it. The evidence is the late rank's collective ops. Not priced: a late arrival's cause (a
// late launch, slower work before it on that rank) is what the evidence shows, and no what-if
// here moves an arrival by itself.
#include <vector>

#include "advice/finding.h"
#include "session/run.h"

namespace sutra {

// Arrivals later than the next-latest rank's by less than this are not a straggler's.
inline constexpr TimeNs kStragglerMinNs = 5'000;

std::vector<Finding> findStragglers(const Run& run);

}  // namespace sutra
