// SPDX-License-Identifier: MIT
#pragma once
// Two runs side by side: their timelines (aligned on their first step's start and zoom-locked),
// the totals line, the per-operator comparison table (sortable) and the chart of the largest
// changes. Traces are read and compared off the GUI thread.
#include <QFutureWatcher>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QWidget>
#include <memory>

#include "analysis/compare.h"
#include "chart_view.h"
#include "compare_model.h"
#include "lane_layout.h"
#include "timeline_view.h"

namespace sutra::widgets {

// One side of a comparison, ready to show.
struct CompareSide {
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const LaneLayout> layout;
  TimeNs alignAt = 0;  // the first step's start (the trace's start without steps)
};

struct ComparisonResult {
  CompareSide a, b;
  OpComparison comparison;
  QString error;  // set when a trace could not be read
};

// Reads both traces and compares their operator tables over the whole trace.
ComparisonResult compareTraceFiles(const QString& pathA, const QString& pathB);
// The same for traces already loaded.
ComparisonResult compareTraces(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b);

class CompareView : public QWidget {
  Q_OBJECT

 public:
  explicit CompareView(QWidget* parent = nullptr);

  // Starts reading and comparing; `ready` or `failed` follows.
  void openFiles(const QString& pathA, const QString& pathB);
  void setResult(ComparisonResult result);

  const OpComparison& comparison() const { return model_->comparison(); }
  QString totalsText() const { return totals_->text(); }
  CompareModel* model() const { return model_; }
  QSortFilterProxyModel* sortedModel() const { return proxy_; }
  TimelineView* timelineA() const { return timelineA_; }
  TimelineView* timelineB() const { return timelineB_; }
  ChartView* chart() const { return chart_; }
  QStringList inputs() const { return inputs_; }

 signals:
  void ready();
  void failed(const QString& message);

 private:
  void followRange(TimelineView* from, TimelineView* to, TimeNs fromAlign, TimeNs toAlign);

  CompareModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* table_;
  QLabel* totals_;
  TimelineView* timelineA_;
  TimelineView* timelineB_;
  ChartView* chart_;
  CompareSide a_, b_;
  QStringList inputs_;
  bool syncing_ = false;
  QFutureWatcher<ComparisonResult>* watcher_;
};

}  // namespace sutra::widgets
