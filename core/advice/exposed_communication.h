// SPDX-License-Identifier: MIT
#pragma once
// Exposed communication: the time communication kernels (NCCL, RCCL ...) run while no compute
// kernel runs on the same device, in the steps: the time the collectives add to the step. The fix,
// an upper bound: the communication hidden behind compute (bucketed and started during the
// backward, as DDP and FSDP overlap it), each communication kernel keeping only the time it
// already overlapped compute.
#include <vector>

#include "advice/advice_scope.h"
#include "advice/finding.h"

namespace sutra {

std::vector<Finding> findExposedCommunication(const AdviceScope& scope);

}  // namespace sutra
