// SPDX-License-Identifier: MIT
#include "rank_overview_view.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

#include "problems_model.h"  // kSortRole
#include "table_sorting.h"
#include "text/format.h"

namespace sutra::widgets {
namespace {

constexpr int kLeftMargin = 48;  // room for the rank numbers
constexpr int kMaxRowHeight = 16;
constexpr int kMinRowHeight = 2;

}  // namespace

RankOverviewModel::RankOverviewModel(QObject* parent) : QAbstractTableModel(parent) {}

void RankOverviewModel::setOverview(std::shared_ptr<const RankOverview> overview) {
  beginResetModel();
  overview_ = std::move(overview);
  endResetModel();
}

int RankOverviewModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !overview_ ? 0 : static_cast<int>(overview_->ranks.size());
}

int RankOverviewModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RankOverviewModel::data(const QModelIndex& index, int role) const {
  if (!overview_ || !index.isValid() || index.row() >= rowCount()) return {};
  const auto row = static_cast<std::size_t>(index.row());
  const RankSummary& r = overview_->ranks[row];
  const auto& st = overview_->stats[row];
  auto number = [&]() -> qlonglong {
    switch (index.column()) {
      case Rank:
        return r.rank;
      case Steps:
        return static_cast<qlonglong>(r.steps.size());
      case Step:
        return r.meanStep();
      case Compute:
        return r.meanCompute();
      case Comm:
        return r.meanExposedComm();
      case Idle:
        return r.meanIdle();
      case Wait:
        return st.waitNs;
      case Last:
        return st.lastArrivals;
      default:
        return 0;
    }
  };
  if (role == kSortRole) return number();
  if (role == Qt::TextAlignmentRole) return int(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Rank:
    case Steps:
    case Last:
      return number();
    default:
      return durationText(number());
  }
}

QVariant RankOverviewModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Rank:
      return tr("Rank");
    case Steps:
      return tr("Steps");
    case Step:
      return tr("Step");
    case Compute:
      return tr("Compute");
    case Comm:
      return tr("Exposed comm");
    case Idle:
      return tr("Idle");
    case Wait:
      return tr("Wait at collectives");
    case Last:
      return tr("Arrived last");
    default:
      return {};
  }
}

RankHeatMap::RankHeatMap(QWidget* parent) : QWidget(parent) {
  setMouseTracking(false);
  setMinimumHeight(120);
}

void RankHeatMap::setOverview(std::shared_ptr<const RankOverview> overview) {
  overview_ = std::move(overview);
  waits_.clear();
  if (overview_) {
    for (const auto& c : overview_->collectives) {
      std::vector<TimeNs> w(overview_->ranks.size(), -1);
      for (const auto& m : c.members) w[m.rank] = m.wait;
      waits_.push_back(std::move(w));
    }
  }
  updateGeometry();
  update();
}

void RankHeatMap::setMetric(Metric metric) {
  metric_ = metric;
  update();
}

int RankHeatMap::columns() const {
  if (!overview_) return 0;
  if (metric_ == Metric::CollectiveWait) return static_cast<int>(overview_->collectives.size());
  std::size_t most = 0;
  for (const auto& r : overview_->ranks) most = std::max(most, r.steps.size());
  return static_cast<int>(most);
}

std::optional<TimeNs> RankHeatMap::value(int row, int column) const {
  if (!overview_ || row < 0 || column < 0 || row >= static_cast<int>(overview_->ranks.size()))
    return std::nullopt;
  const auto r = static_cast<std::size_t>(row);
  const auto c = static_cast<std::size_t>(column);
  if (metric_ == Metric::CollectiveWait) {
    if (c >= waits_.size() || waits_[c][r] < 0) return std::nullopt;
    return waits_[c][r];
  }
  const auto& steps = overview_->ranks[r].steps;
  if (c >= steps.size()) return std::nullopt;
  switch (metric_) {
    case Metric::StepTime:
      return steps[c].duration;
    case Metric::Compute:
      return steps[c].compute;
    case Metric::ExposedComm:
      return steps[c].exposedComm;
    case Metric::Idle:
      return steps[c].idle;
    case Metric::CollectiveWait:
      break;
  }
  return std::nullopt;
}

int RankHeatMap::rowAt(int y) const {
  if (!overview_ || overview_->ranks.empty()) return -1;
  const int rows = static_cast<int>(overview_->ranks.size());
  const double h = std::max(1.0, static_cast<double>(height()) / rows);
  const int row = static_cast<int>(y / h);
  return row >= 0 && row < rows ? row : -1;
}

QSize RankHeatMap::sizeHint() const {
  const int rows = overview_ ? static_cast<int>(overview_->ranks.size()) : 0;
  return {600, std::clamp(rows * kMaxRowHeight, 120, 600)};
}

void RankHeatMap::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  const int cols = columns();
  if (!overview_ || overview_->ranks.empty() || cols == 0) {
    p.setPen(palette().text().color());
    p.drawText(rect(), Qt::AlignCenter, tr("Nothing to show"));
    return;
  }
  const int rows = static_cast<int>(overview_->ranks.size());
  TimeNs lo = INT64_MAX, hi = INT64_MIN;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (auto v = value(r, c)) {
        lo = std::min(lo, *v);
        hi = std::max(hi, *v);
      }
  // Differences under a twentieth of the largest value stay pale: a job whose steps are all within
  // 1 % of each other must not look like a rainbow.
  const TimeNs span = std::max<TimeNs>({hi - lo, hi / 20, 1});
  const QColor low = palette().base().color();
  const QColor high(214, 39, 40);  // one hue from the window's background to red: the highest
  auto shade = [&](double t) {
    const double from = 0.08;  // even the lowest value is tinted, apart from the background
    const double k = from + (1.0 - from) * t;
    return QColor::fromRgbF(low.redF() + (high.redF() - low.redF()) * k,
                            low.greenF() + (high.greenF() - low.greenF()) * k,
                            low.blueF() + (high.blueF() - low.blueF()) * k);
  };
  const double rowH = static_cast<double>(height()) / rows;
  const double colW = static_cast<double>(width() - kLeftMargin) / cols;
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const auto v = value(r, c);
      if (!v) continue;
      const double t = static_cast<double>(*v - lo) / static_cast<double>(span);
      p.fillRect(QRectF(kLeftMargin + c * colW, r * rowH, std::max(1.0, colW - 0.5),
                        std::max(1.0, rowH - (rowH > 4 ? 0.5 : 0.0))),
                 shade(std::clamp(t, 0.0, 1.0)));
    }
    // Rank numbers where there is room for them.
    const int every = std::max(1, static_cast<int>(std::ceil(12.0 / std::max(rowH, 0.01))));
    if (r % every == 0) {
      p.setPen(palette().text().color());
      p.drawText(QRectF(0, r * rowH, kLeftMargin - 4, std::max(rowH, 12.0)),
                 Qt::AlignRight | Qt::AlignTop,
                 QString::number(overview_->ranks[static_cast<std::size_t>(r)].rank));
    }
  }
}

void RankHeatMap::mousePressEvent(QMouseEvent* event) {
  const int row = rowAt(static_cast<int>(event->position().y()));
  if (row >= 0 && event->button() == Qt::LeftButton) emit rankClicked(row);
}

RankOverviewView::RankOverviewView(QWidget* parent)
    : QWidget(parent),
      summary_(new QLabel(this)),
      metricBox_(new QComboBox(this)),
      heatMap_(new RankHeatMap(this)),
      model_(new RankOverviewModel(this)),
      table_(new QTableView(this)) {
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  metricBox_->addItem(tr("Step time (ranks x steps)"), int(RankHeatMap::Metric::StepTime));
  metricBox_->addItem(tr("Compute (ranks x steps)"), int(RankHeatMap::Metric::Compute));
  metricBox_->addItem(tr("Exposed communication (ranks x steps)"),
                      int(RankHeatMap::Metric::ExposedComm));
  metricBox_->addItem(tr("Idle (ranks x steps)"), int(RankHeatMap::Metric::Idle));
  metricBox_->addItem(tr("Wait (ranks x collectives)"), int(RankHeatMap::Metric::CollectiveWait));
  connect(metricBox_, &QComboBox::currentIndexChanged, this, [this](int i) {
    heatMap_->setMetric(static_cast<RankHeatMap::Metric>(metricBox_->itemData(i).toInt()));
  });
  // Compute first: ranks that wait for each other have the same step time, and the slow one shows
  // in what it computed.
  metricBox_->setCurrentIndex(1);
  connect(heatMap_, &RankHeatMap::rankClicked, this, [this](int index) {
    if (overview_) emit openRanksRequested({overview_->ranks[std::size_t(index)].rank});
  });

  auto* proxy = new BlanksLastProxy(this);
  proxy->setSourceModel(model_);
  proxy->setSortRole(kSortRole);
  table_->setModel(proxy);
  table_->setSortingEnabled(true);
  table_->sortByColumn(RankOverviewModel::Rank, Qt::AscendingOrder);
  sortLargestFirst(table_, {RankOverviewModel::Rank});
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  connect(table_, &QTableView::doubleClicked, this, [this] {
    if (!selectedRanks().isEmpty()) emit openRanksRequested(selectedRanks());
  });
  auto* open = new QPushButton(tr("Open Selected Ranks"), this);
  open->setObjectName("OpenSelectedRanks");
  connect(open, &QPushButton::clicked, this, [this] {
    if (!selectedRanks().isEmpty()) emit openRanksRequested(selectedRanks());
  });

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Heat map:"), this));
  top->addWidget(metricBox_, 1);
  top->addWidget(open);
  auto* split = new QSplitter(Qt::Vertical, this);
  split->addWidget(heatMap_);
  split->addWidget(table_);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(summary_);
  layout->addLayout(top);
  layout->addWidget(split, 1);
}

void RankOverviewView::setOverview(std::shared_ptr<const RankOverview> overview) {
  overview_ = std::move(overview);
  model_->setOverview(overview_);
  heatMap_->setOverview(overview_);
  if (!overview_) {
    summary_->clear();
    return;
  }
  QString text = tr("%1 ranks, %2 collectives matched; median step %3.")
                     .arg(overview_->ranks.size())
                     .arg(overview_->collectives.size())
                     .arg(durationText(overview_->medianStep));
  if (overview_->stragglers.empty()) text += tr(" No straggler: no rank stands out.");
  for (const auto& s : overview_->stragglers) {
    text += QStringLiteral("\n") + tr("Straggler: rank %1: %2")
                                       .arg(overview_->ranks[s.rank].rank)
                                       .arg(QString::fromStdString(s.reason));
    QStringList delayed;
    for (const auto& d : s.worst) {
      const auto& c = overview_->collectives[d.collective];
      delayed << tr("%1 #%2 by %3")
                     .arg(QString::fromStdString(c.collective))
                     .arg(c.seq ? QString::number(*c.seq) : QStringLiteral("?"))
                     .arg(durationText(d.delay));
    }
    if (!delayed.isEmpty())
      text += tr("; delayed most: %1").arg(delayed.join(QStringLiteral(", ")));
  }
  summary_->setText(text);
}

QList<int> RankOverviewView::selectedRanks() const {
  QList<int> out;
  if (!overview_) return out;
  for (const QModelIndex& index : table_->selectionModel()->selectedRows()) {
    const auto row =
        table_->model()->data(index.siblingAtColumn(RankOverviewModel::Rank), kSortRole);
    out << row.toInt();
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sutra::widgets
