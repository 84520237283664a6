// SPDX-License-Identifier: MIT
#include "query_action.h"

#include <QAction>
#include <QDockWidget>
#include <QKeySequence>
#include <QMenuBar>
#include <QPlainTextEdit>

#include "main_window.h"
#include "query_runner.h"
#include "query_view.h"
#include "sql/query_session.h"
#include "timeline_view.h"
#include "trace_session.h"

namespace sutra::gui {
namespace {

QMenu* analysisMenu(QMainWindow* window) {
  for (QAction* action : window->menuBar()->actions())
    if (action->menu() && action->text().remove('&') == QObject::tr("Analysis"))
      return action->menu();
  return window->menuBar()->addMenu(QObject::tr("&Analysis"));
}

// Selects slice `id` of the loaded run on the timeline.
void showSlice(MainWindow* window, qint64 id) {
  TraceSession& session = window->session();
  const auto run = session.run();
  if (!run) return;
  const auto at = sql::locateSlice(*run, id);
  if (!at) return;
  const auto& ranks = session.ranks();
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    if (ranks[i]->rank != at->rank) continue;
    const int index = static_cast<int>(i);
    if (window->showingAllRanks()) {
      window->timeline().selectEvent(index, at->event, true);
    } else {
      if (index != window->currentRank()) window->setCurrentRank(index);
      window->timeline().selectEvent(at->event, true);
    }
    return;
  }
}

}  // namespace

void installQueryDock(MainWindow* window) {
  auto* view = new widgets::QueryView(window);
  QList<widgets::QueryExample> examples;
  for (const auto& example : sql::exampleQueries())
    examples.push_back(
        {QString::fromStdString(example.title), QString::fromStdString(example.sql)});
  view->setExamples(examples);
  auto* runner = new QueryRunner(view);  // the view's queries, run on a worker
  auto* dock = new QDockWidget(QObject::tr("SQL Query"), window);
  dock->setObjectName(QStringLiteral("QueryDock"));
  dock->setWidget(view);
  window->addDockWidget(Qt::BottomDockWidgetArea, dock);
  if (auto* ops = window->findChild<QDockWidget*>(QStringLiteral("OperatorsDock"))) {
    window->tabifyDockWidget(ops, dock);
    ops->raise();
  }

  TraceSession* session = &window->session();
  QObject::connect(session, &TraceSession::replacing, runner,
                   [runner] { runner->setSession(nullptr); });
  QObject::connect(session, &TraceSession::finished, runner, [runner, session] {
    const auto run = session->run();
    if (!run) return;
    auto opened = sql::QuerySession::open(*run);
    runner->setSession(opened ? std::shared_ptr<sql::QuerySession>(std::move(*opened)) : nullptr);
  });
  QObject::connect(view, &widgets::QueryView::sliceActivated, window,
                   [window](qint64 id) { showSlice(window, id); });

  QAction* action = analysisMenu(window)->addAction(QObject::tr("SQL &Query"));
  action->setObjectName(QStringLiteral("QueryAction"));
  action->setShortcut(QKeySequence(QObject::tr("Ctrl+Shift+Q")));
  action->setToolTip(QObject::tr(
      "SQL over the loaded run: Perfetto's slice, thread, counter ... tables and Sutra's own"));
  QObject::connect(action, &QAction::triggered, dock, [dock, view] {
    dock->show();
    dock->raise();
    if (auto* editor = view->findChild<QPlainTextEdit*>(QStringLiteral("QueryEditor")))
      editor->setFocus();
  });
}

}  // namespace sutra::gui
