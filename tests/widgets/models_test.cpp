// SPDX-License-Identifier: MIT
// Every item model of the widgets passes QAbstractItemModelTester, alone and behind the sorting
// proxy the views use, and sorts by raw numbers, not by their text.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <cstdlib>

#include "analysis/op_table.h"
#include "link/launch_index.h"
#include "op_table_model.h"
#include "problems_model.h"
#include "qt_app.h"
#include "rank_data.h"
#include "synthetic_trace.h"
#include "table_sorting.h"

namespace sutra::widgets {
namespace {

std::vector<FileProblem> someProblems() {
  return {
      {"a.json.gz", {Severity::Warning, "flow end on no event", 12, "ac2g id 7"}},
      {"a.json.gz", {Severity::Info, "flow with only one end", 3, "ac2g id 9"}},
      {"b.json.gz", {Severity::Error, "event with negative duration", 100, "aten::mm at 5 ns"}}};
}

TEST(ProblemsModel, PassesTheModelTesterAndSortsCountsAsNumbers) {
  test::qtApp();
  ProblemsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(kSortRole);
  QAbstractItemModelTester proxyTester(&proxy,
                                       QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setProblems(someProblems());
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.totalCount(), 115u);
  EXPECT_EQ(model.data(model.index(2, ProblemsModel::Severity)).toString(), "error");
  EXPECT_EQ(model.data(model.index(0, ProblemsModel::Example)).toString(), "ac2g id 7");
  proxy.sort(ProblemsModel::Count, Qt::DescendingOrder);
  // As text "3" > "100" > "12"; as numbers 100 > 12 > 3.
  EXPECT_EQ(proxy.data(proxy.index(0, ProblemsModel::Count)).toString(), "100");
  EXPECT_EQ(proxy.data(proxy.index(1, ProblemsModel::Count)).toString(), "12");
  EXPECT_EQ(proxy.data(proxy.index(2, ProblemsModel::Count)).toString(), "3");
  model.setProblems({});
  EXPECT_EQ(proxy.rowCount(), 0);
}

TEST(OpTableModel, PassesTheModelTesterAndShowsTheAnalysesTable) {
  test::qtApp();
  const Trace trace = test::makeSyntheticTrace({2'000, 2, 2});
  const LaunchIndex launches = LaunchIndex::build(trace);
  auto table = std::make_shared<const OpTable>(
      buildOpTable(trace, launches, {wholeTraceWindow(trace), false}));
  OpTableModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(kSortRole);
  QAbstractItemModelTester proxyTester(&proxy,
                                       QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setTable(table);
  ASSERT_EQ(model.rowCount(), static_cast<int>(table->rows.size()));
  EXPECT_EQ(model.headerData(OpTableModel::SelfDevice, Qt::Horizontal).toString(), "Self CUDA");
  // Sorted by self device time, descending, as the raw numbers say.
  proxy.sort(OpTableModel::SelfDevice, Qt::DescendingOrder);
  for (int r = 1; r < proxy.rowCount(); ++r)
    EXPECT_GE(proxy.data(proxy.index(r - 1, OpTableModel::SelfDevice), kSortRole).toLongLong(),
              proxy.data(proxy.index(r, OpTableModel::SelfDevice), kSortRole).toLongLong());
  // Rows and their numbers are the analyses', as is: the synthetic trace's 500 cudaLaunchKernel.
  bool found = false;
  for (int r = 0; r < model.rowCount(); ++r) {
    if (model.data(model.index(r, OpTableModel::Name)).toString() != "cudaLaunchKernel") continue;
    found = true;
    EXPECT_EQ(model.data(model.index(r, OpTableModel::Calls)).toString(), "500");
    EXPECT_EQ(model.rowAt(r)->events.size(), 500u);
  }
  EXPECT_TRUE(found);
  model.setTable(nullptr);
  EXPECT_EQ(model.rowCount(), 0);
}

// A table as performance engineers read it: a first click on a time column sorts it largest
// first, a second click flips it, and blank cells (a device op's CPU time) stay last both ways.
TEST(TableSorting, AFirstClickSortsLargestFirstAndBlanksStayLast) {
  test::qtApp();
  QStandardItemModel model(4, 2);
  const char* names[] = {"aten::mm", "gemm_kernel", "aten::add", "add_kernel"};
  const char* cpu[] = {"30", "", "10", ""};  // device rows have no CPU time
  for (int r = 0; r < 4; ++r) {
    auto* name = new QStandardItem(names[r]);
    name->setData(QString(names[r]), Qt::UserRole);
    model.setItem(r, 0, name);
    auto* item = new QStandardItem(cpu[r]);
    if (*cpu[r]) item->setData(std::atoi(cpu[r]), Qt::UserRole);
    model.setItem(r, 1, item);
  }
  BlanksLastProxy proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(Qt::UserRole);
  QTableView view;
  view.setModel(&proxy);
  view.setSortingEnabled(true);
  sortLargestFirst(&view, {0});
  view.sortByColumn(0, Qt::AscendingOrder);
  auto column = [&](int c) {
    QStringList out;
    for (int r = 0; r < proxy.rowCount(); ++r) out << proxy.index(r, c).data().toString();
    return out;
  };
  EXPECT_EQ(column(0), (QStringList{"add_kernel", "aten::add", "aten::mm", "gemm_kernel"}));
  // What a click on a new section does: the indicator moves there, ascending.
  view.horizontalHeader()->setSortIndicator(1, Qt::AscendingOrder);
  EXPECT_EQ(view.horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
  EXPECT_EQ(column(1), (QStringList{"30", "10", "", ""}));
  view.horizontalHeader()->setSortIndicator(1, Qt::AscendingOrder);  // the second click
  EXPECT_EQ(column(1), (QStringList{"10", "30", "", ""}));
}

}  // namespace
}  // namespace sutra::widgets
