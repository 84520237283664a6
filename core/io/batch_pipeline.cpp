// SPDX-License-Identifier: MIT
#include "io/batch_pipeline.h"

#include <algorithm>

namespace sutra {

unsigned parseWorkerCount() {
  // Measured on 2 cores: two parse workers beside the scanner beat one (the scanner is the lighter
  // stage and the OS shares the cores among the three).
  return std::clamp(std::thread::hardware_concurrency(), 1u, 8u);
}

}  // namespace sutra
