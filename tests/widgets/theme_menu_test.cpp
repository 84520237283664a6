// SPDX-License-Identifier: MIT
// View > Theme and --theme: the choice parses, is saved under "view/theme", and the main window's
// menu applies it to the whole application.
#include "theme_menu.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSettings>
#include <QTemporaryDir>

#include "main_window.h"
#include "qt_app.h"

namespace sutra::gui {
namespace {

using widgets::ThemeChoice;
using widgets::ThemeKind;

class ThemeMenuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::qtApp();
    ASSERT_TRUE(settingsDir.isValid());
    // The test's own settings file, never the user's.
    QCoreApplication::setOrganizationName(QStringLiteral("sutra-theme-menu-test"));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir.path());
    QSettings().clear();
  }
  void TearDown() override {
    widgets::applyTheme(ThemeChoice::System);
    QCoreApplication::processEvents();
  }

  QTemporaryDir settingsDir;
};

TEST_F(ThemeMenuTest, TheThemeOptionParsesAndWinsOverTheSavedChoice) {
  QString error;
  EXPECT_EQ(startupThemeChoice(QStringLiteral("dark"), &error), ThemeChoice::Dark);
  EXPECT_EQ(startupThemeChoice(QStringLiteral("LIGHT"), &error), ThemeChoice::Light);
  EXPECT_EQ(startupThemeChoice(QStringLiteral("system"), &error), ThemeChoice::System);
  EXPECT_TRUE(error.isEmpty());
  EXPECT_EQ(startupThemeChoice(QStringLiteral("sepia"), &error), std::nullopt);
  EXPECT_EQ(error, QStringLiteral("--theme wants light, dark or system, not \"sepia\""));

  EXPECT_EQ(startupThemeChoice(std::nullopt, &error), ThemeChoice::System);  // nothing saved
  QSettings().setValue(kThemeSettingsKey, QStringLiteral("dark"));
  EXPECT_EQ(startupThemeChoice(std::nullopt, &error), ThemeChoice::Dark);
  EXPECT_EQ(startupThemeChoice(QStringLiteral("light"), &error), ThemeChoice::Light);
  QSettings().setValue(kThemeSettingsKey, QStringLiteral("mauve"));
  EXPECT_EQ(savedThemeChoice(), ThemeChoice::System);
}

TEST_F(ThemeMenuTest, TheViewMenuAppliesAndSavesTheChoice) {
  MainWindow window;
  QMenu* theme = nullptr;
  for (QAction* top : window.menuBar()->actions())
    if (top->menu())
      for (QAction* item : top->menu()->actions())
        if (item->menu() && item->menu()->title() == QObject::tr("&Theme")) theme = item->menu();
  ASSERT_NE(theme, nullptr);
  ASSERT_EQ(theme->actions().size(), 3);
  QAction* system = theme->actions()[0];
  QAction* dark = theme->actions()[2];
  EXPECT_TRUE(system->isChecked());

  dark->trigger();
  QCoreApplication::processEvents();  // Qt posts the new palette to the widgets
  EXPECT_TRUE(dark->isChecked());
  EXPECT_FALSE(system->isChecked());
  EXPECT_EQ(widgets::currentThemeChoice(), ThemeChoice::Dark);
  EXPECT_EQ(widgets::themeKindOf(window.palette()), ThemeKind::Dark);
  EXPECT_EQ(QSettings().value(kThemeSettingsKey).toString(), QStringLiteral("dark"));

  // The sample notice keeps its warning colour readable on the dark status bar.
  auto* notice = window.findChild<QLabel*>(QStringLiteral("sampleNotice"));
  ASSERT_NE(notice, nullptr);
  EXPECT_TRUE(notice->styleSheet().contains(widgets::theme(ThemeKind::Dark).warningText.name()));

  system->trigger();
  QCoreApplication::processEvents();
  EXPECT_EQ(QSettings().value(kThemeSettingsKey).toString(), QStringLiteral("system"));
  EXPECT_EQ(widgets::themeKindOf(window.palette()), ThemeKind::Light);  // offscreen's own palette
  EXPECT_TRUE(notice->styleSheet().contains(widgets::theme(ThemeKind::Light).warningText.name()));
}

TEST_F(ThemeMenuTest, TheSampleNoticeFollowsAPaletteChangeFromTheDesktop) {
  MainWindow window;
  auto* notice = window.findChild<QLabel*>(QStringLiteral("sampleNotice"));
  ASSERT_NE(notice, nullptr);
  const QString darkWarning = widgets::theme(ThemeKind::Dark).warningText.name();
  const QString lightWarning = widgets::theme(ThemeKind::Light).warningText.name();
  EXPECT_TRUE(notice->styleSheet().contains(lightWarning));
  // What Qt does when the desktop turns dark under the System choice: a new application palette.
  QApplication::setPalette(widgets::qtPalette(ThemeKind::Dark));
  QCoreApplication::processEvents();
  EXPECT_TRUE(notice->styleSheet().contains(darkWarning));
  QApplication::setPalette(widgets::qtPalette(ThemeKind::Light));
  QCoreApplication::processEvents();
  EXPECT_TRUE(notice->styleSheet().contains(lightWarning));
}

}  // namespace
}  // namespace sutra::gui
