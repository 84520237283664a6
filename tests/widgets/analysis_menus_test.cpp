// SPDX-License-Identifier: MIT
// The main window carries the analysis menus: File > Compare..., File > Export > (four kinds),
// Analysis > Simulate and Analysis > Charts; and a compare window opens from two paths.
#include "analysis_menus.h"

#include <gtest/gtest.h>

#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "compare_view.h"
#include "main_window.h"
#include "qt_app.h"
#include "test_support.h"

namespace sutra::gui {
namespace {

QMenu* menuNamed(QWidget* parent, const QString& title) {
  for (QMenu* menu : parent->findChildren<QMenu*>())
    if (menu->title().remove('&') == title) return menu;
  return nullptr;
}

QStringList actionTexts(const QMenu* menu) {
  QStringList out;
  for (const QAction* a : menu->actions())
    if (!a->isSeparator()) out << a->text().remove('&');
  return out;
}

TEST(AnalysisMenus, MainWindowHasCompareExportSimulationAndCharts) {
  test::qtApp();
  MainWindow window;
  QMenu* file = menuNamed(&window, "File");
  ASSERT_NE(file, nullptr);
  const QStringList fileActions = actionTexts(file);
  EXPECT_TRUE(fileActions.contains("Compare...")) << fileActions.join(", ").toStdString();
  EXPECT_TRUE(fileActions.contains("Export"));
  EXPECT_EQ(fileActions.back(), "Quit");  // inserted before Quit
  QMenu* exportMenu = menuNamed(&window, "Export");
  ASSERT_NE(exportMenu, nullptr);
  EXPECT_EQ(actionTexts(exportMenu), (QStringList{"Chakra trace(s)...", "Linked ET+ JSON...",
                                                  "Measured timeline (Chrome/Perfetto JSON)...",
                                                  "Simulated timeline (Chrome/Perfetto JSON)...",
                                                  "Table as CSV...", "Chart (PNG, SVG, PDF)..."}));
  QMenu* analysis = menuNamed(&window, "Analysis");
  ASSERT_NE(analysis, nullptr);
  EXPECT_EQ(actionTexts(analysis),
            (QStringList{"Simulate", "Simulate with ASTRA-sim...", "Charts"}));
  // In the menu bar between View and Help.
  QStringList bar;
  for (const QAction* a : window.menuBar()->actions()) bar << a->text().remove('&');
  EXPECT_EQ(bar, (QStringList{"File", "View", "Analysis", "Help"}));
}

TEST(AnalysisMenus, ConfirmsANewTargetWithoutAsking) {
  test::qtApp();
  QTemporaryDir dir;
  EXPECT_TRUE(confirmExportTarget(nullptr, dir.filePath("new.csv"), {}));
}

TEST(AnalysisMenus, OpensACompareWindow) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  QWidget parent;
  QWidget* window = openCompareWindow(
      &parent, QString::fromStdString(test::sharedTrace("hta/trace_compare/base.json.gz")),
      QString::fromStdString(test::sharedTrace("hta/trace_compare/test.json.gz")));
  auto* view = qobject_cast<widgets::CompareView*>(window);
  ASSERT_NE(view, nullptr);
  QSignalSpy ready(view, &widgets::CompareView::ready);
  ASSERT_TRUE(ready.wait(60'000));
  EXPECT_EQ(view->comparison().selfDeviceTotalA, 1'694'000);
  EXPECT_TRUE(window->windowTitle().contains("base.json.gz"));
}

}  // namespace
}  // namespace sutra::gui
