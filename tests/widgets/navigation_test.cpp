// SPDX-License-Identifier: MIT
// Issue 42: an analysis window keeps the rank it was opened on. On the bundled two-rank sample,
// each analysis window opens on rank 0, the timeline moves to rank 1, and a click in the window
// must select rank 0's event: the timeline shows rank 0 again with that event selected. A window
// of a run since replaced selects nothing. Advice selects on the rank of its finding, whichever
// rank the timeline shows.
#include <gtest/gtest.h>

#include <QAction>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>
#include <functional>

#include "advice_view.h"
#include "call_tree_view.h"
#include "critical_path_view.h"
#include "flame_graph_view.h"
#include "main_window.h"
#include "memory_view.h"
#include "qt_app.h"
#include "test_support.h"
#include "timeline_view.h"
#include "trace_session.h"

namespace sutra::gui {
namespace {

QAction* analysisAction(QWidget* window, const QString& text) {
  for (QMenu* m : window->findChildren<QMenu*>())
    if (m->title().remove('&') == "Analysis")
      for (QAction* a : m->actions())
        if (a->text().remove('&') == text) return a;
  return nullptr;
}

bool waitComputed(QWidget* view) {
  for (int i = 0; i < 600 && view->findChild<QLabel*>("ComputingNote"); ++i) QTest::qWait(10);
  return view->findChild<QLabel*>("ComputingNote") == nullptr;
}

void openRun(MainWindow& window, const QString& path) {
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({path});
  for (int i = 0; i < 600 && loaded.isEmpty(); ++i) loaded.wait(100);
  ASSERT_FALSE(loaded.isEmpty());
}

QString sample(const char* name) {
  return QString::fromStdString(std::string(SUTRA_SOURCE_DIR) + "/resources/samples/" + name);
}

// An analysis window as the test drives it: the menu entry that opens it and a click in it, which
// returns the event the click asks for (kNoEvent where the window has nothing to click).
struct AnalysisWindow {
  const char* action;
  std::function<QWidget*(MainWindow&)> find;
  std::function<EventId(QWidget*)> click;
};

std::vector<AnalysisWindow> analysisWindows() {
  return {
      {"Flame Graph",
       [](MainWindow& w) -> QWidget* { return w.findChild<widgets::FlameGraphView*>(); },
       [](QWidget* widget) {
         auto* view = static_cast<widgets::FlameGraphView*>(widget);
         if (view->callTree().threads.empty()) return kNoEvent;
         const ThreadCallTree& thread = view->callTree().threads.at(std::size_t(view->thread()));
         const std::uint32_t root = thread.roots.at(0);
         QTest::mouseClick(view->canvas(), Qt::LeftButton, {},
                           view->nodeRect(root).center().toPoint());
         return thread.nodes[root].events.front();
       }},
      {"Call Tree", [](MainWindow& w) -> QWidget* { return w.findChild<widgets::CallTreeView*>(); },
       [](QWidget* widget) {
         auto* view = static_cast<widgets::CallTreeView*>(widget);
         QTreeWidgetItem* row = view->tree()->topLevelItem(0);
         if (!row) return kNoEvent;
         QSignalSpy asked(view, &widgets::CallTreeView::eventSelected);
         emit view->tree()->itemDoubleClicked(row, 0);
         return asked.isEmpty() ? kNoEvent : asked.at(0).at(0).value<EventId>();
       }},
      {"Critical Path",
       [](MainWindow& w) -> QWidget* { return w.findChild<widgets::CriticalPathView*>(); },
       [](QWidget* widget) {
         auto* view = static_cast<widgets::CriticalPathView*>(widget);
         QSignalSpy asked(view, &widgets::CriticalPathView::segmentActivated);
         view->next();
         return asked.isEmpty() ? kNoEvent : asked.at(0).at(0).value<EventId>();
       }},
      {"Memory", [](MainWindow& w) -> QWidget* { return w.findChild<widgets::MemoryView*>(); },
       [](QWidget* widget) {
         auto* view = static_cast<widgets::MemoryView*>(widget);
         QSignalSpy asked(view, &widgets::MemoryView::eventSelected);
         if (auto* peak = view->findChild<QPushButton*>("MemoryPeakOp")) peak->click();
         return asked.isEmpty() ? kNoEvent : asked.at(0).at(0).value<EventId>();
       }},
  };
}

// The trace the timeline shows its selection on.
const Trace* selectedTrace(MainWindow& window) {
  const widgets::TimelineView& timeline = window.timeline();
  if (timeline.selectedEvent() == kNoEvent) return nullptr;
  return timeline.part(timeline.selectedPart()).trace.get();
}

TEST(Navigation, AClickInAnAnalysisWindowSelectsOnTheRankItWasOpenedOn) {
  test::qtApp();
  MainWindow window;
  window.resize(1400, 900);
  ASSERT_NO_FATAL_FAILURE(openRun(window, sample("allreduce_2ranks")));
  const auto& ranks = window.session().ranks();
  ASSERT_EQ(ranks.size(), 2u);
  const Trace* rank0 = ranks[0]->run->trace.get();

  for (const AnalysisWindow& analysis : analysisWindows()) {
    SCOPED_TRACE(analysis.action);
    window.setCurrentRank(0);
    QAction* action = analysisAction(&window, analysis.action);
    ASSERT_NE(action, nullptr);
    action->trigger();
    QWidget* view = analysis.find(window);
    ASSERT_NE(view, nullptr);
    ASSERT_TRUE(waitComputed(view));
    window.setCurrentRank(1);  // the timeline moves on; the window stays on rank 0
    ASSERT_EQ(window.currentRank(), 1);
    const EventId asked = analysis.click(view);
    ASSERT_NE(asked, kNoEvent);
    // The timeline is back on rank 0, with the event the window asked for selected there.
    EXPECT_EQ(window.currentRank(), 0);
    EXPECT_EQ(selectedTrace(window), rank0);
    EXPECT_EQ(window.timeline().selectedEvent(), asked);
    view->close();
  }

  // The same in the all-ranks view: the selection made on rank 1's part does not take the
  // windows of rank 0 with it.
  window.setCurrentRank(0);
  for (const AnalysisWindow& analysis : analysisWindows()) {
    SCOPED_TRACE(analysis.action);
    window.setCurrentRank(0);
    analysisAction(&window, analysis.action)->trigger();
    QWidget* view = analysis.find(window);
    ASSERT_NE(view, nullptr);
    ASSERT_TRUE(waitComputed(view));
    window.showAllRanks();
    window.timeline().selectEvent(1, 0);  // a click on rank 1's part
    ASSERT_EQ(window.currentRank(), 1);
    const EventId asked = analysis.click(view);
    ASSERT_NE(asked, kNoEvent);
    EXPECT_TRUE(window.showingAllRanks());
    EXPECT_EQ(window.timeline().selectedPart(), 0);
    EXPECT_EQ(selectedTrace(window), rank0);
    EXPECT_EQ(window.timeline().selectedEvent(), asked);
    view->close();
  }
}

TEST(Navigation, AWindowOfARunSinceReplacedSelectsNothing) {
  test::qtApp();
  MainWindow window;
  window.resize(1400, 900);
  ASSERT_NO_FATAL_FAILURE(openRun(window, sample("allreduce_2ranks")));
  window.setCurrentRank(0);
  for (const AnalysisWindow& analysis : analysisWindows()) {
    SCOPED_TRACE(analysis.action);
    analysisAction(&window, analysis.action)->trigger();
    ASSERT_TRUE(waitComputed(analysis.find(window)));
  }
  // Another run: the windows stay open on the old one, whose ranks are gone.
  ASSERT_NO_FATAL_FAILURE(openRun(window, sample("transformer_step")));
  for (const AnalysisWindow& analysis : analysisWindows()) {
    SCOPED_TRACE(analysis.action);
    QWidget* view = analysis.find(window);
    ASSERT_NE(view, nullptr);
    window.timeline().selectEvent(kNoEvent);
    ASSERT_NE(analysis.click(view), kNoEvent);
    EXPECT_EQ(window.timeline().selectedEvent(), kNoEvent);
    view->close();
  }
}

// A finding's evidence is selected on the finding's rank, not on whichever rank the timeline
// shows alone.
TEST(Navigation, AdviceSelectsOnTheRankOfItsFinding) {
  test::qtApp();
  MainWindow window;
  window.resize(1400, 900);
  ASSERT_NO_FATAL_FAILURE(openRun(window, sample("allreduce_2ranks")));
  const auto& ranks = window.session().ranks();
  ASSERT_EQ(ranks.size(), 2u);
  QAction* action = analysisAction(&window, "Advice");
  ASSERT_NE(action, nullptr);
  action->trigger();
  widgets::AdviceView* view = nullptr;
  for (int i = 0; i < 600; ++i) {
    view = window.findChild<widgets::AdviceView*>("AdviceView");
    if (view && view->model()->rowCount() > 0) break;
    QTest::qWait(100);
  }
  ASSERT_NE(view, nullptr);
  int row = -1;
  for (int r = 0; r < view->model()->rowCount() && row < 0; ++r)
    if (!view->model()->finding(r)->evidence.empty()) row = r;
  ASSERT_GE(row, 0) << "the sample's advice has a finding with evidence";
  const Finding& finding = *view->model()->finding(row);
  const int rank = int(finding.rankIndex);
  window.setCurrentRank(1 - rank);  // the other rank, alone
  view->showFinding(row);
  EXPECT_EQ(window.currentRank(), rank);
  EXPECT_EQ(selectedTrace(window), ranks[std::size_t(rank)]->run->trace.get());
  EXPECT_EQ(window.timeline().selectedEvent(), finding.evidence.front());
}

}  // namespace
}  // namespace sutra::gui
