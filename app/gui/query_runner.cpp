// SPDX-License-Identifier: MIT
#include "query_runner.h"

#include <QtConcurrent/QtConcurrentRun>
#include <chrono>

#include "query_view.h"

namespace sutra::gui {

QueryRunner::QueryRunner(widgets::QueryView* view)
    : QObject(view), view_(view), watcher_(new QFutureWatcher<Outcome>(this)) {
  connect(view, &widgets::QueryView::queryRequested, this, &QueryRunner::run);
  connect(view, &widgets::QueryView::cancelRequested, this, &QueryRunner::cancel);
  connect(watcher_, &QFutureWatcher<Outcome>::finished, this, &QueryRunner::answer);
}

QueryRunner::~QueryRunner() {
  cancel();
  watcher_->waitForFinished();
}

void QueryRunner::setSession(std::shared_ptr<sql::QuerySession> session) {
  cancel();
  session_ = std::move(session);
  view_->setRunLoaded(session_ != nullptr);
}

void QueryRunner::run(const QString& sql) {
  if (!session_) {
    view_->showFailure(tr("No run loaded."));
    return;
  }
  cancel_ = CancelToken();
  watcher_->setFuture(QtConcurrent::run([session = session_, token = cancel_,
                                         text = sql.toStdString()] {
    const auto start = std::chrono::steady_clock::now();
    auto result = session->run(text, token, {.maxRows = widgets::QueryView::kMaxRows});
    Outcome outcome;
    outcome.ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (result)
      outcome.result = std::move(*result);
    else
      outcome.error = QString::fromStdString(result.error().message);
    return outcome;
  }));
}

void QueryRunner::cancel() {
  if (watcher_->isRunning()) cancel_.cancel();
}

void QueryRunner::answer() {
  Outcome outcome = watcher_->result();
  if (outcome.result)
    view_->showRows(std::move(*outcome.result), outcome.ms);
  else if (outcome.error == QLatin1String(kCanceled))
    view_->showCanceled();
  else
    view_->showFailure(outcome.error);
}

}  // namespace sutra::gui
