// SPDX-License-Identifier: MIT
#pragma once
// ASTRA-sim's finish time of each rank beside what was measured and what Sutra's own replay gives
// (core's AstraSimComparison, computed elsewhere: this view parses nothing and runs nothing). A
// header line names the binary and the network it ran on; the table has one row per rank.
#include <QWidget>

#include "session/astra_sim_comparison.h"

class QLabel;
class QTableWidget;

namespace sutra::widgets {

class AstraSimResultsView : public QWidget {
  Q_OBJECT
 public:
  explicit AstraSimResultsView(QWidget* parent = nullptr);

  void setResults(const AstraSimComparison& results);
  const AstraSimComparison& results() const { return results_; }

  // The columns, in order; exposed for the tests and the CSV export's header.
  enum Column {
    Rank,
    Measured,
    Sutra,
    AstraModel,
    AstraSim,
    AstraSimVsMeasured,
    ExposedComm,
    ColumnCount
  };

 private:
  AstraSimComparison results_;
  QLabel* header_ = nullptr;
  QTableWidget* table_ = nullptr;
};

// ASTRA-sim against measured as a signed percentage ("+12.5 %"), "-" when nothing was measured.
QString astraSimVsMeasuredText(const AstraSimRankRow& row);

}  // namespace sutra::widgets
