// SPDX-License-Identifier: MIT
#pragma once
// The query dock's content: SQL over the loaded run (core's sql::QuerySession). An editor
// (Ctrl+Enter runs), a few example queries, the history of this window's queries, Run and Cancel,
// and the rows in a sortable table. A query runs on a worker thread and Cancel stops it (core's
// CancelToken); a bad query's message (with its line and column) shows under the editor and the
// loaded run stays. Activating a row (double-click, Enter) that holds a slice id emits
// sliceActivated, for the window to select and reveal that event on the timeline.
#include <QFutureWatcher>
#include <QWidget>
#include <memory>

#include "sql/query_session.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QSortFilterProxyModel;

namespace sutra::widgets {

class QueryResultModel;

class QueryView : public QWidget {
  Q_OBJECT

 public:
  explicit QueryView(QWidget* parent = nullptr);
  ~QueryView() override;

  // The session queries run against; null while no run is loaded (Run is then disabled). A query
  // running on the previous session is canceled.
  void setSession(std::shared_ptr<sql::QuerySession> session);
  bool hasSession() const { return session_ != nullptr; }

  void setQuery(const QString& sql);
  QString query() const;
  // Runs the editor's text on a worker; answers with finished.
  void run();
  void cancel();
  bool isRunning() const { return running_; }
  // This window's queries, the latest first.
  QStringList history() const { return history_; }

  QueryResultModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  // What the status line says: "12 rows in 3.1 ms", or the error.
  QString status() const;

  // At most this many rows are kept (the status says when more were left out).
  static constexpr std::size_t kMaxRows = 200'000;

 signals:
  void finished(bool ok, const QString& message);
  void sliceActivated(qint64 sliceId);

 private:
  struct Outcome {
    std::optional<sql::QueryResult> result;
    QString error;
    double ms = 0;
  };
  void onFinished();
  void activateRow(const QModelIndex& index);
  void addHistory(const QString& sql);
  void updateButtons();

  std::shared_ptr<sql::QuerySession> session_;
  QPlainTextEdit* editor_ = nullptr;
  QComboBox* examples_ = nullptr;
  QComboBox* historyBox_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QLabel* status_ = nullptr;
  QTableView* table_ = nullptr;
  QueryResultModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QFutureWatcher<Outcome>* watcher_ = nullptr;
  CancelToken cancel_;
  bool running_ = false;
  QStringList history_;
};

}  // namespace sutra::widgets
