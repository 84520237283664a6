// SPDX-License-Identifier: MIT
#include "query_view.h"

#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeySequence>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrent>
#include <chrono>

#include "problems_model.h"  // kSortRole
#include "query_result_model.h"

namespace sutra::widgets {
namespace {
constexpr int kMaxHistory = 50;
}

QueryView::QueryView(QWidget* parent) : QWidget(parent) {
  editor_ = new QPlainTextEdit(this);
  editor_->setObjectName(QStringLiteral("QueryEditor"));
  editor_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  editor_->setPlaceholderText(
      tr("SELECT name, count(*), sum(dur) FROM slice GROUP BY name   (Ctrl+Enter runs)"));
  examples_ = new QComboBox(this);
  examples_->setObjectName(QStringLiteral("QueryExamples"));
  examples_->addItem(tr("Examples..."));
  for (const auto& example : sql::exampleQueries())
    examples_->addItem(QString::fromStdString(example.title), QString::fromStdString(example.sql));
  connect(examples_, &QComboBox::activated, this, [this](int i) {
    if (i > 0) setQuery(examples_->itemData(i).toString());
    examples_->setCurrentIndex(0);
  });
  historyBox_ = new QComboBox(this);
  historyBox_->setObjectName(QStringLiteral("QueryHistory"));
  historyBox_->addItem(tr("History..."));
  historyBox_->setMaximumWidth(320);
  connect(historyBox_, &QComboBox::activated, this, [this](int i) {
    if (i > 0) setQuery(historyBox_->itemData(i).toString());
    historyBox_->setCurrentIndex(0);
  });
  runButton_ = new QPushButton(tr("Run"), this);
  runButton_->setObjectName(QStringLiteral("QueryRun"));
  runButton_->setToolTip(tr("Run the query (Ctrl+Enter)"));
  connect(runButton_, &QPushButton::clicked, this, &QueryView::run);
  cancelButton_ = new QPushButton(tr("Cancel"), this);
  cancelButton_->setObjectName(QStringLiteral("QueryCancel"));
  connect(cancelButton_, &QPushButton::clicked, this, &QueryView::cancel);
  for (const auto& keys :
       {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
    auto* shortcut = new QShortcut(keys, editor_);
    shortcut->setContext(Qt::WidgetShortcut);
    connect(shortcut, &QShortcut::activated, this, &QueryView::run);
  }
  status_ = new QLabel(this);
  status_->setObjectName(QStringLiteral("QueryStatus"));
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  status_->setWordWrap(true);

  model_ = new QueryResultModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(kSortRole);
  table_ = new QTableView(this);
  table_->setObjectName(QStringLiteral("QueryResults"));
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);  // the query's own order until a header is clicked
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setAlternatingRowColors(true);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 4);
  connect(table_, &QTableView::activated, this, &QueryView::activateRow);

  watcher_ = new QFutureWatcher<Outcome>(this);
  connect(watcher_, &QFutureWatcher<Outcome>::finished, this, &QueryView::onFinished);

  auto* buttons = new QHBoxLayout;
  buttons->addWidget(examples_);
  buttons->addWidget(historyBox_, 1);
  buttons->addStretch();
  buttons->addWidget(runButton_);
  buttons->addWidget(cancelButton_);
  auto* top = new QWidget(this);
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  topLayout->addWidget(editor_);
  topLayout->addLayout(buttons);
  topLayout->addWidget(status_);
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(top);
  splitter->addWidget(table_);
  splitter->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(splitter);
  setSession(nullptr);
}

QueryView::~QueryView() {
  cancel();
  watcher_->waitForFinished();
}

void QueryView::setSession(std::shared_ptr<sql::QuerySession> session) {
  cancel();
  session_ = std::move(session);
  if (!running_) {
    model_->clear();
    status_->setText(session_ ? tr("Tables: slice, thread, process, thread_track, counter, flow, "
                                   "args; op, kernel, launch, sync, step, rank, et_node, "
                                   "memory_event, collective, op_table")
                              : tr("No run loaded."));
  }
  updateButtons();
}

void QueryView::setQuery(const QString& sql) { editor_->setPlainText(sql); }
QString QueryView::query() const { return editor_->toPlainText(); }
QString QueryView::status() const { return status_->text(); }

void QueryView::run() {
  const QString sql = query().trimmed();
  if (!session_ || running_ || sql.isEmpty()) return;
  addHistory(sql);
  cancel_ = CancelToken();
  running_ = true;
  status_->setText(tr("Running..."));
  updateButtons();
  auto session = session_;
  const CancelToken token = cancel_;
  watcher_->setFuture(QtConcurrent::run([session, token, text = sql.toStdString()] {
    const auto start = std::chrono::steady_clock::now();
    auto result = session->run(text, token, {.maxRows = kMaxRows});
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

void QueryView::cancel() {
  if (running_) cancel_.cancel();
}

void QueryView::onFinished() {
  running_ = false;
  Outcome outcome = watcher_->result();
  if (!outcome.result) {
    const bool canceled = outcome.error == QLatin1String(kCanceled);
    status_->setText(canceled ? tr("Canceled.") : outcome.error);
    updateButtons();
    emit finished(false, status_->text());
    return;
  }
  const std::size_t rows = outcome.result->rows.size();
  const bool truncated = outcome.result->truncated;
  model_->setResult(std::move(*outcome.result));
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->resizeColumnsToContents();
  QString text = (rows == 1 ? tr("1 row in %1 ms") : tr("%1 rows in %2 ms").arg(rows))
                     .arg(QString::number(outcome.ms, 'f', 1));
  if (truncated) text += tr(" (the first %1 only)").arg(kMaxRows);
  if (model_->sliceColumn() >= 0) text += tr("; double-click a row to show its slice");
  status_->setText(text);
  updateButtons();
  emit finished(true, text);
}

void QueryView::activateRow(const QModelIndex& index) {
  if (!index.isValid()) return;
  const QModelIndex source = proxy_->mapToSource(index);
  if (auto id = model_->sliceIdAt(source.row())) emit sliceActivated(*id);
}

void QueryView::addHistory(const QString& sql) {
  history_.removeAll(sql);
  history_.prepend(sql);
  while (history_.size() > kMaxHistory) history_.removeLast();
  historyBox_->clear();
  historyBox_->addItem(tr("History..."));
  for (const QString& q : history_) {
    QString title = q.simplified();
    if (title.size() > 80) title = title.left(77) + QStringLiteral("...");
    historyBox_->addItem(title, q);
  }
}

void QueryView::updateButtons() {
  runButton_->setEnabled(session_ && !running_);
  cancelButton_->setEnabled(running_);
}

}  // namespace sutra::widgets
