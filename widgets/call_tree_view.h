// SPDX-License-Identifier: MIT
#pragma once
// The call trees of core/analysis/call_tree.h as a table tree, Nsight Systems' and TensorBoard's
// way: top-down (each call path) or bottom-up (each function at the root, its callers below), per
// host thread, with calls, self and total CPU time and self and total device time; columns sort by
// their numbers. Double-clicking a row asks for its first call in the timeline.
#include <QWidget>
#include <memory>

#include "analysis/call_tree.h"
#include "navigation.h"

class QCheckBox;
class QComboBox;
class QTreeWidget;

namespace sutra::widgets {

class CallTreeView : public QWidget {
  Q_OBJECT

 public:
  explicit CallTreeView(QWidget* parent = nullptr);

  // Both trees of the same window: `topDown` and `bottomUp` (CallTreeOptions::bottomUp).
  void setCallTrees(std::shared_ptr<const Trace> trace, CallTree topDown, CallTree bottomUp);
  void setBottomUp(bool bottomUp);
  bool bottomUp() const;
  void setThread(int index);
  QTreeWidget* tree() const { return tree_; }
  // Where a click goes: the window's navigation, on the rank this view shows.
  void setNavigation(RankNavigation navigation) { navigation_ = std::move(navigation); }

 signals:
  void eventSelected(sutra::EventId event);

 private:
  void rebuild();

  std::shared_ptr<const Trace> trace_;
  CallTree topDown_, bottomUp_;
  QComboBox* threads_ = nullptr;
  QCheckBox* bottomUpBox_ = nullptr;
  QTreeWidget* tree_ = nullptr;
  RankNavigation navigation_;
};

}  // namespace sutra::widgets
