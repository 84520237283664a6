// SPDX-License-Identifier: MIT
#pragma once
// Colour slots of the timeline (the colours themselves are the theme's: theme.h). An event's slot
// follows its name (the same op keeps its colour across lanes, zooms and runs); merged runs take a
// quieter slot of their band; when a search or a table row highlights events, everything else is
// faded. A small fixed set, so boxes are batched by slot and painted with one brush each.
#include <cstdint>
#include <string_view>

#include "view/lane_layout.h"
#include "view/widgets_names.h"

namespace sutra::view {

inline constexpr int kNameColours = 20;
inline constexpr int kRunColourBase = kNameColours;  // + band
inline constexpr int kBaseColours = kRunColourBase + 4;
inline constexpr int kFadedOffset = kBaseColours;  // faded twin of every colour
inline constexpr int kColourCount = 2 * kBaseColours;

// The colour index of an event name: stable across runs of the program (FNV-1a of the text).
std::uint8_t nameColourIndex(std::string_view name);
inline int runColourIndex(Band band) { return kRunColourBase + static_cast<int>(band); }

}  // namespace sutra::view
