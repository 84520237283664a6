// SPDX-License-Identifier: MIT
#pragma once
// The critical path of a step (core/analysis/critical_path.h) as a list to step along: its length
// and breakdown (CPU, device compute, communication, launch delay, kernel gaps, sync wait), then
// each part in path order. Previous/Next (or a click) make a part current and ask for its event in
// the timeline; the step chooser asks for another step's path, which the window computes.
#include <QWidget>
#include <memory>

#include "analysis/critical_path.h"
#include "navigation.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTableWidget;

namespace sutra::widgets {

class CriticalPathView : public QWidget {
  Q_OBJECT

 public:
  explicit CriticalPathView(QWidget* parent = nullptr);
  ~CriticalPathView() override;

  // The steps the chooser offers (their labels), and which one `path` is of.
  void setSteps(const QStringList& labels, int current);
  void setPath(std::shared_ptr<const Trace> trace, CriticalPath path);
  const CriticalPath& path() const { return path_; }
  // Its events in path order, each once (what the timeline outlines).
  std::vector<EventId> pathEvents() const;
  // Its hops to or from a device op (from, to), in path order: the arrows the timeline draws.
  std::vector<std::pair<EventId, EventId>> pathEdges() const;
  int currentSegment() const { return current_; }  // -1: none
  void setCurrentSegment(int index);
  void next();
  void previous();
  QTableWidget* table() const { return table_; }
  QString summaryText() const;
  // Where a click goes, and where the path stands out (its events, its hops as arrows) while the
  // view is open: the window's navigation, on the rank this view shows.
  void setNavigation(RankNavigation navigation) { navigation_ = std::move(navigation); }

 signals:
  void stepChosen(int index);
  void segmentActivated(sutra::EventId event);

 private:
  std::shared_ptr<const Trace> trace_;
  CriticalPath path_;
  std::vector<int> rows_;  // segment index of each table row (dependencies are no rows)
  int current_ = -1;
  QComboBox* steps_ = nullptr;
  QLabel* summary_ = nullptr;
  QTableWidget* table_ = nullptr;
  QPushButton* previous_ = nullptr;
  QPushButton* next_ = nullptr;
  RankNavigation navigation_;
};

}  // namespace sutra::widgets
