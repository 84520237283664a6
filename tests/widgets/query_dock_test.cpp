// SPDX-License-Identifier: MIT
// The SQL query dock, offscreen: the view alone asks for queries and shows the answers it is
// given; with the app's QueryRunner, a query's rows in the table (and the model under
// QAbstractItemModelTester), the history and the examples, a bad query's message with its place
// and the session still usable, Cancel, and in the window a result row's slice selected on the
// timeline, on its rank.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>

#include "main_window.h"
#include "problems_model.h"  // kSortRole
#include "qt_app.h"
#include "query_result_model.h"
#include "query_runner.h"
#include "query_view.h"
#include "sql/query_session.h"
#include "test_support.h"
#include "timeline_view.h"
#include "trace_session.h"

namespace sutra::widgets {
namespace {

bool waitFor(QSignalSpy& spy) {
  for (int i = 0; i < 600 && spy.isEmpty(); ++i) spy.wait(100);
  return !spy.isEmpty();
}

std::string sample(const std::string& name) {
  return std::string(SUTRA_SOURCE_DIR) + "/tests/data/synthetic_samples/" + name;
}

struct Loaded {
  Run run;
  std::shared_ptr<sql::QuerySession> session;
};

Loaded loadSample(const std::string& name) {
  auto run = openRun({sample(name)}, RunOptions::upTo(RunStage::Analyse));
  EXPECT_TRUE(run.ok());
  auto session = sql::QuerySession::open(*run);
  EXPECT_TRUE(session.ok());
  return {std::move(*run), std::shared_ptr<sql::QuerySession>(std::move(*session))};
}

// Runs `sql` in the view and waits for its answer: (ok, message).
std::pair<bool, QString> runQuery(QueryView& view, const QString& sql) {
  QSignalSpy finished(&view, &QueryView::finished);
  view.setQuery(sql);
  view.run();
  EXPECT_TRUE(waitFor(finished));
  if (finished.isEmpty()) return {false, {}};
  return {finished.front()[0].toBool(), finished.front()[1].toString()};
}

// The view runs nothing: Run and Cancel are requests, and each answer it is handed ends the query.
TEST(QueryDock, TheViewAsksAndShowsTheAnswersItIsGiven) {
  test::qtApp();
  QueryView view;
  QSignalSpy requested(&view, &QueryView::queryRequested);
  QSignalSpy cancelRequested(&view, &QueryView::cancelRequested);
  QSignalSpy finished(&view, &QueryView::finished);
  view.setQuery("SELECT 1");
  view.run();  // no run loaded: nothing asked
  EXPECT_TRUE(requested.isEmpty());
  EXPECT_EQ(view.status(), "No run loaded.");

  view.setRunLoaded(true);
  view.setQuery("  SELECT 1  ");
  view.run();
  ASSERT_EQ(requested.size(), 1);
  EXPECT_EQ(requested.front()[0].toString(), "SELECT 1");
  EXPECT_TRUE(view.isRunning());
  EXPECT_EQ(view.status(), "Running...");
  view.run();  // one query at a time
  EXPECT_EQ(requested.size(), 1);
  view.cancel();
  EXPECT_EQ(cancelRequested.size(), 1);
  view.showCanceled();
  EXPECT_FALSE(view.isRunning());
  EXPECT_EQ(view.status(), "Canceled.");
  ASSERT_EQ(finished.size(), 1);
  EXPECT_FALSE(finished.front()[0].toBool());

  view.run();
  view.showFailure("line 1, column 8: no such column: nme");
  EXPECT_EQ(view.status(), "line 1, column 8: no such column: nme");
  sql::QueryResult rows;
  rows.columns = {{"id", sql::ValueType::Integer}};
  rows.rows = {{std::int64_t{7}}, {std::int64_t{9}}};
  view.run();
  view.showRows(std::move(rows), 1.5);
  EXPECT_FALSE(view.isRunning());
  EXPECT_EQ(view.model()->rowCount(), 2);
  EXPECT_EQ(view.status(), "2 rows in 1.5 ms; double-click a row to show its slice");
  ASSERT_EQ(finished.size(), 3);
  EXPECT_TRUE(finished.back()[0].toBool());
  view.cancel();  // nothing running: nothing asked
  EXPECT_EQ(cancelRequested.size(), 1);
}

TEST(QueryDock, RowsHistoryExamplesErrorsAndCancel) {
  test::qtApp();
  Loaded loaded = loadSample("rmsnorm_naive");
  const Trace& trace = *loaded.run.ranks[0]->trace;
  QueryView view;
  QList<QueryExample> exampleList;
  for (const auto& example : sql::exampleQueries())
    exampleList.push_back(
        {QString::fromStdString(example.title), QString::fromStdString(example.sql)});
  view.setExamples(exampleList);
  auto* runner = new gui::QueryRunner(&view);  // the app's side: it runs what the view asks
  EXPECT_FALSE(view.hasRun());
  runner->setSession(loaded.session);
  EXPECT_TRUE(view.hasRun());
  QAbstractItemModelTester tester(view.model(),
                                  QAbstractItemModelTester::FailureReportingMode::Warning);

  auto [ok, message] = runQuery(view, "SELECT id, ts, dur, name FROM slice ORDER BY id");
  ASSERT_TRUE(ok) << message.toStdString();
  ASSERT_EQ(view.model()->rowCount(), static_cast<int>(trace.events.size()));
  EXPECT_EQ(view.model()->columnCount(), 4);
  EXPECT_EQ(view.model()->headerData(3, Qt::Horizontal, Qt::DisplayRole).toString(), "name");
  EXPECT_EQ(view.model()->sliceColumn(), 0);
  for (int r = 0; r < view.model()->rowCount(); ++r) {
    const Event& e = trace.events[static_cast<std::size_t>(r)];
    EXPECT_EQ(view.model()->data(view.model()->index(r, 1), kSortRole).toLongLong(), e.start);
    EXPECT_EQ(view.model()->data(view.model()->index(r, 3), Qt::DisplayRole).toString(),
              QString::fromUtf8(trace.name(e).data(), static_cast<int>(trace.name(e).size())));
  }
  EXPECT_TRUE(message.startsWith(QString::number(trace.events.size()) + " rows in"))
      << message.toStdString();

  // A bad query: the message names the place; the rows stay; the next query runs.
  auto [bad, error] = runQuery(view, "SELECT nme FROM slice");
  EXPECT_FALSE(bad);
  EXPECT_TRUE(error.startsWith("line 1, column 8: no such column: nme")) << error.toStdString();
  EXPECT_EQ(view.status(), error);
  auto [again, count] = runQuery(view, "SELECT count(*) AS n FROM kernel");
  EXPECT_TRUE(again);
  EXPECT_EQ(view.model()->data(view.model()->index(0, 0), kSortRole).toLongLong(),
            static_cast<qlonglong>(loaded.run.ranks[0]->launches()->launches().size()));
  EXPECT_EQ(view.model()->sliceColumn(), -1);
  EXPECT_EQ(view.history(),
            QStringList({"SELECT count(*) AS n FROM kernel", "SELECT nme FROM slice",
                         "SELECT id, ts, dur, name FROM slice ORDER BY id"}));

  // An example fills the editor.
  auto* examples = view.findChild<QComboBox*>("QueryExamples");
  ASSERT_NE(examples, nullptr);
  ASSERT_GT(examples->count(), 1);
  emit examples->activated(1);
  EXPECT_EQ(view.query().toStdString(), sql::exampleQueries()[0].sql);

  // Cancel stops a query that would run for ever.
  QSignalSpy finished(&view, &QueryView::finished);
  view.setQuery(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) "
      "SELECT count(*) FROM n");
  view.run();
  EXPECT_TRUE(view.isRunning());
  QTest::qWait(100);
  view.cancel();
  ASSERT_TRUE(waitFor(finished));
  EXPECT_FALSE(finished.front()[0].toBool());
  EXPECT_EQ(view.status(), "Canceled.");
  EXPECT_TRUE(runQuery(view, "SELECT 1").first);

  // Activating a row that holds a slice id says which.
  runQuery(view, "SELECT name, id FROM slice WHERE depth = 0 ORDER BY id LIMIT 3");
  QSignalSpy activated(&view, &QueryView::sliceActivated);
  emit view.table()->activated(view.table()->model()->index(2, 0));
  ASSERT_EQ(activated.size(), 1);
  EXPECT_EQ(activated.front()[0].toLongLong(),
            view.model()->data(view.model()->index(2, 1), kSortRole).toLongLong());
}

TEST(QueryDock, TheWindowSelectsAResultRowsSliceOnItsRank) {
  test::qtApp();
  gui::MainWindow window;
  window.resize(1400, 900);
  QSignalSpy loaded(&window, &gui::MainWindow::loadFinished);
  window.openPaths({QString::fromStdString(sample("allreduce_2ranks"))});
  ASSERT_TRUE(waitFor(loaded));
  auto* dock = window.findChild<QDockWidget*>("QueryDock");
  ASSERT_NE(dock, nullptr);
  auto* view = dock->findChild<QueryView*>();
  ASSERT_NE(view, nullptr);
  ASSERT_TRUE(view->hasRun());
  // The last kernel of rank 1: its slice id counts rank 0's events first.
  const auto& ranks = window.session().ranks();
  ASSERT_EQ(ranks.size(), 2u);
  auto [ok, message] =
      runQuery(*view, "SELECT id, name FROM kernel WHERE rank = 1 ORDER BY ts DESC LIMIT 1");
  ASSERT_TRUE(ok) << message.toStdString();
  const qint64 id = view->model()->sliceIdAt(0).value_or(-1);
  const auto rank0 = static_cast<qint64>(ranks[0]->run->trace->events.size());
  ASSERT_GE(id, rank0);
  emit view->table()->activated(view->table()->model()->index(0, 0));
  EXPECT_EQ(window.timeline().selectedEvent(), static_cast<EventId>(id - rank0));
  if (window.showingAllRanks())
    EXPECT_EQ(window.timeline().selectedPart(), 1);
  else
    EXPECT_EQ(window.currentRank(), 1);
  // The action shows the dock.
  auto* action = window.findChild<QAction*>("QueryAction");
  ASSERT_NE(action, nullptr);
  action->trigger();
  EXPECT_FALSE(dock->isHidden());
}

}  // namespace
}  // namespace sutra::widgets
