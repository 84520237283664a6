// SPDX-License-Identifier: MIT
// The ASTRA-sim results view shows the rows it is given: one table row per rank, a dash where
// nothing was measured, ASTRA-sim against measured in percent, and the binary and network above.
#include "astra_sim_results_view.h"

#include <gtest/gtest.h>

#include <QLabel>
#include <QTableWidget>

#include "qt_app.h"

namespace sutra::widgets {
namespace {

AstraSimComparison twoRanks() {
  AstraSimComparison c;
  c.binary = "/opt/astra/AstraSim_Analytical_Congestion_Unaware";
  c.network = "Ring, 2 NPUs, 164.5 GB/s, 500 ns";
  AstraSimRankRow r0;
  r0.rank = 0;
  r0.measuredNs = 2000;
  r0.sutraNs = 1900;
  r0.astraModelNs = 2490;
  r0.astraSimNs = 2500;
  r0.exposedCommNs = 300;
  AstraSimRankRow r1;
  r1.rank = 1;
  r1.astraSimNs = 1500;  // nothing measured, no Sutra, no exposed communication
  c.rows = {r0, r1};
  return c;
}

TEST(AstraSimResultsView, ShowsEveryRankBesideMeasuredAndSutra) {
  test::qtApp();
  AstraSimResultsView view;
  view.setResults(twoRanks());
  auto* table = view.findChild<QTableWidget*>("AstraSimTable");
  ASSERT_NE(table, nullptr);
  ASSERT_EQ(table->rowCount(), 2);
  ASSERT_EQ(table->columnCount(), int(AstraSimResultsView::ColumnCount));
  auto text = [table](int row, int column) { return table->item(row, column)->text(); };
  EXPECT_EQ(text(0, AstraSimResultsView::Rank), "0");
  EXPECT_EQ(text(0, AstraSimResultsView::Measured), QString::fromStdString(formatDuration(2000)));
  EXPECT_EQ(text(0, AstraSimResultsView::Sutra), QString::fromStdString(formatDuration(1900)));
  EXPECT_EQ(text(0, AstraSimResultsView::AstraModel), QString::fromStdString(formatDuration(2490)));
  EXPECT_EQ(text(0, AstraSimResultsView::AstraSim), QString::fromStdString(formatDuration(2500)));
  EXPECT_EQ(text(0, AstraSimResultsView::AstraSimVsMeasured), "+25.0 %");
  EXPECT_EQ(text(0, AstraSimResultsView::ExposedComm), QString::fromStdString(formatDuration(300)));
  EXPECT_EQ(text(1, AstraSimResultsView::Rank), "1");
  EXPECT_EQ(text(1, AstraSimResultsView::Measured), "-");
  EXPECT_EQ(text(1, AstraSimResultsView::Sutra), "-");
  EXPECT_EQ(text(1, AstraSimResultsView::AstraModel), "-");
  EXPECT_EQ(text(1, AstraSimResultsView::AstraSimVsMeasured), "-");
  EXPECT_EQ(text(1, AstraSimResultsView::ExposedComm), "-");
  auto* header = view.findChild<QLabel*>("AstraSimHeader");
  ASSERT_NE(header, nullptr);
  EXPECT_TRUE(header->text().contains("AstraSim_Analytical_Congestion_Unaware"));
  EXPECT_TRUE(header->text().contains("Ring, 2 NPUs, 164.5 GB/s, 500 ns"));
}

TEST(AstraSimResultsView, FasterThanMeasuredIsNegative) {
  AstraSimRankRow row;
  row.measuredNs = 1000;
  row.astraSimNs = 900;
  EXPECT_EQ(astraSimVsMeasuredText(row), "-10.0 %");
}

TEST(AstraSimResultsView, NewResultsReplaceTheOld) {
  test::qtApp();
  AstraSimResultsView view;
  view.setResults(twoRanks());
  AstraSimComparison one = twoRanks();
  one.rows.resize(1);
  view.setResults(one);
  EXPECT_EQ(view.findChild<QTableWidget*>("AstraSimTable")->rowCount(), 1);
  EXPECT_EQ(view.results().rows.size(), 1u);
}

}  // namespace
}  // namespace sutra::widgets
