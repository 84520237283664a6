// SPDX-License-Identifier: MIT
// Every item model of the widgets passes QAbstractItemModelTester, alone and behind the sorting
// proxy the views use, and sorts by raw numbers, not by their text.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>

#include "analysis/op_table.h"
#include "link/launch_index.h"
#include "op_table_model.h"
#include "problems_model.h"
#include "qt_app.h"
#include "synthetic_trace.h"

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

}  // namespace
}  // namespace sutra::widgets
