// SPDX-License-Identifier: MIT
#include "view/timeline_palette.h"

namespace sutra::view {

std::uint8_t nameColourIndex(std::string_view name) {
  std::uint32_t hash = 2166136261u;
  for (unsigned char c : name) hash = (hash ^ c) * 16777619u;
  return static_cast<std::uint8_t>(hash % kNameColours);
}

}  // namespace sutra::view
