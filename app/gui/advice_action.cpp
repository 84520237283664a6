// SPDX-License-Identifier: MIT
#include "advice_action.h"

#include <QAction>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QtConcurrent>
#include <memory>

#include "advice/advise.h"
#include "advice_view.h"
#include "analysis_menus.h"
#include "analysis_window.h"
#include "session_updates.h"
#include "simulation_runner.h"
#include "trace_session.h"

namespace sutra::gui {
namespace {

// The worker's answer: the advice, or why there is none.
struct AdviceOutcome {
  std::shared_ptr<const Advice> advice;
  std::string error;
};

void showAdvice(const AnalysisContext& context) {
  QMainWindow* window = context.window;
  const auto run = context.session->run();
  if (context.session->ranks().empty() || !run || !run->has(RunStage::Simulate)) {
    QMessageBox::information(window, QObject::tr("Advice"),
                             QObject::tr("Open a trace and wait for it to load first."));
    return;
  }
  auto* view = new widgets::AdviceView;
  view->setObjectName("AdviceView");
  // A finding's evidence goes to its own rank of this run (the view picks the rank).
  view->setNavigation(widgets::RankNavigation(context.navigation, 0));
  new SimulationRunner(view->projection());  // the fixes' projections, simulated on a worker
  showAnalysisWindow(window, view, QObject::tr("Advice"))->resize(1000, 760);

  auto* watcher = new QFutureWatcher<AdviceOutcome>(view);
  QObject::connect(watcher, &QFutureWatcher<AdviceOutcome>::finished, view, [view, watcher, run] {
    const AdviceOutcome outcome = watcher->result();
    watcher->deleteLater();
    if (!outcome.error.empty()) {
      QMessageBox::critical(view, QObject::tr("Advice"), QString::fromStdString(outcome.error));
      return;
    }
    view->setAdvice(run, outcome.advice);
  });
  watcher->setFuture(QtConcurrent::run([run] {
    AdviceOutcome out;
    auto advice = adviseRun(*run);
    if (advice)
      out.advice = std::make_shared<const Advice>(std::move(*advice));
    else
      out.error = advice.error().message;
    return out;
  }));
}

}  // namespace

widgets::AdviceView* openAdviceOnTopFinding(QMainWindow* window) {
  auto* action = window->findChild<QAction*>("Advice");
  if (!action || !action->isEnabled()) return nullptr;
  action->trigger();
  // The view the action made: the newest, where an earlier one is still open.
  const auto views = window->findChildren<widgets::AdviceView*>("AdviceView");
  if (views.isEmpty()) return nullptr;
  widgets::AdviceView* view = views.back();
  view->setShowTopFinding(true);
  return view;
}

namespace {

QAction* addAdviceAction(QMenu* analysis, const AnalysisContext& context) {
  TraceSession* session = context.session;
  auto* action = new QAction(QObject::tr("&Advice"), context.window);
  action->setObjectName("Advice");
  action->setToolTip(
      QObject::tr("The problems in the run, each with its evidence and its simulated price"));
  analysis->addAction(action);
  auto update = [action, session] {
    const auto run = session->run();  // the advice prices its findings on the run's simulation
    action->setEnabled(!session->ranks().empty() && run && run->has(RunStage::Simulate));
  };
  updateOnLoadChanges(session, action, update);
  QObject::connect(action, &QAction::triggered, context.window, [context] { showAdvice(context); });
  return action;
}

const RegisterAnalysisWindow registered{
    {30, [](QMenu* menu, const AnalysisContext& context) { addAdviceAction(menu, context); }}};

}  // namespace

}  // namespace sutra::gui
