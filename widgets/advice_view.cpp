// SPDX-License-Identifier: MIT
#include "advice_view.h"

#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "problems_model.h"  // kSortRole
#include "simulation_view.h"

namespace sutra::widgets {

AdviceModel::AdviceModel(QObject* parent) : QAbstractTableModel(parent) {}

void AdviceModel::setAdvice(std::shared_ptr<const Advice> advice) {
  beginResetModel();
  advice_ = std::move(advice);
  endResetModel();
}

const Finding* AdviceModel::finding(int row) const {
  if (!advice_ || row < 0 || std::size_t(row) >= advice_->findings.size()) return nullptr;
  return &advice_->findings[std::size_t(row)];
}

int AdviceModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !advice_ ? 0 : int(advice_->findings.size());
}

int AdviceModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant AdviceModel::data(const QModelIndex& index, int role) const {
  const Finding* f = index.isValid() ? finding(index.row()) : nullptr;
  if (!f) return {};
  const bool priced = f->price.priced;
  if (role == kSortRole) {
    switch (index.column()) {
      case Saving:
        return priced ? QVariant(qlonglong(f->price.savingNs())) : QVariant(qlonglong(-1));
      case SavingPercent:
        return priced ? f->price.savingFraction() : -1.0;
      case Rank:
        return f->rank;
      default:
        break;
    }
    role = Qt::DisplayRole;
  }
  if (role == Qt::DisplayRole) {
    switch (index.column()) {
      case Saving:
        return priced ? QString::fromStdString("~" + formatDuration(f->price.savingNs()))
                      : tr("not priced");
      case SavingPercent:
        return priced ? QString::number(100.0 * f->price.savingFraction(), 'f', 1) + " %"
                      : QString();
      case Kind:
        return QString::fromUtf8(findingKindName(f->kind).data(),
                                 qsizetype(findingKindName(f->kind).size()));
      case Rank:
        return f->rank;
      case Title:
        return QString::fromStdString(f->title);
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) return QString::fromStdString(describePrice(f->price));
  if (role == Qt::TextAlignmentRole && index.column() <= SavingPercent)
    return int(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant AdviceModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Saving:
      return tr("Saves per step");
    case SavingPercent:
      return tr("Of the step");
    case Kind:
      return tr("Kind");
    case Rank:
      return tr("Rank");
    case Title:
      return tr("Finding");
    default:
      return {};
  }
}

AdviceView::AdviceView(QWidget* parent)
    : QWidget(parent),
      model_(new AdviceModel(this)),
      proxy_(new QSortFilterProxyModel(this)),
      table_(new QTableView),
      details_(new QLabel),
      projection_(new SimulationView) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(kSortRole);
  table_->setModel(proxy_);
  table_->setObjectName("AdviceTable");
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  details_->setObjectName("AdviceDetails");
  details_->setWordWrap(true);
  details_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  details_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  projection_->setObjectName("AdviceProjection");

  auto* top = new QWidget;
  auto* topLayout = new QVBoxLayout(top);
  topLayout->setContentsMargins(0, 0, 0, 0);
  topLayout->addWidget(table_, 2);
  topLayout->addWidget(details_, 1);
  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(top);
  splitter->addWidget(projection_);
  splitter->setStretchFactor(1, 2);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(splitter);

  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (current.isValid()) showFinding(proxy_->mapToSource(current).row());
          });
  // The projection simulates the rank first, then replays it with the fix.
  connect(projection_, &SimulationView::ready, this, [this] {
    if (!pending_) {
      emit settled();
      return;
    }
    const SimKnobs knobs = *pending_;
    pending_.reset();
    projection_->applyKnobs(knobs);
  });
  connect(projection_, &SimulationView::failed, this, &AdviceView::settled);
}

void AdviceView::setAdvice(std::shared_ptr<const Run> run, std::shared_ptr<const Advice> advice) {
  run_ = std::move(run);
  advice_ = advice;
  simulatedRank_ = -1;
  model_->setAdvice(std::move(advice));
  table_->sortByColumn(AdviceModel::Saving, Qt::DescendingOrder);
  table_->resizeColumnsToContents();
  details_->setText(model_->rowCount() == 0
                        ? tr("No findings: nothing the advice looks for happens in this run.")
                        : tr("Choose a finding to see its evidence and the run with its fix."));
  if (model_->rowCount() == 0)
    emit settled();
  else if (showTopFinding_)
    table_->setCurrentIndex(proxy_->index(0, 0));
}

void AdviceView::showFinding(int row) {
  const Finding* f = model_->finding(row);
  if (!f) return;
  details_->setText(QString::fromStdString(
      f->title + "\n" + describePrice(f->price) + "\nWhy: " + f->explanation +
      "\nModel: " + f->price.model + "\nEvidence: " + std::to_string(f->evidence.size()) +
      " events, shown on the timeline"));
  emit findingActivated(int(f->rankIndex), f->evidence);
  // The evidence on the finding's own rank, whichever the timeline shows; the first selected.
  if (!f->evidence.empty()) {
    const RankNavigation rank = navigation_.withRank(int(f->rankIndex));
    rank.select(f->evidence.front());
    rank.highlight(f->evidence, {}, this, true);
  }
  if (!run_ || !f->fix.any()) {
    emit settled();
    return;
  }
  if (simulatedRank_ != int(f->rankIndex)) {
    simulatedRank_ = int(f->rankIndex);
    pending_ = f->fix;
    projection_->simulate(run_, int(f->rankIndex));
  } else if (projection_->result()) {
    projection_->applyKnobs(f->fix);
  } else {
    pending_ = f->fix;  // still simulating: applied when ready
  }
}

QString AdviceView::detailsText() const { return details_->text(); }

}  // namespace sutra::widgets
