// SPDX-License-Identifier: MIT
#pragma once
// Fusion candidates: runs of consecutive short elementwise and reduction ops (on the CPU, a host
// thread's outermost ops; on a device, a stream's kernels) over tensors of one shape that repeat
// every step, found as HTA's frequent-pattern analysis finds kernel sequences, ranked by time.
//
// Each comes with its fix as a what-if: the run replaced by one op that moves the bytes the fused
// op must move (the largest input read once, the last op's output written once) at the rate the
// slowest member achieved (bytes moved over its time, its median over the occurrences); the other
// bound is the fastest member's rate. On the CPU the host stretch from the first member's start to
// the last one's end shrinks to that time; on a device the first kernel takes it, the others take
// none, and their launch calls are removed from the host.
#include <vector>

#include "advice/advice_scope.h"
#include "advice/finding.h"

namespace sutra {

std::vector<Finding> findFusionCandidates(const AdviceScope& scope);

}  // namespace sutra
