// SPDX-License-Identifier: MIT
#include "op_table_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "analysis/op_table.h"
#include "op_table_model.h"
#include "table_sorting.h"
#include "text/format.h"

namespace sutra::widgets {

OpTableView::OpTableView(QWidget* parent) : QWidget(parent) {
  model_ = new OpTableModel(this);
  proxy_ = new BlanksLastProxy(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(kSortRole);
  proxy_->setFilterKeyColumn(OpTableModel::Name);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);

  filter_ = new QLineEdit(this);
  filter_->setPlaceholderText(tr("Filter operators by name"));
  filter_->setClearButtonEnabled(true);
  shapes_ = new QCheckBox(tr("Group by input shapes"), this);
  window_ = new QComboBox(this);
  window_->setToolTip(
      tr("The time window the table covers; follows the step selected in the timeline "
         "and a time range dragged on its ruler"));
  window_->setMinimumContentsLength(18);
  summary_ = new QLabel(this);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  view_ = new QTableView(this);
  view_->setModel(proxy_);
  view_->setSortingEnabled(true);
  sortLargestFirst(view_, {OpTableModel::Name, OpTableModel::InputShapes});
  view_->sortByColumn(OpTableModel::SelfDevice, Qt::DescendingOrder);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setSelectionMode(QAbstractItemView::SingleSelection);
  view_->setAlternatingRowColors(true);
  view_->verticalHeader()->hide();
  view_->verticalHeader()->setDefaultSectionSize(22);
  view_->horizontalHeader()->setHighlightSections(false);
  view_->setColumnHidden(OpTableModel::InputShapes, true);
  view_->setWordWrap(false);
  connect(view_->horizontalHeader(), &QHeaderView::sectionClicked, this,
          [this] { userSorted_ = true; });

  auto* top = new QHBoxLayout;
  top->setContentsMargins(4, 4, 4, 0);
  top->addWidget(filter_, 2);
  top->addWidget(new QLabel(tr("Window"), this));
  top->addWidget(window_, 1);
  top->addWidget(shapes_);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addLayout(top);
  layout->addWidget(view_, 1);
  layout->addWidget(summary_);

  connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
  connect(shapes_, &QCheckBox::toggled, this, [this](bool on) {
    view_->setColumnHidden(OpTableModel::InputShapes, !on);
    request();
  });
  connect(window_, &QComboBox::currentIndexChanged, this, [this] { request(); });
  connect(view_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            const OpRow* row =
                current.isValid() ? model_->rowAt(proxy_->mapToSource(current).row()) : nullptr;
            if (row) emit rowSelected(row->events);
          });
  connect(view_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    const OpRow* row = model_->rowAt(proxy_->mapToSource(index).row());
    if (row && !row->events.empty()) emit rowActivated(row->events.front());
  });
}

void OpTableView::setSteps(std::vector<Step> steps) {
  steps_ = std::move(steps);
  range_.reset();
  const QSignalBlocker blocker(window_);
  window_->clear();
  window_->addItem(tr("Whole trace"));
  for (const Step& step : steps_)
    window_->addItem(QStringLiteral("%1 (%2)").arg(QString::fromStdString(step.name),
                                                   durationText(step.duration())));
  window_->setCurrentIndex(0);
}

void OpTableView::setTable(std::shared_ptr<const OpTable> table) {
  if (table && window_->currentIndex() <= 0) whole_ = table->window;
  // A run with no device time (a CPU recording) shows no empty device columns, as torch prints
  // none, and is sorted by self CPU unless the user chose another column.
  const bool device = !table || table->hasDeviceTime();
  for (int c : {OpTableModel::SelfDevice, OpTableModel::SelfDevicePercent,
                OpTableModel::DeviceTotal, OpTableModel::DeviceAverage})
    view_->setColumnHidden(c, !device);
  const int sorted = view_->horizontalHeader()->sortIndicatorSection();
  if (!device && sorted == OpTableModel::SelfDevice)
    view_->sortByColumn(OpTableModel::SelfCpu, Qt::DescendingOrder);
  else if (device && sorted == OpTableModel::SelfCpu && !userSorted_)
    view_->sortByColumn(OpTableModel::SelfDevice, Qt::DescendingOrder);
  model_->setTable(std::move(table));
  view_->resizeColumnsToContents();
  view_->setColumnWidth(OpTableModel::Name, std::min(view_->columnWidth(OpTableModel::Name), 380));
  updateSummary();
}

void OpTableView::clear() {
  setSteps({});
  model_->setTable(nullptr);
  summary_->clear();
}

void OpTableView::followStep(int stepIndex) {
  const int item = stepIndex < 0 ? 0 : stepIndex + 1;
  if (item < window_->count() && item != window_->currentIndex()) window_->setCurrentIndex(item);
}

void OpTableView::followRange(TimeWindow range, const QString& label) {
  const int rangeItem = static_cast<int>(steps_.size()) + 1;
  if (range.length() <= 0) {
    if (!range_) return;
    range_.reset();
    const bool wasShown = window_->currentIndex() == rangeItem;
    {
      const QSignalBlocker blocker(window_);
      window_->removeItem(rangeItem);
      if (wasShown) window_->setCurrentIndex(0);
    }
    if (wasShown) request();
    return;
  }
  range_ = range;
  const QSignalBlocker blocker(window_);
  if (window_->count() <= rangeItem)
    window_->addItem(label);
  else
    window_->setItemText(rangeItem, label);
  window_->setCurrentIndex(rangeItem);
  request();
}

TimeWindow OpTableView::currentWindow() const {
  const int step = currentStep();
  if (step >= 0 && step < static_cast<int>(steps_.size()))
    return stepWindow(steps_[static_cast<std::size_t>(step)]);
  if (range_ && step == static_cast<int>(steps_.size())) return *range_;
  return whole_;
}

int OpTableView::currentStep() const { return window_->currentIndex() - 1; }

bool OpTableView::groupByShapes() const { return shapes_->isChecked(); }

void OpTableView::setFilterText(const QString& text) { filter_->setText(text); }

void OpTableView::request() { emit tableRequested(currentWindow(), shapes_->isChecked()); }

void OpTableView::updateSummary() {
  const OpTable* t = model_->table();
  if (!t) {
    summary_->clear();
    return;
  }
  QString text = tr("  %1 rows · Self CPU time total: %2")
                     .arg(t->rows.size())
                     .arg(durationText(t->selfCpuTotal));
  if (t->hasDeviceTime())
    text += tr(" · Self %1 time total: %2")
                .arg(QString::fromStdString(t->device), durationText(t->selfDeviceTotal));
  summary_->setText(text);
}

}  // namespace sutra::widgets
