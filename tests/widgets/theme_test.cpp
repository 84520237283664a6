// SPDX-License-Identifier: MIT
// The light and dark colour sets: readable text on every fill (WCAG contrast), and the widgets
// repainting in the dark set once the application's theme changes.
#include "theme.h"

#include <gtest/gtest.h>

#include <QBrush>
#include <QImage>
#include <QTableView>

#include "chart_view.h"
#include "event_details.h"
#include "problems_model.h"
#include "qt_app.h"
#include "rank_data.h"
#include "synthetic_trace.h"
#include "timeline_view.h"
#include "view/chart_data.h"

namespace sutra::widgets {
namespace {

constexpr ThemeKind kKinds[] = {ThemeKind::Light, ThemeKind::Dark};

const char* kindName(ThemeKind kind) { return kind == ThemeKind::Dark ? "dark" : "light"; }

// Qt hands the application's new palette to the widgets through posted events, which the event
// loop delivers in the program; here they are delivered at once.
void switchTo(ThemeChoice choice) {
  applyTheme(choice);
  QCoreApplication::processEvents();
}

TEST(ThemeContrast, FollowsTheWcagFormula) {
  // Reference figures of the WCAG 2 definition: black on white 21:1, #777777 on white 4.48:1
  // (the grey most checkers cite as just failing AA), pure green's luminance is its 0.7152 weight.
  EXPECT_DOUBLE_EQ(relativeLuminance(QColor(255, 255, 255)), 1.0);
  EXPECT_DOUBLE_EQ(relativeLuminance(QColor(0, 0, 0)), 0.0);
  EXPECT_NEAR(relativeLuminance(QColor(0, 255, 0)), 0.7152, 1e-12);
  EXPECT_NEAR(contrastRatio(QColor(0, 0, 0), QColor(255, 255, 255)), 21.0, 1e-12);
  EXPECT_NEAR(contrastRatio(QColor(0x77, 0x77, 0x77), QColor(255, 255, 255)), 4.48, 0.005);
  EXPECT_DOUBLE_EQ(contrastRatio(QColor(0x12, 0x34, 0x56), QColor(0xab, 0xcd, 0xef)),
                   contrastRatio(QColor(0xab, 0xcd, 0xef), QColor(0x12, 0x34, 0x56)));
}

TEST(ThemeContrast, TextPickedForEveryTimelineFillReadsAtAA) {
  for (const ThemeKind kind : kKinds) {
    const Theme& t = theme(kind);
    for (int i = 0; i < kColourCount; ++i) {
      const QColor fill = t.fill(i);
      const QColor text = textColourOn(fill);
      EXPECT_GE(contrastRatio(fill, text), 4.5)
          << kindName(kind) << " fill " << i << " " << fill.name().toStdString() << " with text "
          << text.name().toStdString();
    }
  }
}

TEST(ThemeContrast, DarkNameFillsCarryWhiteTextAndLightOnesDarkText) {
  for (int i = 0; i < kBaseColours; ++i) {
    EXPECT_EQ(textColourOn(theme(ThemeKind::Dark).fill(i)), QColor(255, 255, 255)) << i;
    EXPECT_EQ(textColourOn(theme(ThemeKind::Light).fill(i)), QColor(0x1a, 0x1a, 0x1a)) << i;
  }
}

TEST(ThemeContrast, DarkNameFillsAreDarkerAndLessSaturatedThanLightOnes) {
  for (int i = 0; i < kNameColours; ++i) {
    const QColor light = theme(ThemeKind::Light).fill(i), dark = theme(ThemeKind::Dark).fill(i);
    EXPECT_LT(relativeLuminance(dark), relativeLuminance(light)) << i;
    EXPECT_LT(dark.hslSaturationF(), light.hslSaturationF()) << i;
    // Still a box on the dark ground, not a hole in it.
    EXPECT_GE(contrastRatio(dark, theme(ThemeKind::Dark).background), 2.0) << i;
  }
}

TEST(ThemeContrast, TextTheWidgetsPaintReadsOnItsGround) {
  for (const ThemeKind kind : kKinds) {
    const Theme& t = theme(kind);
    const std::pair<QColor, QColor> pairs[] = {
        {t.labelText, t.labelBackground},
        {t.labelText, t.headerBackground},
        {t.labelText, t.trackShade},
        {t.rulerText, t.rulerBackground},
        {t.rangeRulerText, t.rangeRuler},
        {t.chartText, t.chartBackground},
        {t.chainGapText, t.background},
        {t.chainNegativeGap, t.background},
        {t.labelDimText, t.labelBackground},
        {t.errorText, qtPalette(kind).color(QPalette::Base)},
        {t.warningText, qtPalette(kind).color(QPalette::Window)},
        {t.dimText, qtPalette(kind).color(QPalette::Base)}};
    for (const auto& [text, ground] : pairs)
      EXPECT_GE(contrastRatio(text, ground), 4.5)
          << kindName(kind) << " " << text.name().toStdString() << " on "
          << ground.name().toStdString();
    for (int c = 0; c < kChainColours; ++c)
      for (const QColor& fill : {t.chainFill[static_cast<std::size_t>(c)],
                                 t.chainFillHovered[static_cast<std::size_t>(c)]}) {
        EXPECT_GE(contrastRatio(t.chainNameText, fill), 4.5) << kindName(kind) << " chain " << c;
        EXPECT_GE(contrastRatio(t.chainKindText, fill), 4.5) << kindName(kind) << " chain " << c;
      }
  }
}

TEST(ThemeChoiceText, ParsesTheThreeNamesInAnyCase) {
  EXPECT_EQ(parseThemeChoice(u"dark"), ThemeChoice::Dark);
  EXPECT_EQ(parseThemeChoice(u"Light"), ThemeChoice::Light);
  EXPECT_EQ(parseThemeChoice(u" SYSTEM "), ThemeChoice::System);
  EXPECT_EQ(parseThemeChoice(u"purple"), std::nullopt);
  EXPECT_EQ(parseThemeChoice(u""), std::nullopt);
  for (const ThemeChoice choice : {ThemeChoice::System, ThemeChoice::Light, ThemeChoice::Dark})
    EXPECT_EQ(parseThemeChoice(themeChoiceName(choice)), choice);
}

TEST(ThemeKindOfPalette, DarkWhenTheWindowColourIsDark) {
  test::qtApp();
  EXPECT_EQ(themeKindOf(qtPalette(ThemeKind::Dark)), ThemeKind::Dark);
  EXPECT_EQ(themeKindOf(qtPalette(ThemeKind::Light)), ThemeKind::Light);
  QPalette nearBlack;
  nearBlack.setColor(QPalette::Window, QColor(0x30, 0x30, 0x30));
  EXPECT_EQ(themeKindOf(nearBlack), ThemeKind::Dark);
}

// Applying a theme changes what the widgets paint: grab them and look at the pixels.
class ThemeSwitchTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::qtApp();
    switchTo(ThemeChoice::Light);
    trace = std::make_shared<const Trace>(test::makeSyntheticTrace({2'000, 1, 1}));
    layout = std::make_shared<const LaneLayout>(LaneLayout::build(*trace, "rank0"));
    timeline = std::make_unique<TimelineView>();
    timeline->resize(1000, 1400);  // taller than the lanes: the bottom strip is plain background
    timeline->setTrace(trace, layout);
  }
  void TearDown() override { switchTo(ThemeChoice::System); }

  // An event of `name` in the middle of the trace, zoomed in so its box is wide.
  EventId zoomedEvent(std::string_view name) {
    const TimeNs middle = trace->startNs + (trace->endNs - trace->startNs) / 2;
    for (EventId i = 0; i < trace->events.size(); ++i) {
      const Event& e = trace->events[i];
      if (trace->name(e) == name && e.start >= middle) {
        timeline->setVisibleRange(
            {e.start - e.dur, e.end() + e.dur});  // the box spans the middle third
        return i;
      }
    }
    return kNoEvent;
  }

  // A pixel inside the event's box: a quarter in from its left end, two pixels under its top
  // (above the name written in it).
  QColor eventPixel(const QImage& image, EventId id) const {
    const Event& e = trace->events[id];
    const double x =
        timeToX(e.start + e.dur / 4, timeline->visibleRange(), timeline->eventAreaWidth());
    return image.pixelColor(timeline->eventAreaLeft() + static_cast<int>(x),
                            timeline->rowTop(layout->rowOf(id)) + 2);
  }

  QColor backgroundPixel(const QImage& image) const {
    return image.pixelColor(timeline->eventAreaLeft() + 20, image.height() - 3);
  }

  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const LaneLayout> layout;
  std::unique_ptr<TimelineView> timeline;
};

TEST_F(ThemeSwitchTest, TimelineBackgroundAndEventFillTurnToTheDarkSet) {
  const EventId op = zoomedEvent("aten::addmm");
  ASSERT_NE(op, kNoEvent);
  const int slot = nameColourIndex("aten::addmm");
  const Theme& light = theme(ThemeKind::Light);
  const Theme& dark = theme(ThemeKind::Dark);

  QImage image = timeline->grab().toImage();
  EXPECT_EQ(backgroundPixel(image), light.background);
  EXPECT_EQ(eventPixel(image, op), light.fill(slot));

  switchTo(ThemeChoice::Dark);
  EXPECT_EQ(currentThemeKind(), ThemeKind::Dark);
  EXPECT_EQ(themeKindOf(timeline->palette()), ThemeKind::Dark);
  image = timeline->grab().toImage();
  EXPECT_EQ(backgroundPixel(image), dark.background);
  EXPECT_EQ(eventPixel(image, op), dark.fill(slot));
  EXPECT_NE(dark.fill(slot), light.fill(slot));

  // And back.
  switchTo(ThemeChoice::Light);
  image = timeline->grab().toImage();
  EXPECT_EQ(backgroundPixel(image), light.background);
  EXPECT_EQ(eventPixel(image, op), light.fill(slot));
}

TEST_F(ThemeSwitchTest, QtWidgetsTakeTheDarkPalette) {
  QTableView table;
  EXPECT_EQ(themeKindOf(table.palette()), ThemeKind::Light);
  switchTo(ThemeChoice::Dark);
  EXPECT_EQ(table.palette().color(QPalette::Base), theme(ThemeKind::Dark).background);
  EXPECT_EQ(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
  switchTo(ThemeChoice::System);  // the palette the application started with (offscreen: light)
  EXPECT_EQ(currentThemeChoice(), ThemeChoice::System);
  EXPECT_EQ(themeKindOf(table.palette()), ThemeKind::Light);
}

TEST_F(ThemeSwitchTest, ChartBackgroundAxesAndBarsFollow) {
  ChartView chart;
  chart.resize(600, 400);
  DurationHistogram histogram;
  histogram.firstPower = 10;
  histogram.counts = {4, 9, 2};
  chart.showHistogram(histogram);
  auto corner = [&] { return chart.grab().toImage().pixelColor(2, chart.height() - 3); };
  EXPECT_EQ(corner(), theme(ThemeKind::Light).chartBackground);
  switchTo(ThemeChoice::Dark);
  EXPECT_EQ(corner(), theme(ThemeKind::Dark).chartBackground);
  // The tallest bar (9 of 9.9 on the axis) is painted in the dark set's first series colour.
  const QImage image = chart.grab().toImage();
  bool barDrawn = false;
  for (int x = 0; x < image.width() && !barDrawn; ++x)
    barDrawn = image.pixelColor(x, image.height() / 2) == theme(ThemeKind::Dark).chartSeries[0];
  EXPECT_TRUE(barDrawn);
}

TEST_F(ThemeSwitchTest, EventDetailsAreRewrittenInTheDarkColours) {
  auto run = std::make_shared<RankRun>();
  run->trace = trace;
  auto rank = std::make_shared<RankData>();
  rank->run = run;
  rank->layout = layout;
  EventDetailsView details;
  details.showDetails(rank, zoomedEvent("aten::addmm"));
  const QString lightKey = theme(ThemeKind::Light).dimText.name();
  const QString darkKey = theme(ThemeKind::Dark).dimText.name();
  EXPECT_TRUE(details.toHtml().contains(lightKey));
  switchTo(ThemeChoice::Dark);
  EXPECT_TRUE(details.toHtml().contains(darkKey));
  EXPECT_FALSE(details.toHtml().contains(lightKey));
}

TEST_F(ThemeSwitchTest, ProblemSeveritiesTakeTheDarkTextColours) {
  ProblemsModel model;
  model.setProblems({{QStringLiteral("a.json"), {Severity::Error, "bad", 2, "first"}},
                     {QStringLiteral("a.json"), {Severity::Warning, "odd", 1, "first"}}});
  const QModelIndex error = model.index(0, ProblemsModel::Severity);
  const QModelIndex warning = model.index(1, ProblemsModel::Severity);
  EXPECT_EQ(model.data(error, Qt::ForegroundRole).value<QBrush>().color(),
            theme(ThemeKind::Light).errorText);
  switchTo(ThemeChoice::Dark);
  EXPECT_EQ(model.data(error, Qt::ForegroundRole).value<QBrush>().color(),
            theme(ThemeKind::Dark).errorText);
  EXPECT_EQ(model.data(warning, Qt::ForegroundRole).value<QBrush>().color(),
            theme(ThemeKind::Dark).warningText);
}

}  // namespace
}  // namespace sutra::widgets
