// SPDX-License-Identifier: MIT
#pragma once
// Light and dark colour sets for everything Sutra's widgets paint themselves (timeline, chain
// view, charts, coloured table text), and the Qt palette that goes with each so Qt's own widgets
// (tables, docks, menus) match. A widget takes its set from its palette (themeFor(*this)): the
// palette is the one source of truth, so applying a theme is setting the application's palette,
// and every widget repaints on the QEvent::PaletteChange that Qt sends.
#include <QColor>
#include <QObject>
#include <QPalette>
#include <QString>
#include <QStringView>
#include <array>
#include <optional>

#include "view/timeline_palette.h"

class QWidget;

namespace sutra::widgets {

enum class ThemeKind { Light, Dark };
// What the user picks: System follows the desktop's palette (dark when its window colour is dark).
enum class ThemeChoice { System, Light, Dark };

// The chain view's hop colours, one per kind of hop (data producer and consumer share one).
enum class ChainColour {
  Annotation,
  PythonFrame,
  FrameworkOp,
  RuntimeCall,
  DeviceOp,
  Sync,
  ResumedOp,
  Data,
  Count
};
inline constexpr int kChainColours = static_cast<int>(ChainColour::Count);
inline constexpr int kChartSeriesColours = 8;

struct Theme {
  ThemeKind kind = ThemeKind::Light;

  // Timeline.
  QColor background;        // event area
  QColor trackShade;        // every other track
  QColor headerBackground;  // a process group's header row
  QColor rulerBackground;
  QColor rulerText;  // tick marks and labels
  QColor gridLine;
  QColor labelBackground;  // the lane-name column
  QColor labelText;
  QColor labelDimText;   // thread names, the empty view's hint
  QColor separator;      // between the label column and the events
  QColor selection;      // outline of the selected event
  QColor searchOutline;  // outline of highlighted (searched) events
  QColor flow;           // arrows along the selection's flows
  QColor counterLine;    // counter graphs
  QColor counterMark;    // a mark on a counter graph (the memory peak) and its label
  QColor rangeShade;     // the time range chosen on the ruler (translucent)
  QColor rangeRuler;
  QColor rangeRulerText;
  std::array<QColor, 4> bandAccent;        // per Band: the stripe beside a track's label
  std::array<QColor, kColourCount> fills;  // name colours, merged runs, and their faded twins

  // Dependency-chain view.
  std::array<QColor, kChainColours> chainAccent;
  std::array<QColor, kChainColours> chainFill;
  std::array<QColor, kChainColours> chainFillHovered;
  std::array<QColor, kChainColours> chainBorder;
  QColor chainFocus;
  QColor chainKindText;
  QColor chainNameText;
  QColor chainConnector;
  QColor chainGapText;
  QColor chainNegativeGap;
  QColor chainNoteText;

  // Charts (QCustomPlot).
  QColor chartBackground;
  QColor chartAxis;
  QColor chartGrid;
  QColor chartText;
  std::array<QColor, kChartSeriesColours> chartSeries;

  // Text in tables and panels.
  QColor errorText;
  QColor warningText;
  QColor infoText;
  QColor dimText;

  QColor fill(int index) const;
  QColor band(Band band) const { return bandAccent[static_cast<std::size_t>(band)]; }
};

const Theme& theme(ThemeKind kind);
// Dark when the palette's window colour is dark (Qt 6.4 has no colour-scheme API).
ThemeKind themeKindOf(const QPalette& palette);
inline const Theme& themeFor(const QPalette& palette) { return theme(themeKindOf(palette)); }
const Theme& themeFor(const QWidget& widget);
// The set of the application's palette (for item models, which have no widget).
const Theme& applicationTheme();

// WCAG 2 relative luminance (0 black .. 1 white) and the contrast ratio of two colours (1 .. 21).
double relativeLuminance(const QColor& colour);
double contrastRatio(const QColor& a, const QColor& b);
// Near-black or white, whichever has the higher contrast on `fill`.
QColor textColourOn(const QColor& fill);

// Qt's palettes for the two sets: Fusion's own light one, and a dark one in the same style.
QPalette qtPalette(ThemeKind kind);

// "system", "light", "dark" (any case); nullopt for anything else.
std::optional<ThemeChoice> parseThemeChoice(QStringView text);
QString themeChoiceName(ThemeChoice choice);

// Sets the application's style and palette for `choice` (System: the ones the application started
// with); every widget repaints through its PaletteChange. Needs a QApplication.
void applyTheme(ThemeChoice choice);
ThemeChoice currentThemeChoice();
ThemeKind currentThemeKind();

// Tells whoever keeps a colour outside a palette (style sheets, generated HTML) that the theme
// changed: on applyTheme, and when the application's palette changes otherwise (the desktop
// switching to dark while the choice is System).
class ThemeNotifier : public QObject {
  Q_OBJECT
 public:
  ThemeNotifier();

 signals:
  void themeChanged(sutra::widgets::ThemeKind kind);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;
};
ThemeNotifier& themeNotifier();

}  // namespace sutra::widgets
