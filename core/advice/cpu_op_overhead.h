// SPDX-License-Identifier: MIT
#pragma once
// CPU operator overhead: outermost ops whose CPU time is mostly dispatch around a tiny kernel (an
// op that launched device work of at most kTinyKernelNs, and spent at least kOverheadRatio times
// that on the host outside its runtime calls), grouped by name. The fix: the launches without the
// dispatch around them (a CUDA graph, or the ops fused into fewer): each op's host time beyond its
// runtime calls removed. A runtime call inside it that launches nothing (a blocking wait, a
// cudaMalloc, the context's creation) is not dispatch: other findings price it.
#include <vector>

#include "advice/advice_scope.h"
#include "advice/finding.h"

namespace sutra {

inline constexpr TimeNs kTinyKernelNs = 10'000;
inline constexpr double kOverheadRatio = 4.0;

std::vector<Finding> findCpuOpOverhead(const AdviceScope& scope);

}  // namespace sutra
