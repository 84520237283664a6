// SPDX-License-Identifier: MIT
#pragma once
// The compare window's work (widgets/compare_view.h), done by the app off the GUI thread: the
// traces read and compared by core's run API, and the runs laid out again when the window's
// "Fold Python Frames" toggle asks. A CompareRunner lives as a child of its view, so an answer
// that comes after the window closed goes nowhere; a newer request drops an older one's answer.
#include <QFutureWatcher>
#include <QObject>
#include <QStringList>
#include <memory>
#include <vector>

#include "compare_view.h"

namespace sutra::gui {

// Reads the traces (two or three: files or run folders) and compares their operator tables over
// the whole trace: the second against the first and, where given, the third against the first.
// A trace that cannot be read leaves its message in `error`.
widgets::ComparisonResult compareTraceFiles(const QStringList& paths);

class CompareRunner : public QObject {
  Q_OBJECT

 public:
  explicit CompareRunner(widgets::CompareView* view);

  // Reads and compares `paths` on a worker; the view shows the comparison or its failure.
  void compare(const QStringList& paths);

 private:
  using Layouts = std::vector<std::shared_ptr<const view::LaneLayout>>;
  void layOut(const std::vector<std::shared_ptr<const Trace>>& traces, bool foldPythonFrames);

  widgets::CompareView* view_;
  QFutureWatcher<widgets::ComparisonResult>* comparison_;
  QFutureWatcher<Layouts>* layouts_;
};

}  // namespace sutra::gui
