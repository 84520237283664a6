// SPDX-License-Identifier: MIT
#pragma once
// A flame graph (icicle: callers above callees) of the top-down call tree of one host thread
// (core/analysis/call_tree.h) over the selected range: each box is a call path, as wide as its
// total CPU time. Search fades what does not match; double-click zooms into a box, Esc or "Whole
// range" zooms back out; a click selects the box and asks for its first call in the timeline.
#include <QWidget>
#include <memory>

#include "analysis/call_tree.h"
#include "navigation.h"

class QComboBox;
class QLineEdit;
class QLabel;

namespace sutra::widgets {

class FlameGraphCanvas;

class FlameGraphView : public QWidget {
  Q_OBJECT

 public:
  explicit FlameGraphView(QWidget* parent = nullptr);

  // `tree` must be top-down. The thread with the most CPU time is shown first.
  void setCallTree(std::shared_ptr<const Trace> trace, CallTree tree);
  const CallTree& callTree() const { return tree_; }
  void setThread(int index);  // index into callTree().threads
  int thread() const { return thread_; }
  void setSearch(const QString& text);
  int matchCount() const;  // boxes whose name holds the search text
  void zoomTo(std::uint32_t node);
  void resetZoom();
  std::uint32_t zoomRoot() const;      // UINT32_MAX: the whole thread
  std::uint32_t selectedNode() const;  // UINT32_MAX: none
  // The box of `node` in the canvas's coordinates (empty where it is too narrow to draw).
  QRectF nodeRect(std::uint32_t node) const;
  std::uint32_t nodeAt(QPointF canvasPos) const;
  QWidget* canvas() const;
  // Where a click goes: the window's navigation, on the rank this view shows.
  void setNavigation(RankNavigation navigation) { navigation_ = std::move(navigation); }

 signals:
  void eventSelected(sutra::EventId event);

 private:
  friend class FlameGraphCanvas;
  void select(std::uint32_t node);
  void showStatus(std::uint32_t node);

  std::shared_ptr<const Trace> trace_;
  CallTree tree_;
  int thread_ = -1;
  QComboBox* threads_ = nullptr;
  QLineEdit* search_ = nullptr;
  QLabel* status_ = nullptr;
  FlameGraphCanvas* canvas_ = nullptr;
  RankNavigation navigation_;
};

}  // namespace sutra::widgets
