// SPDX-License-Identifier: MIT
// Analysis > Advice as a user drives it, on the bundled two-streams model: the list of findings
// (its model under QAbstractItemModelTester), a click that selects the finding's evidence on the
// window's timeline, and the run replayed with the finding's fix under the measured one.
#include "advice_action.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QMenu>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include "advice_view.h"
#include "main_window.h"
#include "qt_app.h"
#include "simulation_view.h"
#include "test_support.h"
#include "timeline_view.h"

namespace sutra::gui {
namespace {

QAction* adviceAction(QWidget* window) {
  for (QMenu* m : window->findChildren<QMenu*>())
    if (m->title().remove('&') == "Analysis")
      for (QAction* a : m->actions())
        if (a->text().remove('&') == "Advice") return a;
  return nullptr;
}

TEST(AdviceAction, ListsTheFindingsAndShowsEachOnTheTimelineAndInTheProjection) {
  test::qtApp();
  MainWindow window;
  QAction* action = adviceAction(&window);
  ASSERT_NE(action, nullptr);
  EXPECT_FALSE(action->isEnabled());
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({QString::fromStdString(std::string(SUTRA_SOURCE_DIR) +
                                           "/resources/samples/transformer_two_streams")});
  for (int i = 0; i < 600 && loaded.isEmpty(); ++i) loaded.wait(100);
  ASSERT_FALSE(loaded.isEmpty());
  ASSERT_TRUE(action->isEnabled());
  action->trigger();

  widgets::AdviceView* view = nullptr;
  for (int i = 0; i < 600; ++i) {
    view = window.findChild<widgets::AdviceView*>("AdviceView");
    if (view && view->model()->rowCount() > 0) break;
    QTest::qWait(100);
  }
  ASSERT_NE(view, nullptr);
  ASSERT_GT(view->model()->rowCount(), 0);
  QAbstractItemModelTester tester(view->model(),
                                  QAbstractItemModelTester::FailureReportingMode::Warning);

  // The blocking sync: its evidence selected on the timeline, its fix replayed below.
  int row = -1;
  for (int r = 0; r < view->model()->rowCount(); ++r)
    if (view->model()->finding(r)->kind == FindingKind::BlockingSync) row = r;
  ASSERT_GE(row, 0);
  const Finding& finding = *view->model()->finding(row);
  QSignalSpy activated(view, &widgets::AdviceView::findingActivated);
  view->showFinding(row);
  ASSERT_EQ(activated.count(), 1);
  EXPECT_EQ(window.timeline().selectedEvent(), finding.evidence.front());
  EXPECT_EQ(window.timeline().matchCount(), int(finding.evidence.size()));
  EXPECT_TRUE(view->detailsText().contains("saves ~")) << view->detailsText().toStdString();
  widgets::SimulationView* projection = view->projection();
  for (int i = 0; i < 600 && !(projection->result() && projection->result()->variant); ++i)
    QTest::qWait(100);
  ASSERT_NE(projection->result(), nullptr);
  ASSERT_TRUE(projection->result()->variant.has_value());
  EXPECT_EQ(projection->result()->knobs.syncsRemoved.size(), finding.fix.syncsRemoved.size());
}

}  // namespace
}  // namespace sutra::gui
