// SPDX-License-Identifier: MIT
#pragma once
// Optimizers that step parameter by parameter: an `Optimizer.step#Adam.step` whose ops run once per
// parameter (foreach=False) or once per op over lists (foreach=True) where torch has a fused
// kernel (fused=True: Adam, AdamW, SGD, Adagrad) that updates every parameter in one pass. The
// price replays the step with the optimizer's time replaced by that one pass: the bytes the fused
// kernel reads and writes (the parameters and, per optimizer, their gradients and states) at the
// fastest elementwise rate the rank's own ops reached, or the optimizer's cheapest op where that
// is longer.
#include <vector>

#include "advice/advice_scope.h"

namespace sutra {

std::vector<Finding> findOptimizerLoops(const AdviceScope& scope);

}  // namespace sutra
