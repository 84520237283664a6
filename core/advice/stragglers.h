// SPDX-License-Identifier: MIT
#pragma once
// Stragglers: the rank that arrived last at the run's collectives (matched across ranks by
// core/session/run_collectives.h, on the ranks' aligned clocks), and how long the others waited
// for it. The evidence is the late rank's collective ops and the ops on the chain that set each
// late arrival (the rank's simulation graph walked back over the edges that were tight as
// measured); the price replays the run with that chain's work shortened by the lateness, so the
// rank arrives with the next-latest one.
#include <vector>

#include "advice/finding.h"
#include "session/run.h"

namespace sutra {

// Arrivals later than the next-latest rank's by less than this are not a straggler's.
inline constexpr TimeNs kStragglerMinNs = 5'000;

std::vector<Finding> findStragglers(const Run& run);

}  // namespace sutra
