// SPDX-License-Identifier: MIT
#pragma once
// Host-bound steps: the device idle (no device op on any stream of the rank) while the host had
// not yet launched the next op: the launch queue was empty and the device waited for the host.
// The evidence is the next op the device waited for and the host ops that ran on the launching
// thread in the meantime. The fix takes that host time out of the launching thread's stretch from
// the device going idle to the launch (as a CUDA graph, or the work moved off that thread, would).
#include <vector>

#include "advice/advice_scope.h"
#include "advice/finding.h"

namespace sutra {

// Gaps shorter than this are launch latency, not a host that fell behind.
inline constexpr TimeNs kHostBoundMinGapNs = 5'000;

std::vector<Finding> findHostBoundSteps(const AdviceScope& scope);

}  // namespace sutra
