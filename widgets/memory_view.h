// SPDX-License-Identifier: MIT
#pragma once
// Memory over time (core/analysis/memory.h): the allocation curve of each device, its peak
// marked, and the ops whose allocations were live at the peak of the chosen device. A trace
// without [memory] events says so and how to record them.
#include <QWidget>
#include <memory>

#include "analysis/memory.h"
#include "navigation.h"

class QComboBox;
class QCustomPlot;
class QLabel;
class QTableWidget;

namespace sutra::widgets {

class MemoryView : public QWidget {
  Q_OBJECT

 public:
  explicit MemoryView(QWidget* parent = nullptr);

  void setReport(std::shared_ptr<const Trace> trace, MemoryReport report);
  const MemoryReport& report() const { return report_; }
  void setDevice(int index);  // into report().devices
  QCustomPlot* plot() const { return plot_; }
  QTableWidget* table() const { return table_; }
  QString message() const;
  // Where a click goes: the window's navigation, on the rank this view shows.
  void setNavigation(RankNavigation navigation) { navigation_ = std::move(navigation); }

 signals:
  // The op that reached the chosen device's peak, to select in the timeline.
  void eventSelected(sutra::EventId event);

 private:
  std::shared_ptr<const Trace> trace_;
  MemoryReport report_;
  QComboBox* devices_ = nullptr;
  QLabel* message_ = nullptr;
  QCustomPlot* plot_ = nullptr;
  QTableWidget* table_ = nullptr;
  RankNavigation navigation_;
};

}  // namespace sutra::widgets
