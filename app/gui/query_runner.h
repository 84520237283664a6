// SPDX-License-Identifier: MIT
#pragma once
// Runs the query dock's queries (widgets/query_view.h) on a worker thread over core's
// sql::QuerySession, and answers the view on the GUI thread: its rows, the failure's message, or
// "canceled" when Cancel reached core's CancelToken. It lives as a child of the view, so a query
// still running when the view goes is canceled and waited for, and its answer dropped.
#include <QFutureWatcher>
#include <QObject>
#include <memory>
#include <optional>

#include "sql/query_session.h"

namespace sutra::widgets {
class QueryView;
}

namespace sutra::gui {

class QueryRunner : public QObject {
  Q_OBJECT

 public:
  explicit QueryRunner(widgets::QueryView* view);
  ~QueryRunner() override;

  // The session queries run against; null while no run is loaded. A query running on the
  // previous session is canceled.
  void setSession(std::shared_ptr<sql::QuerySession> session);
  bool hasSession() const { return session_ != nullptr; }

 private:
  struct Outcome {
    std::optional<sql::QueryResult> result;
    QString error;
    double ms = 0;
  };
  void run(const QString& sql);
  void cancel();
  void answer();

  widgets::QueryView* view_;
  std::shared_ptr<sql::QuerySession> session_;
  QFutureWatcher<Outcome>* watcher_;
  CancelToken cancel_;
};

}  // namespace sutra::gui
