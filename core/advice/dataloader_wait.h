// SPDX-License-Identifier: MIT
#pragma once
// The data loader's wait in the steps: the outermost events on the step's thread whose name holds
// "dataloader" (PyTorch's `enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__`), the
// time the step spent fetching its batch before any work. The fix: the batch ready when asked
// (loaded ahead by worker processes, num_workers > 0, with pinned memory): that host time removed.
#include <vector>

#include "advice/advice_scope.h"
#include "advice/finding.h"

namespace sutra {

std::vector<Finding> findDataLoaderWaits(const AdviceScope& scope);

}  // namespace sutra
