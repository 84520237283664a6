// SPDX-License-Identifier: MIT
// The views of issue 19 offscreen: the step breakdown, the flame graph and the critical path list,
// fed with core's results on the hand-made traces of the analysis tests.
#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QComboBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>
#include <QTreeWidget>

#include "../core/analysis_fixture.h"
#include "breakdown_view.h"
#include "call_tree_view.h"
#include "critical_path_view.h"
#include "flame_graph_view.h"
#include "io/readers.h"
#include "link/launch_index.h"
#include "link/sync_dependencies.h"
#include "memory_view.h"
#include "qt_app.h"
#include "test_support.h"

namespace sutra::widgets {
namespace {

TEST(BreakdownView, StacksEachStepsPartsAndListsThemWithTheHints) {
  test::qtApp();
  const Trace trace = test::twoStepFixture();
  const LaunchIndex launches = LaunchIndex::build(trace);
  const auto steps = findSteps(trace, launches);
  BreakdownView view;
  view.setBreakdown(buildBreakdown(trace, steps), "1/1");
  // The device is shown first: five stacked parts, two steps.
  EXPECT_EQ(view.side(), 1);
  EXPECT_EQ(view.plot()->plottableCount(), 5);
  auto* kernels = qobject_cast<QCPBars*>(view.plot()->plottable(0));
  ASSERT_TRUE(kernels);
  EXPECT_EQ(kernels->name(), "kernel");
  ASSERT_EQ(kernels->data()->size(), 2);
  EXPECT_DOUBLE_EQ(kernels->data()->at(0)->value, 350 / 1e6);
  EXPECT_DOUBLE_EQ(kernels->data()->at(1)->value, 400 / 1e6);
  QTableWidget* table = view.table();
  ASSERT_EQ(table->rowCount(), 2);
  EXPECT_EQ(table->item(0, 0)->text(), "3");
  EXPECT_EQ(table->item(0, 2)->text(), "350 ns");  // kernel
  EXPECT_EQ(table->item(0, 11)->text(), "65.0");   // idle %
  EXPECT_TRUE(view.hintsText().contains("GPU 0 is idle 65 % of step 3"));
  // The host side: four parts, step 3's CPU ops 540 ns.
  view.setSide(0);
  EXPECT_EQ(view.plot()->plottableCount(), 4);
  EXPECT_EQ(table->item(0, 6)->text(), "540 ns");
  QSignalSpy spy(&view, &BreakdownView::stepActivated);
  emit table->cellDoubleClicked(1, 0);
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).value<std::int64_t>(), 4);
}

TEST(FlameGraphView, LaysOutBoxesByTotalTimeSelectsZoomsAndSearches) {
  test::qtApp();
  auto trace = std::make_shared<const Trace>(test::twoStepFixture());
  const LaunchIndex launches = LaunchIndex::build(*trace);
  FlameGraphView view;
  view.resize(800, 400);
  view.setCallTree(trace, buildCallTree(*trace, launches, {wholeTraceWindow(*trace), false}));
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  const ThreadCallTree& t = view.callTree().threads.at(0);
  const std::uint32_t step3 = t.roots.at(0);  // 1000 of 1500 ns
  const std::uint32_t step4 = t.roots.at(1);
  const double width = view.canvas()->width();
  EXPECT_NEAR(view.nodeRect(step3).width(), width * 1000 / 1500, 1e-6);
  EXPECT_NEAR(view.nodeRect(step4).left(), width * 1000 / 1500, 1e-6);
  // A click on aten::mul (under step 4) asks for its call in the timeline.
  const std::uint32_t mul = t.nodes[step4].children.at(0);
  const QRectF mulBox = view.nodeRect(mul);
  ASSERT_FALSE(mulBox.isEmpty());
  QSignalSpy selected(&view, &FlameGraphView::eventSelected);
  QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, mulBox.center().toPoint());
  ASSERT_EQ(selected.count(), 1);
  EXPECT_EQ(selected.at(0).at(0).value<EventId>(), test::eventNamed(*trace, "aten::mul"));
  EXPECT_EQ(view.selectedNode(), mul);
  // Double-click zooms: the box takes the whole width.
  QTest::mouseDClick(view.canvas(), Qt::LeftButton, {}, mulBox.center().toPoint());
  EXPECT_EQ(view.zoomRoot(), mul);
  EXPECT_NEAR(view.nodeRect(mul).width(), width, 1e-6);
  QTest::keyClick(view.canvas(), Qt::Key_Escape);
  EXPECT_EQ(view.zoomRoot(), UINT32_MAX);
  // Search, a case-insensitive substring: both aten::add paths (the outer call and the one nested
  // in it) and aten::addmm match.
  view.findChild<QLineEdit*>("FlameGraphSearch")->setText("ATEN::ADD");
  EXPECT_EQ(view.matchCount(), 3);
}

// twoStepFixture's trees (tests/core/views_analysis_test.cpp has them by hand): top-down,
// ProfilerStep#3 first by total CPU; bottom-up, cudaLaunchKernel's 750 ns of device time with its
// three callers below; a double-click asks for the row's first call.
TEST(CallTreeView, ShowsTopDownAndBottomUpAndSelectsARowsCall) {
  test::qtApp();
  auto trace = std::make_shared<const Trace>(test::twoStepFixture());
  const LaunchIndex launches = LaunchIndex::build(*trace);
  const TimeWindow whole = wholeTraceWindow(*trace);
  CallTreeView view;
  view.setCallTrees(trace, buildCallTree(*trace, launches, {whole, false}),
                    buildCallTree(*trace, launches, {whole, true}));
  QTreeWidget* tree = view.tree();
  ASSERT_EQ(tree->topLevelItemCount(), 2);
  EXPECT_EQ(tree->topLevelItem(0)->text(0), "ProfilerStep#3");
  EXPECT_EQ(tree->topLevelItem(0)->text(3), "1.000 us");
  EXPECT_EQ(tree->topLevelItem(0)->text(5), "350 ns");
  view.setBottomUp(true);
  tree->sortByColumn(5, Qt::DescendingOrder);
  QTreeWidgetItem* launch = tree->topLevelItem(0);
  EXPECT_EQ(launch->text(0), "cudaLaunchKernel");
  EXPECT_EQ(launch->text(1), "3");
  EXPECT_EQ(launch->text(4), "750 ns");
  ASSERT_EQ(launch->childCount(), 3);
  EXPECT_EQ(launch->child(0)->text(0), "aten::mul");  // 400 ns, sorted largest first
  QSignalSpy spy(&view, &CallTreeView::eventSelected);
  emit tree->itemDoubleClicked(launch->child(0), 0);
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(trace->name(trace->events[spy.at(0).at(0).value<EventId>()]), "cudaLaunchKernel");
}

TEST(CriticalPathView, ListsThePathsPartsAndStepsAlongThem) {
  test::qtApp();
  auto trace = std::make_shared<const Trace>(test::syncFixture());
  const LaunchIndex launches = LaunchIndex::build(*trace);
  const auto syncs = findSyncDependencies(*trace, launches);
  CriticalPath path = criticalPath(*trace, launches, syncs, wholeTraceWindow(*trace));
  path.label = "the whole trace";
  const std::size_t parts =
      std::count_if(path.segments.begin(), path.segments.end(),
                    [](const CriticalSegment& s) { return s.kind != CriticalKind::Dependency; });
  CriticalPathView view;
  view.setSteps({"0 (whole trace)"}, 0);
  view.setPath(trace, path);
  ASSERT_EQ(view.table()->rowCount(), int(parts));
  EXPECT_EQ(view.table()->item(0, 1)->text(), "cpu");
  EXPECT_EQ(view.table()->item(0, 2)->text(), "aten::item");
  EXPECT_TRUE(view.summaryText().contains("450 ns long"));
  QSignalSpy spy(&view, &CriticalPathView::segmentActivated);
  view.next();
  view.next();
  ASSERT_EQ(spy.count(), 2);
  EXPECT_EQ(spy.at(0).at(0).value<EventId>(), test::eventNamed(*trace, "aten::item"));
  EXPECT_EQ(spy.at(1).at(0).value<EventId>(), test::eventNamed(*trace, "cudaMemcpyAsync"));
  EXPECT_EQ(view.currentSegment(), 1);
  view.previous();
  EXPECT_EQ(view.currentSegment(), 0);
  // The arrows the timeline draws: only hops to or from device work, the copy's launch first.
  const auto edges = view.pathEdges();
  ASSERT_FALSE(edges.empty());
  for (const auto& [from, to] : edges)
    EXPECT_TRUE(isDeviceOp(trace->events[from].klass) || isDeviceOp(trace->events[to].klass));
  EXPECT_EQ(edges.front(),
            std::make_pair(test::eventNamed(*trace, "cudaMemcpyAsync"),
                           test::eventNamed(*trace, "Memcpy DtoH (Device -> Pageable)")));
  // Every event on the path, once: what the timeline outlines.
  const auto events = view.pathEvents();
  EXPECT_TRUE(std::find(events.begin(), events.end(),
                        test::eventNamed(*trace, "Memcpy DtoH (Device -> Pageable)")) !=
              events.end());
}

// tests/data/kineto/memory_events.json: CUDA 0 peaks at 13312 B at 35 us in aten::mm (35 us from
// the trace's start), with 9216 B of aten::mm's and 4096 B of aten::empty's allocations live.
TEST(MemoryView, DrawsEachDevicesCurveWithItsPeakAndTheOpsLiveThere) {
  test::qtApp();
  auto read = readKinetoTrace(test::fixture("kineto/memory_events.json"));
  ASSERT_TRUE(read.ok()) << read.error().message;
  auto trace = std::make_shared<const Trace>(std::move(*read));
  MemoryView view;
  view.setReport(trace, buildMemoryReport(*trace));
  ASSERT_EQ(view.plot()->graphCount(), 2);  // CPU, CUDA 0
  view.setDevice(1);
  QCPGraph* cuda = view.plot()->graph(1);
  EXPECT_EQ(cuda->name(), "CUDA 0");
  ASSERT_EQ(cuda->data()->size(), 5);
  EXPECT_DOUBLE_EQ(cuda->data()->at(2)->key, 0.035);
  EXPECT_DOUBLE_EQ(cuda->data()->at(2)->value, 13312 / (1024.0 * 1024.0));
  EXPECT_TRUE(
      view.message().startsWith("CUDA 0: peak 0.01 MiB at 35.00 us from the start, in "
                                "aten::mm"))
      << view.message().toStdString();
  ASSERT_EQ(view.table()->rowCount(), 2);
  EXPECT_EQ(view.table()->item(0, 0)->text(), "aten::mm");
  EXPECT_EQ(view.table()->item(1, 0)->text(), "aten::empty");
  QSignalSpy spy(&view, &MemoryView::eventSelected);
  view.findChild<QPushButton*>("MemoryPeakOp")->click();
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(trace->name(trace->events[spy.at(0).at(0).value<EventId>()]), "aten::mm");

  // No memory events: said, and nothing drawn.
  auto bare = std::make_shared<const Trace>(test::twoStepFixture());
  MemoryView empty;
  empty.setReport(bare, buildMemoryReport(*bare));
  EXPECT_EQ(empty.plot()->graphCount(), 0);
  EXPECT_TRUE(empty.message().startsWith("No memory events in this trace"));
}

}  // namespace
}  // namespace sutra::widgets
