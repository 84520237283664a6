// SPDX-License-Identifier: MIT
#pragma once
// An op's index in LinkedTrace::ops from its id, without the hash map where it can: ids are
// numbered from 0 (ET+ ids) and ops are sorted by id, so an op's id is usually its index. The
// converter looks ops up by id a few times per op; the hash was a tenth of its time.
#include <cstdint>

#include "link/linked_trace.h"

namespace sutra::chakra {

// The index of the op with this id, or -1.
inline std::int64_t opIndexOf(const LinkedTrace& linked, std::int64_t id) {
  if (id >= 0 && static_cast<std::uint64_t>(id) < linked.ops.size() &&
      linked.ops[static_cast<std::size_t>(id)].id == id)
    return id;
  const auto it = linked.indexById.find(id);
  return it == linked.indexById.end() ? -1 : static_cast<std::int64_t>(it->second);
}

// The op with this id, or null.
inline const LinkedOp* findOp(const LinkedTrace& linked, std::int64_t id) {
  const std::int64_t i = opIndexOf(linked, id);
  return i < 0 ? nullptr : &linked.ops[static_cast<std::size_t>(i)];
}

}  // namespace sutra::chakra
