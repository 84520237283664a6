// SPDX-License-Identifier: MIT
#pragma once
// The query dock's content: SQL over the loaded run. An editor (Ctrl+Enter runs), a few example
// queries, the history of this window's queries, Run and Cancel, and the rows in a sortable table.
// The view runs no query: Run asks for one (queryRequested) and Cancel for its end
// (cancelRequested); the app runs it on a worker (app/gui/query_runner.h) and answers with
// showRows, showFailure or showCanceled. A bad query's message (with its line and column) shows
// under the editor and the loaded run stays. Activating a row (double-click, Enter) that holds a
// slice id emits sliceActivated, for the window to select and reveal that event on the timeline.
#include <QList>
#include <QWidget>

#include "sql/query_result.h"

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableView;
class QSortFilterProxyModel;

namespace sutra::widgets {

class QueryResultModel;

struct QueryExample {
  QString title;
  QString sql;
};

class QueryView : public QWidget {
  Q_OBJECT

 public:
  explicit QueryView(QWidget* parent = nullptr);

  // Whether a run is loaded to query (Run is disabled while none is). The app cancels a query
  // running on the previous run; its answer still comes.
  void setRunLoaded(bool loaded);
  bool hasRun() const { return runLoaded_; }
  // The Examples... menu.
  void setExamples(const QList<QueryExample>& examples);

  void setQuery(const QString& sql);
  QString query() const;
  // Asks for the editor's text to be run (queryRequested); the answer comes as one of the show*
  // calls, then finished.
  void run();
  // Asks for the running query to stop (cancelRequested).
  void cancel();
  bool isRunning() const { return running_; }
  // The answers to queryRequested: the rows (and how long the query took), a failure's message,
  // or the query canceled.
  void showRows(sql::QueryResult result, double ms);
  void showFailure(const QString& message);
  void showCanceled();
  // This window's queries, the latest first.
  QStringList history() const { return history_; }

  QueryResultModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  // What the status line says: "12 rows in 3.1 ms", or the error.
  QString status() const;

  // At most this many rows are kept (the status says when more were left out).
  static constexpr std::size_t kMaxRows = 200'000;

 signals:
  void queryRequested(const QString& sql);
  void cancelRequested();
  void finished(bool ok, const QString& message);
  void sliceActivated(qint64 sliceId);

 private:
  void settle(bool ok, const QString& status);
  void activateRow(const QModelIndex& index);
  void addHistory(const QString& sql);
  void updateButtons();

  QPlainTextEdit* editor_ = nullptr;
  QComboBox* examples_ = nullptr;
  QComboBox* historyBox_ = nullptr;
  QPushButton* runButton_ = nullptr;
  QPushButton* cancelButton_ = nullptr;
  QLabel* status_ = nullptr;
  QTableView* table_ = nullptr;
  QueryResultModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  bool runLoaded_ = false;
  bool running_ = false;
  QStringList history_;
};

}  // namespace sutra::widgets
