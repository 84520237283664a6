// SPDX-License-Identifier: MIT
#include "timeline_palette.h"

#include <array>

namespace sutra::widgets {

std::uint8_t nameColourIndex(std::string_view name) {
  std::uint32_t hash = 2166136261u;
  for (unsigned char c : name) hash = (hash ^ c) * 16777619u;
  return static_cast<std::uint8_t>(hash % kNameColours);
}

namespace {

std::array<QColor, kColourCount> makePalette() {
  std::array<QColor, kColourCount> colours;
  // Twenty hues spaced by the golden angle, at a saturation and value where black text reads.
  for (int i = 0; i < kNameColours; ++i) {
    const int hue = (i * 137) % 360;
    const double saturation = (i % 2) ? 0.42 : 0.55;
    const double value = (i % 3 == 0) ? 0.86 : 0.93;
    colours[i] = QColor::fromHsvF(hue / 360.0, saturation, value);
  }
  colours[kRunColourBase + 0] = QColor(0x7d, 0x93, 0xb5);  // framework runs: slate blue
  colours[kRunColourBase + 1] = QColor(0xc4, 0x9a, 0x6c);  // runtime runs: ochre
  colours[kRunColourBase + 2] = QColor(0x6f, 0xa7, 0x84);  // hardware runs: sage
  colours[kRunColourBase + 3] = QColor(0x9e, 0x9e, 0x9e);  // other
  const QColor background(0xff, 0xff, 0xff);
  for (int i = 0; i < kBaseColours; ++i) {
    const QColor& c = colours[i];
    // 25 % colour over the background: present, but out of the way of the highlighted events.
    colours[kFadedOffset + i] = QColor((c.red() + 3 * background.red()) / 4, (c.green() + 3 * background.green()) / 4,
                                       (c.blue() + 3 * background.blue()) / 4);
  }
  return colours;
}

}  // namespace

QColor paletteColour(int index) {
  static const auto palette = makePalette();
  return index >= 0 && index < kColourCount ? palette[static_cast<std::size_t>(index)] : QColor(Qt::gray);
}

QColor textColourOn(const QColor& background) {
  const double luminance = 0.299 * background.redF() + 0.587 * background.greenF() + 0.114 * background.blueF();
  return luminance > 0.55 ? QColor(0x1a, 0x1a, 0x1a) : QColor(Qt::white);
}

QColor bandColour(Band band) {
  switch (band) {
    case Band::Framework: return QColor(0x3f, 0x6f, 0xb5);
    case Band::Runtime: return QColor(0xc0, 0x7a, 0x2c);
    case Band::Hardware: return QColor(0x2e, 0x8b, 0x57);
    case Band::Other: return QColor(0x80, 0x80, 0x80);
  }
  return QColor(Qt::gray);
}

}  // namespace sutra::widgets
