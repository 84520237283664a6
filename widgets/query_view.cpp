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
  setRunLoaded(false);
}

void QueryView::setRunLoaded(bool loaded) {
  runLoaded_ = loaded;
  if (!running_) {
    model_->clear();
    status_->setText(runLoaded_ ? tr("Tables: slice, thread, process, thread_track, counter, flow, "
                                     "args; op, kernel, launch, sync, step, rank, et_node, "
                                     "memory_event, collective, op_table")
                                : tr("No run loaded."));
  }
  updateButtons();
}

void QueryView::setExamples(const QList<QueryExample>& examples) {
  examples_->clear();
  examples_->addItem(tr("Examples..."));
  for (const QueryExample& example : examples) examples_->addItem(example.title, example.sql);
}

void QueryView::setQuery(const QString& sql) { editor_->setPlainText(sql); }
QString QueryView::query() const { return editor_->toPlainText(); }
QString QueryView::status() const { return status_->text(); }

void QueryView::run() {
  const QString sql = query().trimmed();
  if (!runLoaded_ || running_ || sql.isEmpty()) return;
  addHistory(sql);
  running_ = true;
  status_->setText(tr("Running..."));
  updateButtons();
  emit queryRequested(sql);
}

void QueryView::cancel() {
  if (running_) emit cancelRequested();
}

void QueryView::showRows(sql::QueryResult result, double ms) {
  const std::size_t rows = result.rows.size();
  const bool truncated = result.truncated;
  model_->setResult(std::move(result));
  table_->sortByColumn(-1, Qt::AscendingOrder);
  table_->resizeColumnsToContents();
  QString text = (rows == 1 ? tr("1 row in %1 ms") : tr("%1 rows in %2 ms").arg(rows))
                     .arg(QString::number(ms, 'f', 1));
  if (truncated) text += tr(" (the first %1 only)").arg(kMaxRows);
  if (model_->sliceColumn() >= 0) text += tr("; double-click a row to show its slice");
  settle(true, text);
}

void QueryView::showFailure(const QString& message) { settle(false, message); }

void QueryView::showCanceled() { settle(false, tr("Canceled.")); }

void QueryView::settle(bool ok, const QString& status) {
  running_ = false;
  status_->setText(status);
  updateButtons();
  emit finished(ok, status);
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
  runButton_->setEnabled(runLoaded_ && !running_);
  cancelButton_->setEnabled(running_);
}

}  // namespace sutra::widgets
