// SPDX-License-Identifier: MIT
#include "simulation_view.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QVBoxLayout>

#include "text/format.h"

namespace sutra::widgets {

// --- StepTimingModel ---

StepTimingModel::StepTimingModel(QObject* parent) : QAbstractTableModel(parent) {}

void StepTimingModel::setSteps(std::vector<StepTiming> steps, std::vector<StepTiming> whatIf) {
  beginResetModel();
  steps_ = std::move(steps);
  whatIf_ = std::move(whatIf);
  endResetModel();
}

int StepTimingModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(steps_.size());
}
int StepTimingModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant StepTimingModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const StepTiming& s = steps_[std::size_t(index.row())];
  const StepTiming* w =
      std::size_t(index.row()) < whatIf_.size() ? &whatIf_[std::size_t(index.row())] : nullptr;
  if (role == SortRole) {
    switch (index.column()) {
      case Step:
        return qlonglong(s.number);
      case Measured:
        return qlonglong(s.measured);
      case Simulated:
        return qlonglong(s.simulated);
      case WhatIf:
        return w ? QVariant(qlonglong(w->simulated)) : QVariant();
    }
    return {};
  }
  if (role == Qt::TextAlignmentRole)
    return index.column() == Step ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                  : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Step:
      return QString::fromStdString(s.name);
    case Measured:
      return durationText(s.measured);
    case Simulated:
      return durationText(s.simulated);
    case WhatIf:
      return w ? durationText(w->simulated) : QString();
  }
  return {};
}

QVariant StepTimingModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case Step:
      return tr("Step");
    case Measured:
      return tr("Measured");
    case Simulated:
      return tr("Simulated");
    case WhatIf:
      return tr("What-if");
  }
  return {};
}

// --- WhatIfDialog ---

WhatIfDialog::WhatIfDialog(QWidget* parent)
    : QDialog(parent),
      scales_(new QPlainTextEdit(this)),
      hostScales_(new QPlainTextEdit(this)),
      networkSpeed_(new QDoubleSpinBox(this)),
      launchLatencyUs_(new QLineEdit(this)),
      cpuSpeed_(new QDoubleSpinBox(this)),
      dropSyncs_(new QCheckBox(tr("Blocking calls and stream waits wait for nothing"), this)) {
  setWindowTitle(tr("What if..."));
  scales_->setPlaceholderText(tr("one per line: REGEX=FACTOR, e.g. gemm=0.5"));
  hostScales_->setPlaceholderText(
      tr("one per line: REGEX=FACTOR on host ops and annotations, e.g. straggle=0"));
  networkSpeed_->setRange(kMinNetworkSpeed, 1000.0);
  networkSpeed_->setDecimals(3);
  networkSpeed_->setValue(1.0);
  networkSpeed_->setToolTip(
      tr("The network's bandwidth times this: the bandwidth part of every collective's transfer "
         "is divided by it"));
  launchLatencyUs_->setPlaceholderText(tr("as measured"));
  cpuSpeed_->setRange(0.01, 100.0);
  cpuSpeed_->setDecimals(2);
  cpuSpeed_->setValue(1.0);
  auto* form = new QFormLayout;
  form->addRow(tr("Scale device ops"), scales_);
  form->addRow(tr("Scale host ops"), hostScales_);
  form->addRow(tr("Network speed (x)"), networkSpeed_);
  form->addRow(tr("Launch latency (us)"), launchLatencyUs_);
  form->addRow(tr("CPU speed (x)"), cpuSpeed_);
  form->addRow(tr("Syncs"), dropSyncs_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, [this] {
    if (auto k = knobs(); !k)
      QMessageBox::warning(this, windowTitle(), QString::fromStdString(k.error().message));
    else
      accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(buttons);
}

Result<SimKnobs> WhatIfDialog::knobs() const {
  SimKnobs k;
  for (const QString& line : scales_->toPlainText().split('\n', Qt::SkipEmptyParts)) {
    if (line.trimmed().isEmpty()) continue;
    auto scale = parseDurationScale(line.trimmed().toStdString());
    if (!scale) return scale.error();
    k.scales.push_back(std::move(*scale));
  }
  for (const QString& line : hostScales_->toPlainText().split('\n', Qt::SkipEmptyParts)) {
    if (line.trimmed().isEmpty()) continue;
    auto scale = parseHostScale(line.trimmed().toStdString());
    if (!scale) return scale.error();
    k.hostScales.push_back(std::move(*scale));
  }
  k.networkSpeed = networkSpeed_->value();
  if (!launchLatencyUs_->text().trimmed().isEmpty()) {
    bool ok = false;
    const double us = launchLatencyUs_->text().trimmed().toDouble(&ok);
    if (!ok)
      return Error{"launch latency: '" + launchLatencyUs_->text().toStdString() +
                   "' is not a number of microseconds"};
    auto ns = launchLatencyFromMicros(us);  // core's range, as the CLI's --launch-latency-us
    if (!ns) return ns.error();
    k.launchLatencyNs = *ns;
  }
  k.cpuSpeed = cpuSpeed_->value();
  k.dropSyncs = dropSyncs_->isChecked();
  if (auto valid = validateKnobs(k); !valid) return valid.error();
  return k;
}

void WhatIfDialog::setKnobs(const SimKnobs& k) {
  QStringList lines;
  for (const auto& s : k.scales)
    lines << QString::fromStdString(s.pattern) + '=' + QString::number(s.factor);
  scales_->setPlainText(lines.join('\n'));
  QStringList hostLines;
  for (const auto& s : k.hostScales)
    hostLines << QString::fromStdString(s.pattern) + '=' + QString::number(s.factor);
  hostScales_->setPlainText(hostLines.join('\n'));
  networkSpeed_->setValue(k.networkSpeed);
  launchLatencyUs_->setText(k.launchLatencyNs ? QString::number(double(*k.launchLatencyNs) / 1000.0)
                                              : QString());
  cpuSpeed_->setValue(k.cpuSpeed);
  dropSyncs_->setChecked(k.dropSyncs);
}

// --- SimulationView ---

SimulationView::SimulationView(QWidget* parent)
    : QWidget(parent),
      model_(new StepTimingModel(this)),
      table_(new QTableView(this)),
      chart_(new ChartView(this)),
      summary_(new QLabel(this)),
      moved_(new QLabel(this)),
      measured_(new TimelineView(this)),
      simulated_(new TimelineView(this)),
      showMeasured_(new QCheckBox(tr("Measured lanes"), this)),
      showSimulated_(new QCheckBox(tr("Simulated lanes"), this)) {
  measured_->setObjectName("measuredTimeline");
  simulated_->setObjectName("simulatedTimeline");
  showMeasured_->setChecked(true);
  showSimulated_->setChecked(true);
  connect(showMeasured_, &QCheckBox::toggled, measured_, &QWidget::setVisible);
  connect(showSimulated_, &QCheckBox::toggled, simulated_, &QWidget::setVisible);
  // One time axis: the simulator keeps the measured clock, so a window is the same on both.
  auto follow = [this](TimelineView* from, TimelineView* to) {
    if (syncing_ || !from->trace() || !to->trace()) return;
    syncing_ = true;
    to->setVisibleRange(from->visibleRange());
    syncing_ = false;
  };
  connect(measured_, &TimelineView::visibleRangeChanged, this,
          [this, follow] { follow(measured_, simulated_); });
  connect(simulated_, &TimelineView::visibleRangeChanged, this,
          [this, follow] { follow(simulated_, measured_); });
  auto* proxy = new QSortFilterProxyModel(this);
  proxy->setSourceModel(model_);
  proxy->setSortRole(StepTimingModel::SortRole);
  table_->setModel(proxy);
  table_->setSortingEnabled(true);
  table_->verticalHeader()->hide();
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  moved_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  moved_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  auto* whatIf = new QPushButton(tr("What if..."), this);
  connect(whatIf, &QPushButton::clicked, this, &SimulationView::editKnobs);

  auto* left = new QWidget(this);
  auto* leftLayout = new QVBoxLayout(left);
  leftLayout->setContentsMargins(0, 0, 0, 0);
  leftLayout->addWidget(table_, 1);
  leftLayout->addWidget(whatIf);
  leftLayout->addWidget(moved_);
  auto* split = new QSplitter(Qt::Horizontal, this);
  split->addWidget(left);
  split->addWidget(chart_);
  split->setStretchFactor(1, 2);
  auto* lanes = new QSplitter(Qt::Vertical, this);
  lanes->addWidget(measured_);
  lanes->addWidget(simulated_);
  auto* vertical = new QSplitter(Qt::Vertical, this);
  vertical->addWidget(lanes);
  vertical->addWidget(split);
  vertical->setStretchFactor(0, 3);
  vertical->setStretchFactor(1, 2);
  vertical->setSizes({600, 400});  // the lanes first: they need the height
  auto* top = new QHBoxLayout;
  top->addWidget(summary_, 1);
  top->addWidget(showMeasured_);
  top->addWidget(showSimulated_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(vertical, 1);
}

void SimulationView::simulate(std::shared_ptr<const Run> run, int rankIndex) {
  summary_->setText(tr("Simulating..."));
  emit simulationRequested(std::move(run), rankIndex);
}

void SimulationView::applyKnobs(const SimKnobs& knobs) {
  if (!result_) return;
  summary_->setText(tr("Simulating the what-if..."));
  emit whatIfRequested(result_, knobs);
}

void SimulationView::showFailure(const QString& message) { emit failed(message); }

void SimulationView::editKnobs() {
  if (!result_) return;
  WhatIfDialog dialog(this);
  dialog.setKnobs(result_->knobs);
  if (dialog.exec() != QDialog::Accepted) return;
  if (auto k = dialog.knobs()) applyKnobs(*k);
}

void SimulationView::showSimulation(SimulationResult r) {
  if (!r.error.isEmpty()) return showFailure(r.error);
  result_ = std::make_shared<const SimulationResult>(std::move(r));
  const SimulationResult& s = *result_;
  // Like with like: the same steps, first start to last end, measured and simulated.
  const RankProjection& p = s.projection;
  const QString steps = p.steps.size() == 1 ? tr("1 step") : tr("%1 steps").arg(p.steps.size());
  QString text = tr("%1: measured %2, simulated %3 (%4); %5 device ops replayed")
                     .arg(steps, durationText(p.measuredNs), durationText(p.simulatedNs),
                          p.simulatedNs == p.measuredNs
                              ? tr("exact replay")
                              : QString::fromStdString(describeChange(p.measuredNs, p.simulatedNs)))
                     .arg(s.graph->deviceOpCount());
  if (s.coupledRanks > 1)
    text += tr("; %1 ranks simulated together, coupled at their collectives").arg(s.coupledRanks);
  if (s.variant && s.whatIfProjection)
    text += tr("\nWhat-if (%1): %2, %3 against the replay")
                .arg(QString::fromStdString(describeKnobs(s.knobs)),
                     durationText(s.whatIfProjection->simulatedNs),
                     QString::fromStdString(
                         describeChange(p.simulatedNs, s.whatIfProjection->simulatedNs)));
  summary_->setText(text);
  QString moved;
  if (s.variant) {
    moved = tr("What moved:") + '\n';
    for (const TrackChange& t : s.moved.tracks)
      moved +=
          QStringLiteral("  %1: ends %2 -> %3\n")
              .arg(QString::fromStdString(t.label), durationText(t.baselineEnd - s.baseline.begin),
                   durationText(t.variantEnd - s.variant->begin));
    for (const OpChange& o : s.moved.ops)
      moved += QStringLiteral("  %1 (%2x): %3 -> %4\n")
                   .arg(QString::fromStdString(o.name).left(60))
                   .arg(o.count)
                   .arg(durationText(o.baselineNs), durationText(o.variantNs));
  }
  moved_->setText(moved);
  model_->setSteps(s.steps, s.variantSteps);
  table_->sortByColumn(StepTimingModel::Step, Qt::AscendingOrder);
  table_->resizeColumnsToContents();
  if (s.variant)
    chart_->showStepTimings(s.variantSteps,
                            tr("what-if (%1)").arg(QString::fromStdString(describeKnobs(s.knobs))));
  else
    chart_->showStepTimings(s.steps);

  // The timelines: the same window before and after a what-if, where one was shown.
  const bool keepWindow = measured_->trace() == s.trace.get();
  const TimeRange window = measured_->visibleRange();
  syncing_ = true;
  if (!keepWindow) measured_->setTrace(s.trace, s.measuredLayout);
  std::shared_ptr<const Trace> simulatedTrace(s.simulated, &s.simulated->trace);
  simulated_->setTrace(simulatedTrace, s.simulatedLayout);
  const TimeRange all{std::min(s.trace->startNs, simulatedTrace->startNs),
                      std::max(s.trace->endNs, simulatedTrace->endNs)};
  measured_->setExtraBounds(all);
  simulated_->setExtraBounds(all);
  const int labels = std::max(measured_->labelWidth(), simulated_->labelWidth());
  measured_->setMinimumLabelWidth(labels);
  simulated_->setMinimumLabelWidth(labels);
  syncing_ = false;
  if (keepWindow) {
    measured_->setVisibleRange(window);
    simulated_->setVisibleRange(window);
  } else {
    measured_->fitAll();
  }
  emit ready();
}

}  // namespace sutra::widgets
