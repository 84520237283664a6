// SPDX-License-Identifier: MIT
#pragma once
// Colours of the timeline. An event's colour follows its name (the same op keeps its colour
// across lanes, zooms and runs); merged runs take a quieter colour of their band; when a search or
// a table row highlights events, everything else is faded. A small fixed set, so boxes are batched
// by colour and painted with one brush each.
#include <QColor>
#include <cstdint>
#include <string_view>

#include "lane_layout.h"

namespace sutra::widgets {

inline constexpr int kNameColours = 20;
inline constexpr int kRunColourBase = kNameColours;           // + band
inline constexpr int kBaseColours = kRunColourBase + 4;
inline constexpr int kFadedOffset = kBaseColours;             // faded twin of every colour
inline constexpr int kColourCount = 2 * kBaseColours;

// The colour index of an event name: stable across runs of the program (FNV-1a of the text).
std::uint8_t nameColourIndex(std::string_view name);
inline int runColourIndex(Band band) { return kRunColourBase + static_cast<int>(band); }
QColor paletteColour(int index);
// Black or white, whichever reads better on `background`.
QColor textColourOn(const QColor& background);
// A band's accent (the stripe beside a track's label).
QColor bandColour(Band band);

}  // namespace sutra::widgets
