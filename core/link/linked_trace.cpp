// SPDX-License-Identifier: MIT
#include "link/linked_trace.h"

namespace sutra {

void LinkedTrace::reindex() {
  indexById.clear();
  indexById.reserve(ops.size());
  for (std::uint32_t i = 0; i < ops.size(); ++i) indexById.emplace(ops[i].id, i);
}

}  // namespace sutra
