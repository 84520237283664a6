// SPDX-License-Identifier: MIT
#include "io/batch_pipeline.h"

#include <algorithm>

namespace sutra {

unsigned parseWorkerCount() {
  // The calling thread scans and parses too (batch_pipeline.h): one worker per other core.
  return std::clamp(std::thread::hardware_concurrency(), 2u, 9u) - 1;
}

}  // namespace sutra
