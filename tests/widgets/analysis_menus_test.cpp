// SPDX-License-Identifier: MIT
// The main window carries the analysis menus: File > Compare..., File > Export > (four kinds),
// Analysis > Simulate and Analysis > Charts; and a compare window opens from two paths.
#include "analysis_menus.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <filesystem>

#include "breakdown_view.h"
#include "call_tree_view.h"
#include "charts_view.h"
#include "compare_view.h"
#include "critical_path_view.h"
#include "flame_graph_view.h"
#include "main_window.h"
#include "navigation.h"
#include "qt_app.h"
#include "rank_folder_generator.h"
#include "test_support.h"
#include "timeline_view.h"
#include "trace_session.h"
#include "view_results.h"

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
  EXPECT_EQ(
      actionTexts(analysis),
      (QStringList{"Simulate", "Simulate with ASTRA-sim...", "Advice", "Charts", "Step Breakdown",
                   "Flame Graph", "Call Tree", "Critical Path", "Memory", "SQL Query"}));
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

QAction* actionNamed(QMenu* menu, const QString& text) {
  for (QAction* a : menu->actions())
    if (a->text().remove('&') == text) return a;
  return nullptr;
}

// The views of issue 19 open from the Analysis menu on the loaded rank and talk to the timeline:
// the critical path's events stand out there and Next selects them one by one; the breakdown has
// a row per step.
// The views compute on a worker thread, showing a "computing..." note until their result comes.
QLabel* computingNote(QWidget* view) { return view->findChild<QLabel*>("ComputingNote"); }
bool waitComputed(QWidget* view) {
  for (int i = 0; i < 600 && computingNote(view); ++i) QTest::qWait(10);
  return computingNote(view) == nullptr;
}

TEST(AnalysisMenus, ViewsOpenOnTheLoadedTraceLinkedToTheTimeline) {
  test::qtApp();
  MainWindow window;
  window.resize(1400, 900);
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({QString::fromStdString(test::fixture("synthetic_samples/matmul_1024"))});
  for (int i = 0; i < 600 && loaded.isEmpty(); ++i) loaded.wait(100);
  ASSERT_FALSE(loaded.isEmpty());
  auto* timeline = window.findChild<widgets::TimelineView*>();
  ASSERT_NE(timeline, nullptr);
  auto* session = window.findChild<TraceSession*>();
  ASSERT_NE(session, nullptr);
  ASSERT_FALSE(session->ranks().empty());
  const auto& steps = session->ranks().front()->run->steps();
  ASSERT_FALSE(steps.empty());
  QMenu* analysis = menuNamed(&window, "Analysis");
  ASSERT_NE(analysis, nullptr);

  actionNamed(analysis, "Critical Path")->trigger();
  auto* path = window.findChild<widgets::CriticalPathView*>();
  ASSERT_NE(path, nullptr);
  ASSERT_TRUE(waitComputed(path));
  ASSERT_FALSE(path->pathEvents().empty());
  EXPECT_EQ(timeline->highlighted(), path->pathEvents());
  ASSERT_FALSE(path->pathEdges().empty());
  EXPECT_EQ(timeline->pathEdges(), path->pathEdges());
  path->next();
  EXPECT_NE(timeline->selectedEvent(), kNoEvent);
  EXPECT_EQ(timeline->selectedEvent(), path->path().segments.front().event);
  delete path;  // closing the view clears the outline
  EXPECT_TRUE(timeline->highlighted().empty());
  EXPECT_TRUE(timeline->pathEdges().empty());

  actionNamed(analysis, "Step Breakdown")->trigger();
  auto* breakdown = window.findChild<widgets::BreakdownView*>();
  ASSERT_NE(breakdown, nullptr);
  ASSERT_TRUE(waitComputed(breakdown));
  EXPECT_EQ(breakdown->breakdown().steps.size(), steps.size());

  actionNamed(analysis, "Flame Graph")->trigger();
  auto* flame = window.findChild<widgets::FlameGraphView*>();
  ASSERT_NE(flame, nullptr);
  ASSERT_TRUE(waitComputed(flame));
  ASSERT_FALSE(flame->callTree().threads.empty());

  // Charts: the app computes their data on a worker and hands it to the view, which draws it.
  actionNamed(analysis, "Charts")->trigger();
  auto* charts = window.findChild<widgets::ChartsView*>();
  ASSERT_NE(charts, nullptr);
  ASSERT_TRUE(waitComputed(charts));
  EXPECT_GE(charts->utilisation()->seriesCount(), 1);
  EXPECT_EQ(charts->histogram()->seriesCount(), 1);
  EXPECT_EQ(charts->topOperators()->seriesCount(), 1);
}

// With several ranks open (the all-ranks view), Step Breakdown shows every rank's steps behind a
// rank selector and a line naming the rank whose step is longest and by which part. A generated
// job of 4 ranks whose rank 2 computes 30 % longer: its ranks end each step together, waiting for
// rank 2 at the all-reduces, so rank 2 is named by its kernel time (the generator's own numbers).
TEST(AnalysisMenus, StepBreakdownAcrossTheRanksOfTheAllRanksView) {
  test::qtApp();
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  gen::RankFolderSpec spec;
  spec.ranks = 4;
  spec.steps = 3;
  spec.bucketsPerStep = 2;
  spec.kernelsPerBucket = 5;
  spec.slowRank = 2;
  auto generated = gen::generateRankFolder(dir.path().toStdString(), spec);
  ASSERT_TRUE(generated.ok()) << generated.error().message;
  MainWindow window;
  window.resize(1400, 900);
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({dir.path()});
  for (int i = 0; i < 600 && loaded.isEmpty(); ++i) loaded.wait(100);
  ASSERT_FALSE(loaded.isEmpty());
  auto* session = window.findChild<TraceSession*>();
  ASSERT_EQ(session->ranks().size(), 4u);
  auto* timeline = window.findChild<widgets::TimelineView*>();
  ASSERT_EQ(timeline->partCount(), 4);

  actionNamed(menuNamed(&window, "Analysis"), "Step Breakdown")->trigger();
  auto* view = window.findChild<widgets::BreakdownView*>();
  ASSERT_NE(view, nullptr);
  ASSERT_TRUE(waitComputed(view));
  auto* ranks = view->findChild<QComboBox*>("BreakdownRank");
  ASSERT_NE(ranks, nullptr);
  EXPECT_EQ(ranks->count(), 4);
  EXPECT_FALSE(ranks->isHidden());
  EXPECT_TRUE(view->acrossRanksText().startsWith("rank 2 is longest in 3 of 3 steps; step "))
      << view->acrossRanksText().toStdString();
  EXPECT_TRUE(view->acrossRanksText().contains("rank 2 is longest by kernel: "))
      << view->acrossRanksText().toStdString();
  // Each rank's own steps, as generated.
  for (int r = 0; r < 4; ++r) {
    view->setRankIndex(r);
    EXPECT_EQ(view->rankIndex(), r);
    const auto& steps = view->breakdown().steps;
    ASSERT_EQ(steps.size(), 3u);
    for (std::size_t s = 0; s < 3; ++s) {
      ASSERT_EQ(steps[s].devices.size(), 1u);
      EXPECT_EQ(steps[s].devices[0].kernel, generated->steps[std::size_t(r)][s].compute);
    }
  }
  // A step asked for selects it on the rank's own part of the timeline.
  view->setRankIndex(2);
  emit view->stepActivated(1);
  const Step* step = findStep(session->ranks()[2]->run->steps(), 1);
  ASSERT_NE(step, nullptr);
  const TimeNs offset = timeline->part(2).offset;
  EXPECT_EQ(timeline->selectedTimeRange().start, step->start + offset);
  EXPECT_EQ(timeline->selectedTimeRange().end, step->deviceEnd + offset);
}

// Each view's window opens before its computation is done, saying "computing...", and fills in
// when the result comes from the worker thread. A window closed while it computes loses nothing:
// the result is kept, and the view opened again shows it at once.
TEST(AnalysisMenus, ViewsOpenBeforeTheirResultAndKeepIt) {
  test::qtApp();
  MainWindow window;
  window.resize(1400, 900);
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({QString::fromStdString(test::fixture("synthetic_samples/matmul_1024"))});
  for (int i = 0; i < 600 && loaded.isEmpty(); ++i) loaded.wait(100);
  ASSERT_FALSE(loaded.isEmpty());
  auto* session = window.findChild<TraceSession*>();
  ASSERT_FALSE(session->ranks().empty());
  const std::size_t steps = session->ranks().front()->run->steps().size();
  ASSERT_GT(steps, 0u);
  QMenu* analysis = menuNamed(&window, "Analysis");

  // No event is processed between the trigger and these checks: the result cannot have come.
  for (const char* name :
       {"Step Breakdown", "Flame Graph", "Call Tree", "Critical Path", "Memory", "Charts"}) {
    actionNamed(analysis, name)->trigger();
    QWidget* view = nullptr;
    for (QWidget* w : window.findChildren<QWidget*>())
      if (w->isWindow() && w != &window && w->isVisible() && computingNote(w)) view = w;
    ASSERT_NE(view, nullptr) << name;
    EXPECT_EQ(computingNote(view)->text(), "computing...");
    EXPECT_TRUE(computingNote(view)->isVisible());
    ASSERT_TRUE(waitComputed(view)) << name;
    view->close();  // deleted on close
  }
  // Closed while it computes: the call tree of a new range (the first step), closed at once.
  auto* results = dynamic_cast<ViewResults*>(window.findChild<QObject*>("ViewResults"));
  ASSERT_NE(results, nullptr);
  const std::size_t kept = results->keptCount();
  const Step& first = session->ranks().front()->run->steps().front();
  window.navigation().setSelectedRange({first.start, first.deviceEnd});
  EXPECT_EQ(window.timeline().selectedTimeRange(), (view::TimeRange{first.start, first.deviceEnd}));
  actionNamed(analysis, "Call Tree")->trigger();
  auto* tree = window.findChild<widgets::CallTreeView*>();
  ASSERT_NE(tree, nullptr);
  ASSERT_NE(computingNote(tree), nullptr);
  tree->close();
  for (int i = 0; i < 600 && results->keptCount() == kept; ++i) QTest::qWait(10);
  EXPECT_EQ(results->keptCount(), kept + 1);
  EXPECT_EQ(window.findChild<widgets::CallTreeView*>(), nullptr);  // it is gone
  // Opened again: the kept result, at once, with no note.
  actionNamed(analysis, "Call Tree")->trigger();
  tree = window.findChild<widgets::CallTreeView*>();
  ASSERT_NE(tree, nullptr);
  EXPECT_EQ(computingNote(tree), nullptr);
  EXPECT_GT(tree->tree()->topLevelItemCount(), 0);
}

}  // namespace
}  // namespace sutra::gui
