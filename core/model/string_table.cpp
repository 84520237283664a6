// SPDX-License-Identifier: MIT
#include "model/string_table.h"

namespace sutra {

StringId StringTable::intern(std::string_view text) {
  if (auto it = ids_.find(text); it != ids_.end()) return it->second;
  const auto id = static_cast<StringId>(strings_.size());
  strings_.emplace_back(text);
  ids_.emplace(strings_.back(), id);
  return id;
}

StringId StringTable::find(std::string_view text) const {
  auto it = ids_.find(text);
  return it == ids_.end() ? kMissing : it->second;
}

}  // namespace sutra
