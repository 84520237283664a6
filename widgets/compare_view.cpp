// SPDX-License-Identifier: MIT
#include "compare_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

#include "table_sorting.h"
#include "text/format.h"

namespace sutra::widgets {

CompareView::CompareView(QWidget* parent)
    : QWidget(parent),
      model_(new CompareModel(this)),
      proxy_(new BlanksLastProxy(this)),
      table_(new QTableView(this)),
      headline_(new QLabel(this)),
      totals_(new QLabel(this)),
      headers_{new QLabel(this), new QLabel(this), new QLabel(this)},
      timelines_{new TimelineView(this), new TimelineView(this), new TimelineView(this)},
      panes_{new QWidget(this), new QWidget(this), new QWidget(this)},
      bottom_(new QSplitter(Qt::Horizontal, this)),
      chart_(new ChartView(this)),
      foldFrames_(new QAction(tr("Fold &Python Frames"), this)) {
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(CompareModel::SortRole);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->verticalHeader()->hide();
  table_->setWordWrap(false);
  sortLargestFirst(table_, {CompareModel::Name, CompareModel::Side});
  // The story in words a user can paste: the headline bold, the replaced operators and the totals
  // under it.
  headline_->setObjectName("compareHeadline");
  headline_->setWordWrap(true);
  headline_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  QFont bold = headline_->font();
  bold.setBold(true);
  headline_->setFont(bold);
  totals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  totals_->setWordWrap(true);
  totals_->setObjectName("compareTotals");

  // The runs one above the other: one time axis for all, each run named once over its lanes.
  auto* timelines = new QSplitter(Qt::Vertical, this);
  for (int i = 0; i < 3; ++i) {
    auto* pane = new QVBoxLayout(panes_[i]);
    pane->setContentsMargins(0, 0, 0, 0);
    pane->setSpacing(0);
    headers_[i]->setObjectName(QStringLiteral("compareRunHeader%1").arg(QChar('A' + i)));
    headers_[i]->setFont(bold);
    headers_[i]->setContentsMargins(6, 2, 6, 2);
    if (i == 0) {  // the first run's header carries the frames' toggle, over all the runs
      auto* row = new QHBoxLayout;
      row->addWidget(headers_[i], 1);
      auto* fold = new QToolButton(panes_[i]);
      fold->setDefaultAction(foldFrames_);
      fold->setToolButtonStyle(Qt::ToolButtonTextOnly);
      row->addWidget(fold);
      pane->addLayout(row);
    } else {
      pane->addWidget(headers_[i]);
    }
    pane->addWidget(timelines_[i], 1);
    timelines->addWidget(panes_[i]);
  }
  panes_[2]->hide();
  bottom_->addWidget(table_);
  bottom_->addWidget(chart_);
  bottom_->setStretchFactor(0, 1);
  bottom_->setStretchFactor(1, 1);
  auto* vertical = new QSplitter(Qt::Vertical, this);
  vertical->addWidget(timelines);
  vertical->addWidget(bottom_);
  vertical->setSizes({540, 460});
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(headline_);
  layout->addWidget(totals_);
  layout->addWidget(vertical, 1);

  for (int i = 0; i < 3; ++i)
    connect(timelines_[i], &TimelineView::visibleRangeChanged, this, [this, i] { followRange(i); });
  // Folded by default, as the layouts the app compares with are; P toggles, in this window only.
  foldFrames_->setObjectName(QStringLiteral("FoldPythonFramesAction"));
  foldFrames_->setCheckable(true);
  foldFrames_->setChecked(true);
  foldFrames_->setShortcut(QKeySequence(Qt::Key_P));
  foldFrames_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  foldFrames_->setToolTip(
      tr("On: each thread's Python frames in one thin band over its ops. "
         "Off: a row per frame depth, as recorded."));
  addAction(foldFrames_);
  connect(foldFrames_, &QAction::toggled, this, &CompareView::setFoldPythonFrames);
}

void CompareView::showReading(const QStringList& paths) {
  inputs_ = paths;
  totals_->setText(tr("Reading %1 ...").arg(paths.join(QStringLiteral(", "))));
}

void CompareView::showFailure(const QString& message) { emit failed(message); }

void CompareView::showComparison(ComparisonResult result) {
  if (!result.error.isEmpty()) return showFailure(result.error);
  const CompareSide sides[3] = {result.a, result.b, result.c.value_or(CompareSide{})};
  for (int i = 0; i < 3; ++i) {
    alignAt_[i] = sides[i].alignAt;
    span_[i] = sides[i].trace ? std::max<TimeNs>(0, sides[i].trace->endNs - sides[i].alignAt) : 0;
  }
  if (inputs_.isEmpty())
    for (const CompareSide& side : sides)
      if (side.trace) inputs_ << QString::fromStdString(side.trace->path);
  const OpComparison& c = result.comparison;
  const std::string dev = c.device.empty() ? "CUDA" : c.device;
  headline_->setText(QString::fromStdString(result.story.headline));
  QString totals = QString::fromStdString(result.story.replaced);
  if (!totals.isEmpty()) totals += QLatin1Char('\n');
  totals += QString::fromStdString(
      totalLine("Self " + dev + " total", c.selfDeviceTotalA, c.selfDeviceTotalB) + "    " +
      totalLine("Self CPU total", c.selfCpuTotalA, c.selfCpuTotalB) + "    only in A: " +
      std::to_string(c.onlyInA()) + ", only in B: " + std::to_string(c.onlyInB()));
  std::vector<DeltaBar> bars = comparisonDeltas(c, 12);
  if (result.aVsC) {
    const OpComparison& ac = *result.aVsC;
    totals += QString::fromStdString(
        "\nC (" + ac.labelB + ") against A:    " +
        totalLine("Self " + dev + " total", ac.selfDeviceTotalA, ac.selfDeviceTotalB) + "    " +
        totalLine("Self CPU total", ac.selfCpuTotalA, ac.selfCpuTotalB) +
        "    only in C: " + std::to_string(ac.onlyInB()));
  }
  totals_->setText(totals);
  const bool third = result.aVsC.has_value();
  // Runs with no device time on any side (CPU recordings) show no columns of device zeros.
  const bool device = result.comparison.selfDeviceTotalA != 0 ||
                      result.comparison.selfDeviceTotalB != 0 ||
                      (third && result.aVsC->selfDeviceTotalB != 0);
  model_->setComparison(std::move(result.comparison), std::move(result.aVsC));
  // A bar's C values are those of the same operator's row (name, shapes, device side).
  if (third)
    for (DeltaBar& bar : bars)
      for (const CompareModel::Row& row : model_->rows()) {
        if (row.ab.name != bar.name || row.ab.inputShapes != bar.inputShapes ||
            row.ab.onDevice != bar.onDevice)
          continue;
        bar.deviceC = row.c.selfDevice - row.ab.a.selfDevice;
        bar.cpuC = row.c.selfCpu - row.ab.a.selfCpu;
        break;
      }
  chart_->showComparison(bars, third);
  // The model's own order (grouped, largest change first), and a header that says no column
  // sorts it (an indicator on Name would claim an order the rows are not in).
  proxy_->sort(-1);
  table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  for (int c :
       {CompareModel::DeviceTotalDelta, CompareModel::SelfDeviceA, CompareModel::SelfDeviceB,
        CompareModel::SelfDeviceDelta, CompareModel::SelfDeviceC, CompareModel::SelfDeviceDeltaC})
    table_->setColumnHidden(c, !device);
  table_->resizeColumnsToContents();
  table_->setColumnWidth(CompareModel::Name,
                         std::min(table_->columnWidth(CompareModel::Name), 260));
  // The table's story columns need more room than the chart.
  bottom_->setSizes({width() * 3 / 5, width() * 2 / 5});
  syncing_ = true;
  const char* letters[3] = {"A", "B", "C"};
  for (int i = 0; i < 3; ++i) {
    panes_[i]->setVisible(sides[i].trace != nullptr);
    if (!sides[i].trace) continue;
    timelines_[i]->setTrace(sides[i].trace, sides[i].layout);
    headers_[i]->setText(QStringLiteral("%1: %2    %3 from its first step")
                             .arg(QLatin1String(letters[i]), QString::fromStdString(sides[i].label),
                                  durationText(span_[i])));
  }
  // One axis for all: the longest run sets the scale, so a faster run ends visibly earlier (its
  // bounds widened to the shared span), and the label columns line up.
  int labels = 0;
  for (int i = 0; i < 3; ++i)
    if (sides[i].trace) {
      timelines_[i]->setExtraBounds({alignAt_[i], alignAt_[i] + sharedSpan()});
      labels = std::max(labels, timelines_[i]->labelWidth());
    }
  for (TimelineView* timeline : timelines_) timeline->setMinimumLabelWidth(labels);
  syncing_ = false;
  if (sides[0].trace) timelines_[0]->setVisibleRange({alignAt_[0], alignAt_[0] + sharedSpan()});
  // Each run opens on its first step's row, the ops under it (the frames above it are folded).
  for (int i = 0; i < 3; ++i)
    if (sides[i].trace && sides[i].firstStep != kNoEvent)
      timelines_[i]->revealRow(0, sides[i].layout->rowOf(sides[i].firstStep));
  if (!foldFrames_->isChecked()) setFoldPythonFrames(false);  // the app laid them out folded
  emit ready();
}

void CompareView::setFoldPythonFrames(bool fold) {
  std::vector<std::shared_ptr<const Trace>> traces;
  for (TimelineView* timeline : timelines_)
    traces.push_back(timeline->partCount() > 0 ? timeline->part(0).trace : nullptr);
  emit layoutsRequested(traces, fold);  // a big trace takes a moment: the app lays out on a worker
}

void CompareView::showLayouts(const std::vector<std::shared_ptr<const LaneLayout>>& layouts) {
  for (std::size_t i = 0; i < layouts.size() && i < 3; ++i)
    if (layouts[i]) timelines_[i]->setLayouts({layouts[i]});
  emit layoutsChanged();
}

TimeNs CompareView::sharedSpan() const {
  return std::max({span_[0], span_[1], span_[2], TimeNs{1}});
}

void CompareView::followRange(int from) {
  if (syncing_ || !timelines_[from]->trace()) return;
  syncing_ = true;  // the followers' own signals must not move the leader back
  const TimeRange r = timelines_[from]->visibleRange();
  for (int to = 0; to < 3; ++to) {
    if (to == from || !timelines_[to]->trace()) continue;
    timelines_[to]->setVisibleRange(
        {r.start - alignAt_[from] + alignAt_[to], r.end - alignAt_[from] + alignAt_[to]});
  }
  syncing_ = false;
}

}  // namespace sutra::widgets
