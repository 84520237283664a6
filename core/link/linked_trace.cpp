// SPDX-License-Identifier: MIT
#include "link/linked_trace.h"

namespace sutra {

std::string_view LinkedTrace::keep(std::string_view text) {
  if (text.empty()) return {};
  if (!texts) texts = std::make_shared<EtStorage>(4096);
  return texts->intern(text);
}

void LinkedTrace::reindex() {
  indexById.clear();
  for (std::uint32_t i = 0; i < ops.size(); ++i) indexById.insert(ops[i].id, i);
}

}  // namespace sutra
