// SPDX-License-Identifier: MIT
#pragma once
// The operator table panel: a filter box, the group-by-input-shapes toggle, the window (whole
// trace or one step) and the sortable table. Selecting a row offers its occurrences to the
// timeline; double-clicking asks for the dependency chain of its first occurrence.
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "link/steps.h"
#include "model/trace.h"

class QComboBox;
class QCheckBox;
class QLineEdit;
class QLabel;
class QTableView;
class QSortFilterProxyModel;

namespace sutra {
struct OpTable;
}

namespace sutra::widgets {

class OpTableModel;

class OpTableView : public QWidget {
  Q_OBJECT

 public:
  explicit OpTableView(QWidget* parent = nullptr);

  // The steps the window box offers (cleared with the table).
  void setSteps(std::vector<Step> steps);
  void setTable(std::shared_ptr<const OpTable> table);
  void clear();
  // Puts the window on the step with this index (in setSteps' order), -1 for the whole trace.
  void followStep(int stepIndex);
  // Puts the window on a time range (a drag on the timeline's ruler); an empty one removes it.
  void followRange(TimeWindow range, const QString& label);
  // The window the table was last asked for.
  TimeWindow currentWindow() const;
  int currentStep() const;
  bool groupByShapes() const;
  OpTableModel* model() const { return model_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QTableView* table() const { return view_; }
  void setFilterText(const QString& text);

 signals:
  // The user changed the window or the grouping: the table must be rebuilt for them.
  void tableRequested(sutra::TimeWindow window, bool groupByShapes);
  void rowSelected(const std::vector<sutra::EventId>& occurrences);
  void rowActivated(sutra::EventId firstOccurrence);

 private:
  void request();
  void updateSummary();

  OpTableModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QTableView* view_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QCheckBox* shapes_ = nullptr;
  QComboBox* window_ = nullptr;
  QLabel* summary_ = nullptr;
  std::vector<Step> steps_;
  TimeWindow whole_;
  bool userSorted_ = false;          // a header was clicked: keep the user's sort across tables
  std::optional<TimeWindow> range_;  // the last item of the window box, where set
};

}  // namespace sutra::widgets
