// SPDX-License-Identifier: MIT
#include "theme.h"

#include <QApplication>
#include <QEvent>
#include <QStyle>
#include <QStyleFactory>
#include <QWidget>
#include <cmath>

namespace sutra::widgets {
namespace {

QColor rgb(unsigned value) { return QColor(static_cast<QRgb>(value)); }

// `a` of `colour` over `base`.
QColor blend(const QColor& colour, const QColor& base, double a) {
  auto mix = [a](int c, int b) { return static_cast<int>(std::lround(a * c + (1 - a) * b)); };
  return QColor(mix(colour.red(), base.red()), mix(colour.green(), base.green()),
                mix(colour.blue(), base.blue()));
}

// Name colours, light: twenty hues spaced by the golden angle at a saturation and value where
// near-black text reads (contrast >= 4.9). Dark: the same hues, less saturated, and each brought
// down to a relative luminance of 0.12-0.155 so white text reads on it (contrast >= 5.0) and the
// boxes stay quieter than the text, as Perfetto's and Nsight's dark modes do. The dark values were
// found per hue by bisecting HSL lightness for the target luminance (saturation 0.50/0.42).
void setNameFills(Theme& t) {
  if (t.kind == ThemeKind::Light) {
    for (int i = 0; i < kNameColours; ++i) {
      const int hue = (i * 137) % 360;
      const double saturation = (i % 2) ? 0.42 : 0.55;
      const double value = (i % 3 == 0) ? 0.86 : 0.93;
      t.fills[static_cast<std::size_t>(i)] = QColor(
          QColor::fromHsvF(hue / 360.0, saturation, value).rgb());  // 8 bits a channel, as painted
    }
    t.fills[kRunColourBase + 0] = rgb(0x7d93b5);  // framework runs: slate blue
    t.fills[kRunColourBase + 1] = rgb(0xc49a6c);  // runtime runs: ochre
    t.fills[kRunColourBase + 2] = rgb(0x6fa784);  // hardware runs: sage
    t.fills[kRunColourBase + 3] = rgb(0x9e9e9e);  // other
  } else {
    static constexpr unsigned kDark[kNameColours] = {
        0xac3939, 0x327c47, 0x8c46c1, 0x6b612c, 0x2c7883, 0xa7447d, 0x3a6e25,
        0x6264bf, 0xa15236, 0x2c6d50, 0xa83fbc, 0x656d2c, 0x2f668c, 0xb4496b,
        0x2a7728, 0x694fb7, 0x926431, 0x2f7266, 0x9f3594, 0x5c7730};
    for (int i = 0; i < kNameColours; ++i) t.fills[static_cast<std::size_t>(i)] = rgb(kDark[i]);
    t.fills[kRunColourBase + 0] = rgb(0x4a5d7a);
    t.fills[kRunColourBase + 1] = rgb(0x7a5f3f);
    t.fills[kRunColourBase + 2] = rgb(0x3f6b50);
    t.fills[kRunColourBase + 3] = rgb(0x5a5a5a);
  }
  // The faded twins: a little colour over the background, present but out of the way of the
  // highlighted events (a dark background needs a little more to show at all).
  const double amount = t.kind == ThemeKind::Light ? 0.25 : 0.35;
  for (int i = 0; i < kBaseColours; ++i)
    t.fills[static_cast<std::size_t>(kFadedOffset + i)] =
        blend(t.fills[static_cast<std::size_t>(i)], t.background, amount);
}

void setChainColours(Theme& t, const QColor& base) {
  const std::array<QColor, kChainColours> accents = {rgb(0x9b7fc8), rgb(0x5fa8a8), rgb(0x5b8dd6),
                                                     rgb(0xdb9a4e), rgb(0x4fa86e), rgb(0xd05a4e),
                                                     rgb(0x8c939e), rgb(0xb06ab3)};
  t.chainAccent = accents;
  for (std::size_t i = 0; i < accents.size(); ++i) {
    if (t.kind == ThemeKind::Light) {
      t.chainFill[i] = accents[i].lighter(165);
      t.chainFillHovered[i] = accents[i].lighter(150);
      t.chainBorder[i] = accents[i].darker(140);
    } else {
      t.chainFill[i] = blend(accents[i], base, 0.28);
      t.chainFillHovered[i] = blend(accents[i], base, 0.40);
      t.chainBorder[i] = accents[i];
    }
  }
}

Theme makeLight() {
  Theme t;
  t.kind = ThemeKind::Light;
  t.background = rgb(0xffffff);
  t.trackShade = rgb(0xf6f7f9);
  t.headerBackground = rgb(0xe8ecf2);
  t.rulerBackground = rgb(0xf0f2f5);
  t.rulerText = rgb(0x555b66);
  t.gridLine = rgb(0xe2e5ea);
  t.labelBackground = rgb(0xfbfbfc);
  t.labelText = rgb(0x222730);
  t.labelDimText = rgb(0x676d76);
  t.separator = rgb(0xc8ccd3);
  t.selection = rgb(0x111111);
  t.searchOutline = rgb(0xd9481c);
  t.flow = rgb(0x253b80);
  t.counterLine = rgb(0x1f77b4);
  t.counterMark = rgb(0xc0392b);
  t.rangeShade = QColor(0x3d, 0x7e, 0xd8, 0x30);
  t.rangeRuler = rgb(0x9cc0f0);
  t.rangeRulerText = rgb(0x103070);
  t.bandAccent = {rgb(0x3f6fb5), rgb(0xc07a2c), rgb(0x2e8b57), rgb(0x808080)};
  setNameFills(t);

  setChainColours(t, t.background);
  t.chainFocus = rgb(0x111111);
  t.chainKindText = rgb(0x454b56);
  t.chainNameText = rgb(0x1a1d23);
  t.chainConnector = rgb(0x6b7280);
  t.chainGapText = rgb(0x3a404a);
  t.chainNegativeGap = rgb(0xb01e1e);
  t.chainNoteText = rgb(0x5a6170);

  t.chartBackground = rgb(0xffffff);
  t.chartAxis = rgb(0x3a404a);
  t.chartGrid = QColor(0x3a, 0x40, 0x4a, 40);
  t.chartText = rgb(0x222730);
  t.chartSeries = {rgb(0x1f77b4), rgb(0xff7f0e), rgb(0x2ca02c), rgb(0xd62728),
                   rgb(0x9467bd), rgb(0x8c564b), rgb(0xe377c2), rgb(0x17becf)};

  t.errorText = rgb(0xb01e1e);
  t.warningText = rgb(0x8a5300);
  t.infoText = rgb(0x555b66);
  t.dimText = rgb(0x5a6170);
  return t;
}

// Dark: a blue-grey near-black (not pure black, which makes bright boxes glare), text at about
// 13:1, secondary text at about 6:1, accents lifted so they read on the dark ground.
Theme makeDark() {
  Theme t;
  t.kind = ThemeKind::Dark;
  t.background = rgb(0x1e1f22);
  t.trackShade = rgb(0x24262a);
  t.headerBackground = rgb(0x30333a);
  t.rulerBackground = rgb(0x292b30);
  t.rulerText = rgb(0xaab1bd);
  t.gridLine = rgb(0x34373d);
  t.labelBackground = rgb(0x222327);
  t.labelText = rgb(0xdde1e8);
  t.labelDimText = rgb(0x939aa5);
  t.separator = rgb(0x46494f);
  t.selection = rgb(0xffffff);
  t.searchOutline = rgb(0xff9a52);
  t.flow = rgb(0x8fb6ff);
  t.counterLine = rgb(0x5aa9e6);
  t.counterMark = rgb(0xff7a66);
  t.rangeShade = QColor(0x5a, 0x9b, 0xff, 0x38);
  t.rangeRuler = rgb(0x2c4a73);
  t.rangeRulerText = rgb(0xdbe7ff);
  t.bandAccent = {rgb(0x5b8fd9), rgb(0xd9954a), rgb(0x4cae78), rgb(0x8a8f98)};
  setNameFills(t);

  setChainColours(t, t.background);
  t.chainFocus = rgb(0xf2f2f2);
  t.chainKindText = rgb(0xd2d7df);
  t.chainNameText = rgb(0xeceff4);
  t.chainConnector = rgb(0x8a919c);
  t.chainGapText = rgb(0xb5bcc7);
  t.chainNegativeGap = rgb(0xff6b6b);
  t.chainNoteText = rgb(0x939aa5);

  t.chartBackground = rgb(0x1e1f22);
  t.chartAxis = rgb(0xaab1bd);
  t.chartGrid = QColor(0xaa, 0xb1, 0xbd, 45);
  t.chartText = rgb(0xdde1e8);
  t.chartSeries = {rgb(0x5fa2dd), rgb(0xffa24d), rgb(0x5cc25c), rgb(0xf0635f),
                   rgb(0xb595dc), rgb(0xc09a8e), rgb(0xf4a1d6), rgb(0x4fd6e6)};

  t.errorText = rgb(0xff7b72);
  t.warningText = rgb(0xe3a848);
  t.infoText = rgb(0xa0a7b2);
  t.dimText = rgb(0x9aa1ad);
  return t;
}

struct AppliedTheme {
  ThemeChoice choice = ThemeChoice::System;
  bool captured = false;  // the style and palette the application started with, kept until
                          // another theme is applied (System before that changes nothing, so
                          // Qt keeps following the desktop)
  QString systemStyle;
  QPalette systemPalette;
};
AppliedTheme& applied() {
  static AppliedTheme state;
  return state;
}

double channel(double c) { return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); }

}  // namespace

QColor Theme::fill(int index) const {
  return index >= 0 && index < kColourCount ? fills[static_cast<std::size_t>(index)] : labelDimText;
}

const Theme& theme(ThemeKind kind) {
  static const Theme light = makeLight();
  static const Theme dark = makeDark();
  return kind == ThemeKind::Dark ? dark : light;
}

ThemeKind themeKindOf(const QPalette& palette) {
  return palette.color(QPalette::Window).lightness() < 128 ? ThemeKind::Dark : ThemeKind::Light;
}

const Theme& themeFor(const QWidget& widget) { return themeFor(widget.palette()); }

const Theme& applicationTheme() { return themeFor(QGuiApplication::palette()); }

double relativeLuminance(const QColor& colour) {
  const QColor c = colour.toRgb();
  return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

double contrastRatio(const QColor& a, const QColor& b) {
  const double la = relativeLuminance(a), lb = relativeLuminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor textColourOn(const QColor& fill) {
  const QColor dark = rgb(0x1a1a1a), light = rgb(0xffffff);
  return contrastRatio(fill, dark) >= contrastRatio(fill, light) ? dark : light;
}

QPalette qtPalette(ThemeKind kind) {
  static QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"));
  if (kind == ThemeKind::Light) return fusion->standardPalette();
  const Theme& t = theme(ThemeKind::Dark);
  QPalette p;
  const QColor window = rgb(0x2b2d31), text = rgb(0xdde1e8), disabled = rgb(0x7a7f88);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, t.background);
  p.setColor(QPalette::AlternateBase, rgb(0x26282c));
  p.setColor(QPalette::ToolTipBase, rgb(0x34373c));
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::PlaceholderText, t.labelDimText);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, rgb(0x34373c));
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, rgb(0xff6b6b));
  p.setColor(QPalette::Light, rgb(0x4a4d54));
  p.setColor(QPalette::Midlight, rgb(0x3c3f45));
  p.setColor(QPalette::Mid, rgb(0x2a2c30));
  p.setColor(QPalette::Dark, rgb(0x1b1c1f));
  p.setColor(QPalette::Shadow, rgb(0x0f1012));
  p.setColor(QPalette::Highlight, rgb(0x3d6fb5));
  p.setColor(QPalette::HighlightedText, rgb(0xffffff));
  p.setColor(QPalette::Link, rgb(0x7fb0ff));
  p.setColor(QPalette::LinkVisited, rgb(0xc29cff));
  for (const auto role :
       {QPalette::WindowText, QPalette::Text, QPalette::ButtonText, QPalette::HighlightedText})
    p.setColor(QPalette::Disabled, role, disabled);
  p.setColor(QPalette::Disabled, QPalette::Highlight, rgb(0x3a3d42));
  return p;
}

std::optional<ThemeChoice> parseThemeChoice(QStringView text) {
  const QString lower = text.trimmed().toString().toLower();
  if (lower == QLatin1String("system")) return ThemeChoice::System;
  if (lower == QLatin1String("light")) return ThemeChoice::Light;
  if (lower == QLatin1String("dark")) return ThemeChoice::Dark;
  return std::nullopt;
}

QString themeChoiceName(ThemeChoice choice) {
  switch (choice) {
    case ThemeChoice::System:
      return QStringLiteral("system");
    case ThemeChoice::Light:
      return QStringLiteral("light");
    case ThemeChoice::Dark:
      return QStringLiteral("dark");
  }
  return QStringLiteral("system");
}

void applyTheme(ThemeChoice choice) {
  AppliedTheme& state = applied();
  if (choice == ThemeChoice::System && !state.captured) {
    state.choice = choice;
    return;
  }
  if (!state.captured) {
    state.systemStyle = QApplication::style()->name();
    state.systemPalette = QGuiApplication::palette();
    state.captured = true;
  }
  state.choice = choice;
  if (choice == ThemeChoice::System) {
    if (QApplication::style()->name().compare(state.systemStyle, Qt::CaseInsensitive) != 0)
      if (QStyle* style = QStyleFactory::create(state.systemStyle)) QApplication::setStyle(style);
    QApplication::setPalette(state.systemPalette);
  } else {
    // Fusion draws from the palette alone, so its controls take the dark palette whole.
    if (QApplication::style()->name().compare(QLatin1String("fusion"), Qt::CaseInsensitive) != 0)
      QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QApplication::setPalette(
        qtPalette(choice == ThemeChoice::Dark ? ThemeKind::Dark : ThemeKind::Light));
  }
  emit themeNotifier().themeChanged(currentThemeKind());
}

ThemeChoice currentThemeChoice() { return applied().choice; }

ThemeKind currentThemeKind() { return themeKindOf(QGuiApplication::palette()); }

ThemeNotifier::ThemeNotifier() {
  if (QCoreApplication* app = QCoreApplication::instance()) app->installEventFilter(this);
}

bool ThemeNotifier::eventFilter(QObject* watched, QEvent* event) {
  if (watched == QCoreApplication::instance() && event->type() == QEvent::ApplicationPaletteChange)
    emit themeChanged(currentThemeKind());
  return false;
}

ThemeNotifier& themeNotifier() {
  static ThemeNotifier* notifier = new ThemeNotifier;  // never destroyed: outlives every widget
  return *notifier;
}

}  // namespace sutra::widgets
