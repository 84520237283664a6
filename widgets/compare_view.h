// SPDX-License-Identifier: MIT
#pragma once
// Two or three runs side by side: their timelines (aligned on their first step's start and
// zoom-locked), the totals, the per-operator comparison table (sortable; with a third run, its
// deltas against the first) and the chart of the largest changes. Traces are read and compared
// off the GUI thread.
#include <QFutureWatcher>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QWidget>
#include <memory>
#include <optional>

#include "analysis/compare.h"
#include "chart_view.h"
#include "compare_model.h"
#include "timeline_view.h"
#include "view/lane_layout.h"

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
  std::optional<CompareSide> c;      // a third run, where one was given
  std::optional<OpComparison> aVsC;  // the first run against the third
  QString error;                     // set when a trace could not be read
};

// Reads the traces (two or three) and compares their operator tables over the whole trace: the
// second against the first and, where given, the third against the first.
ComparisonResult compareTraceFiles(const QStringList& paths);
ComparisonResult compareTraceFiles(const QString& pathA, const QString& pathB);
// The same for traces already loaded (`c` may be null).
ComparisonResult compareTraces(std::shared_ptr<const Trace> a, std::shared_ptr<const Trace> b,
                               std::shared_ptr<const Trace> c = nullptr);

class CompareView : public QWidget {
  Q_OBJECT

 public:
  explicit CompareView(QWidget* parent = nullptr);

  // Starts reading and comparing two or three files; `ready` or `failed` follows.
  void openFiles(const QStringList& paths);
  void openFiles(const QString& pathA, const QString& pathB) {
    openFiles(QStringList{pathA, pathB});
  }
  void setResult(ComparisonResult result);

  const OpComparison& comparison() const { return model_->comparison(); }
  QString totalsText() const { return totals_->text(); }
  CompareModel* model() const { return model_; }
  QSortFilterProxyModel* sortedModel() const { return proxy_; }
  TimelineView* timelineA() const { return timelines_[0]; }
  TimelineView* timelineB() const { return timelines_[1]; }
  TimelineView* timelineC() const { return timelines_[2]; }  // hidden with two runs
  ChartView* chart() const { return chart_; }
  QStringList inputs() const { return inputs_; }

 signals:
  void ready();
  void failed(const QString& message);

 private:
  void followRange(int from);

  CompareModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* table_;
  QLabel* totals_;
  TimelineView* timelines_[3];
  TimeNs alignAt_[3] = {0, 0, 0};
  QSplitter* bottom_;
  ChartView* chart_;
  QStringList inputs_;
  bool syncing_ = false;
  QFutureWatcher<ComparisonResult>* watcher_;
};

}  // namespace sutra::widgets
