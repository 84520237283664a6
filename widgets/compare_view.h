// SPDX-License-Identifier: MIT
#pragma once
// Two or three runs compared: the story in words first (device and CPU time, kernels, host idle
// A -> B; which operators one run replaced), then the runs' timelines one above the other on one
// time axis (aligned on their first step's start, zoom and pan locked, the longer run setting the
// scale, so the faster run is visibly shorter), the per-operator comparison table (grouped, the
// deltas first; with a third run, its deltas against the first) and the chart of each operator's
// change. The view reads no file and compares nothing: the app reads and compares the traces off
// the GUI thread (app/gui/compare_runner.h) and hands it the result (showComparison) or the
// failure (showFailure). Each thread's Python frames are folded into one band
// (LayoutOptions::foldPythonFrames), so the window opens on the steps and their ops; the "Fold
// Python Frames" toggle (key P) asks for the runs to be laid out again (layoutsRequested), and the
// app answers with showLayouts.
#include <QAction>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "analysis/compare.h"
#include "analysis/compare_story.h"
#include "chart_view.h"
#include "compare_model.h"
#include "timeline_view.h"
#include "view/lane_layout.h"

namespace sutra::widgets {

// One side of a comparison, ready to show.
struct CompareSide {
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const LaneLayout> layout;  // short lane labels: the run is named once, above
  std::string label;   // the run: its folder's name for a run folder, else the file's name
  TimeNs alignAt = 0;  // the first step's start (the trace's start without steps)
  EventId firstStep = kNoEvent;  // its annotation, where the trace has steps
};

struct ComparisonResult {
  CompareSide a, b;
  OpComparison comparison;
  ComparisonStory story;             // A against B, in words
  std::optional<CompareSide> c;      // a third run, where one was given
  std::optional<OpComparison> aVsC;  // the first run against the third
  QString error;                     // set when a trace could not be read
};

class CompareView : public QWidget {
  Q_OBJECT

 public:
  explicit CompareView(QWidget* parent = nullptr);

  // Says that `paths` (two or three) are being read and compared, until the answer comes.
  void showReading(const QStringList& paths);
  // The answers: the comparison shown, then `ready`; or `failed` with the message.
  void showComparison(ComparisonResult result);
  void showFailure(const QString& message);
  // The answer to layoutsRequested: each run's new lanes, in the order of the traces asked for
  // (null where none); `layoutsChanged` follows.
  void showLayouts(const std::vector<std::shared_ptr<const LaneLayout>>& layouts);

  const OpComparison& comparison() const { return model_->comparison(); }
  QString totalsText() const { return totals_->text(); }
  QString headlineText() const { return headline_->text(); }
  // The visible span of the timelines on the shared axis, and the header over each run's lanes.
  TimeNs sharedSpan() const;
  QString timelineHeader(int side) const { return headers_[side]->text(); }
  CompareModel* model() const { return model_; }
  QSortFilterProxyModel* sortedModel() const { return proxy_; }
  TimelineView* timelineA() const { return timelines_[0]; }
  TimelineView* timelineB() const { return timelines_[1]; }
  TimelineView* timelineC() const { return timelines_[2]; }  // hidden with two runs
  ChartView* chart() const { return chart_; }
  QStringList inputs() const { return inputs_; }
  // Checked while the Python frames are folded (the default); toggling lays the runs out again.
  QAction* foldPythonFramesAction() const { return foldFrames_; }

 signals:
  void ready();
  void failed(const QString& message);
  // The runs' traces (null for a side not shown) to be laid out again, their Python frames folded
  // or not.
  void layoutsRequested(const std::vector<std::shared_ptr<const Trace>>& traces,
                        bool foldPythonFrames);
  void layoutsChanged();  // the runs laid out anew (Python frames folded or unfolded)

 private:
  void followRange(int from);
  void setFoldPythonFrames(bool fold);

  CompareModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* table_;
  QLabel* headline_;
  QLabel* totals_;
  QLabel* headers_[3];
  TimelineView* timelines_[3];
  QWidget* panes_[3];  // a run's header over its timeline
  TimeNs alignAt_[3] = {0, 0, 0};
  TimeNs span_[3] = {0, 0, 0};  // from alignAt_ to the run's last event
  QSplitter* bottom_;
  ChartView* chart_;
  QStringList inputs_;
  QAction* foldFrames_;
  bool syncing_ = false;
};

}  // namespace sutra::widgets
