// SPDX-License-Identifier: MIT
#pragma once
// Blocking synchronisations inside a step: a host call (cudaStreamSynchronize,
// cudaDeviceSynchronize, cudaEventSynchronize, a synchronous cudaMemcpy as `.item()` makes) that
// waited for device work (core/link/sync_dependencies.h), grouped by the call and the op that made
// it. The fix turns each into an event wait: the host goes on, the device order is kept.
#include <vector>

#include "advice/advice_scope.h"
#include "advice/finding.h"

namespace sutra {

// Calls that blocked for less are not worth a finding.
inline constexpr TimeNs kBlockingSyncMinNs = 10'000;

std::vector<Finding> findBlockingSyncs(const AdviceScope& scope);

}  // namespace sutra
