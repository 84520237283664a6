// SPDX-License-Identifier: MIT
#pragma once
// Runtime set-up inside the steps: runtime or driver calls that launch nothing and wait for no
// device work, yet hold the host for kRuntimeSetupMinNs or more (the first CUDA call creating the
// context, the caching allocator asking the driver for memory with cudaMalloc, pinning host
// memory), grouped by name. They are one-off or avoidable costs, not the step's work. The fix:
// their host time removed (done once before the profiled steps, or the allocator warmed up).
#include <vector>

#include "advice/advice_scope.h"
#include "advice/finding.h"

namespace sutra {

inline constexpr TimeNs kRuntimeSetupMinNs = 100'000;

std::vector<Finding> findRuntimeSetup(const AdviceScope& scope);

}  // namespace sutra
