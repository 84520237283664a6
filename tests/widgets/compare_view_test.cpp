// SPDX-License-Identifier: MIT
// The compare view on HTA's trace_compare pair. Expected numbers from the files:
//   python3 -c "import json,gzip; d=json.load(gzip.open('base.json.gz'));
//   print(sum(round(e['dur']*1000)
//     for e in d['traceEvents'] if e.get('cat') in ('kernel','gpu_memcpy','gpu_memset')))"
// gives 1694000 ns for base and 1690000 ns for test; the largest device row of both is
// "Memcpy HtoD (Pinned -> Device)" with 1226000 ns; both first steps start at ts 1661938466265087
// us.
#include "compare_view.h"

#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QHeaderView>
#include <QPointer>
#include <QSignalSpy>
#include <QTableView>
#include <QThreadPool>

#include "compare_runner.h"
#include "qt_app.h"
#include "test_support.h"

namespace sutra::widgets {
namespace {

// The app's side of the window: reads and compares `paths` on a worker and hands the view the
// result, as File > Compare... does (one runner per view, as there).
void openFiles(CompareView& view, const QStringList& paths) {
  auto* runner = view.findChild<gui::CompareRunner*>();
  (runner ? runner : new gui::CompareRunner(&view))->compare(paths);
}
void openFiles(CompareView& view, const QString& a, const QString& b) {
  openFiles(view, QStringList{a, b});
}

class CompareViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    SUTRA_REQUIRE_SHARED_TRACES();
    test::qtApp();
    base = QString::fromStdString(test::sharedTrace("hta/trace_compare/base.json.gz"));
    other = QString::fromStdString(test::sharedTrace("hta/trace_compare/test.json.gz"));
  }
  QString base, other;
};

TEST_F(CompareViewTest, ShowsTotalsTableAndChartOfThePair) {
  CompareView view;
  view.resize(1400, 900);
  QSignalSpy ready(&view, &CompareView::ready);
  openFiles(view, base, other);
  ASSERT_TRUE(ready.wait(60'000));

  const OpComparison& c = view.comparison();
  EXPECT_EQ(c.selfDeviceTotalA, 1'694'000);
  EXPECT_EQ(c.selfDeviceTotalB, 1'690'000);
  EXPECT_TRUE(view.totalsText().contains(
      QString::fromStdString(totalLine("Self CUDA total", 1'694'000, 1'690'000))));
  EXPECT_TRUE(view.headlineText().startsWith("B (test.json.gz) against A (base.json.gz): "))
      << view.headlineText().toStdString();
  EXPECT_EQ(view.model()->rowCount(), int(c.rows.size()));
  EXPECT_EQ(view.inputs(), (QStringList{base, other}));

  // Rows come grouped (A only, B only, then both), each group in the comparison's order (largest
  // change first), and the header claims no column.
  QSortFilterProxyModel* shown = view.sortedModel();
  EXPECT_EQ(shown->sortColumn(), -1);
  std::vector<std::string> expected;
  for (int group = 0; group < 3; ++group)
    for (const OpDelta& d : c.rows)
      if ((d.inA && !d.inB ? 0 : !d.inA && d.inB ? 1 : 2) == group) expected.push_back(d.name);
  for (int r = 0; r < shown->rowCount(); ++r)
    EXPECT_EQ(shown->index(r, CompareModel::Name).data().toString().toStdString(),
              expected[std::size_t(r)])
        << r;
  EXPECT_EQ(shown->index(0, CompareModel::Side).data().toString(), "B only");  // none only in A
  // A device op's CPU cells are blank, not "0 ns"; its device delta is there.
  for (int r = 0; r < shown->rowCount(); ++r) {
    const std::string name = shown->index(r, CompareModel::Name).data().toString().toStdString();
    if (name != "Memcpy HtoD (Pinned -> Device)") continue;
    EXPECT_EQ(shown->index(r, CompareModel::SelfCpuA).data().toString(), "");
    EXPECT_EQ(shown->index(r, CompareModel::CpuTotalDelta).data().toString(), "");
    EXPECT_EQ(shown->index(r, CompareModel::DeviceTotalDelta).data().toString(), "0");
  }
  auto* table = view.findChild<QTableView*>();
  ASSERT_NE(table, nullptr);
  EXPECT_EQ(table->horizontalHeader()->sortIndicatorSection(), -1);

  QAbstractItemModelTester tester(view.sortedModel(),
                                  QAbstractItemModelTester::FailureReportingMode::Warning);
  // Sorted by Self CUDA A, descending: the first row holds the largest value of the column.
  QSortFilterProxyModel* sorted = view.sortedModel();
  sorted->sort(CompareModel::SelfDeviceA, Qt::DescendingOrder);
  const qlonglong top =
      sorted->index(0, CompareModel::SelfDeviceA).data(CompareModel::SortRole).toLongLong();
  for (int r = 0; r < sorted->rowCount(); ++r)
    EXPECT_LE(sorted->index(r, CompareModel::SelfDeviceA).data(CompareModel::SortRole).toLongLong(),
              top);
  bool found = false;
  for (const OpDelta& d : c.rows)
    if (d.name == "Memcpy HtoD (Pinned -> Device)") {
      found = true;
      EXPECT_EQ(d.a.selfDevice, 1'226'000);
      EXPECT_EQ(d.b.selfDevice, 1'226'000);
    }
  EXPECT_TRUE(found);
  EXPECT_EQ(view.chart()->seriesCount(), 2);  // the device and the CPU change
  EXPECT_EQ(view.chart()->seriesName(0), "device");
}

TEST_F(CompareViewTest, TimelinesAreAlignedOnTheirStepAndZoomLocked) {
  CompareView view;
  view.resize(1400, 900);
  QSignalSpy ready(&view, &CompareView::ready);
  openFiles(view, base, other);
  ASSERT_TRUE(ready.wait(60'000));
  ASSERT_NE(view.timelineA()->trace(), nullptr);
  ASSERT_NE(view.timelineB()->trace(), nullptr);
  // Both first steps start at the same time, so B shows exactly A's window.
  const TimeNs stepStart = 1'661'938'466'265'087'000;
  view.timelineA()->setVisibleRange({stepStart, stepStart + 50'000'000});
  EXPECT_EQ(view.timelineB()->visibleRange(), (TimeRange{stepStart, stepStart + 50'000'000}));
  view.timelineB()->setVisibleRange({stepStart + 1'000'000, stepStart + 11'000'000});
  EXPECT_EQ(view.timelineA()->visibleRange(),
            (TimeRange{stepStart + 1'000'000, stepStart + 11'000'000}));
}

// Three runs: A = base, B = base, C = test. B equals A, so every B delta is 0 and the three
// operators HTA's pair has in test only are the rows found in C only (the pair's "only in B: 3").
TEST_F(CompareViewTest, ThirdRunAddsItsColumnsRowsAndTimeline) {
  CompareView view;
  view.resize(1600, 900);
  QSignalSpy ready(&view, &CompareView::ready);
  openFiles(view, QStringList{base, base, other});
  ASSERT_TRUE(ready.wait(60'000));
  CompareModel* model = view.model();
  QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QAbstractItemModelTester proxyTester(view.sortedModel(),
                                       QAbstractItemModelTester::FailureReportingMode::Fatal);
  ASSERT_TRUE(model->hasThirdRun());
  EXPECT_EQ(model->columnCount(), int(CompareModel::ColumnCount));
  EXPECT_EQ(model->headerData(CompareModel::SelfDeviceDeltaC, Qt::Horizontal).toString(),
            "Self CUDA C-A");
  const std::size_t abRows = view.comparison().rows.size();
  ASSERT_EQ(model->rowCount(), int(abRows) + 3);
  int onlyC = 0;
  for (int r = 0; r < model->rowCount(); ++r) {
    EXPECT_EQ(
        model->index(r, CompareModel::SelfDeviceDelta).data(CompareModel::SortRole).toLongLong(),
        0);
    if (model->index(r, CompareModel::Side).data().toString() == "C only") {
      ++onlyC;
      EXPECT_GE(r, int(abRows));  // after the rows of A against B
      EXPECT_EQ(model->index(r, CompareModel::CallsA).data(CompareModel::SortRole).toULongLong(),
                0u);
      EXPECT_EQ(model->index(r, CompareModel::CallsC).data(CompareModel::SortRole).toULongLong(),
                1u);
    }
  }
  EXPECT_EQ(onlyC, 3);
  // C's device total is test's, and the totals say so on a second line. A and B are one file, so
  // no folder is added to tell them apart (two files named alike: RunNaming's tests).
  EXPECT_TRUE(view.totalsText().contains(
      "\nC (test.json.gz) against A:    " +
      QString::fromStdString(totalLine("Self CUDA total", 1'694'000, 1'690'000))))
      << view.totalsText().toStdString();
  EXPECT_EQ(view.chart()->seriesCount(), 4);  // device and CPU, B-A and C-A
  // The third timeline shows C and follows the others' window (all first steps start together).
  ASSERT_NE(view.timelineC()->trace(), nullptr);
  EXPECT_TRUE(view.timelineC()->isVisibleTo(&view));
  const TimeNs stepStart = 1'661'938'466'265'087'000;
  view.timelineC()->setVisibleRange({stepStart, stepStart + 20'000'000});
  EXPECT_EQ(view.timelineA()->visibleRange(), (TimeRange{stepStart, stepStart + 20'000'000}));
  EXPECT_EQ(view.timelineB()->visibleRange(), (TimeRange{stepStart, stepStart + 20'000'000}));
}

// A = base, B = test, C = test: every row's C side is its B side, and C-A is B-A.
TEST_F(CompareViewTest, ThirdRunDeltasAreAgainstTheFirst) {
  CompareView view;
  QSignalSpy ready(&view, &CompareView::ready);
  openFiles(view, QStringList{base, other, other});
  ASSERT_TRUE(ready.wait(60'000));
  CompareModel* model = view.model();
  ASSERT_EQ(model->rowCount(), int(view.comparison().rows.size()));
  for (int r = 0; r < model->rowCount(); ++r) {
    for (auto [b, c] : {std::pair{CompareModel::CallsB, CompareModel::CallsC},
                        std::pair{CompareModel::SelfCpuB, CompareModel::SelfCpuC},
                        std::pair{CompareModel::SelfCpuDelta, CompareModel::SelfCpuDeltaC},
                        std::pair{CompareModel::SelfDeviceB, CompareModel::SelfDeviceC},
                        std::pair{CompareModel::SelfDeviceDelta, CompareModel::SelfDeviceDeltaC}})
      EXPECT_EQ(model->index(r, c).data(CompareModel::SortRole),
                model->index(r, b).data(CompareModel::SortRole));
    const QString side = model->index(r, CompareModel::Side).data().toString();
    EXPECT_TRUE(side == "all" || side == "B, C") << side.toStdString();
  }
}

TEST_F(CompareViewTest, TwoRunsKeepTheirColumnsAndHideTheThirdTimeline) {
  CompareView view;
  QSignalSpy ready(&view, &CompareView::ready);
  openFiles(view, base, other);
  ASSERT_TRUE(ready.wait(60'000));
  EXPECT_EQ(view.model()->columnCount(), int(CompareModel::TwoRunColumnCount));
  EXPECT_FALSE(view.timelineC()->isVisibleTo(&view));
}

// The view alone reads nothing: it shows what it is handed, at once.
TEST_F(CompareViewTest, ShowsTheComparisonItIsHanded) {
  CompareView view;
  QSignalSpy ready(&view, &CompareView::ready);
  view.showComparison(gui::compareTraceFiles({base, other}));
  ASSERT_EQ(ready.size(), 1);
  EXPECT_EQ(view.comparison().selfDeviceTotalA, 1'694'000);
  EXPECT_TRUE(view.timelineHeader(0).startsWith("A: base.json.gz"))
      << view.timelineHeader(0).toStdString();
}

// A comparison that comes after its window closed goes nowhere.
TEST_F(CompareViewTest, AnAnswerAfterTheWindowClosedIsDropped) {
  QPointer<CompareView> view = new CompareView;
  openFiles(*view, base, other);
  delete view.data();
  EXPECT_TRUE(QThreadPool::globalInstance()->waitForDone(60'000));
  QCoreApplication::processEvents();
  EXPECT_TRUE(view.isNull());
}

TEST(CompareViewErrors, TheViewShowsTheFailureItIsHanded) {
  test::qtApp();
  CompareView view;
  QSignalSpy failed(&view, &CompareView::failed);
  QSignalSpy ready(&view, &CompareView::ready);
  view.showComparison(gui::compareTraceFiles({"/nonexistent/a.json"}));
  ASSERT_EQ(failed.size(), 1);
  EXPECT_EQ(failed.front().front().toString(), "compare wants two or three traces, not 1");
  EXPECT_TRUE(ready.isEmpty());
}

TEST(CompareViewErrors, NamesTheFileThatCannotBeRead) {
  test::qtApp();
  CompareView view;
  QSignalSpy failed(&view, &CompareView::failed);
  openFiles(view, "/nonexistent/a.json", "/nonexistent/b.json");
  ASSERT_TRUE(failed.wait(10'000));
  EXPECT_TRUE(failed.front().front().toString().contains("/nonexistent/a.json"));
}

TEST(CompareViewErrors, NamesTheThirdFileWhenOnlyItCannotBeRead) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  CompareView view;
  QSignalSpy failed(&view, &CompareView::failed);
  const QString base = QString::fromStdString(test::sharedTrace("hta/trace_compare/base.json.gz"));
  openFiles(view, QStringList{base, base, "/nonexistent/c.json"});
  ASSERT_TRUE(failed.wait(30'000));
  EXPECT_TRUE(failed.front().front().toString().startsWith("/nonexistent/c.json"))
      << failed.front().front().toString().toStdString();
}

}  // namespace
}  // namespace sutra::widgets

namespace sutra::widgets {
namespace {

// The story the compare window exists for, on the bundled samples: the naive RMSNorm (five ops,
// five kernels a step, three steps) against torch.rms_norm (one fused kernel a step). Counted from
// the files: python3 -c "import gzip,json; [print(n, [(e['cat'], e['dur']) for e in
//   json.load(gzip.open(f'tests/data/synthetic_samples/{n}/rank0.kineto.json.gz'))['traceEvents']
//   if e.get('cat')=='kernel']) for n in ('rmsnorm_naive','rmsnorm_fused')]"
// gives 15 kernels of 241.751 us in all for naive, 3 of 77.052 us for fused: 3.14x less.
// The bundled CPU recordings: the story is told by the time per step and the CPU time, and the
// table has no columns of device zeros.
TEST(CompareViewStory, NaiveAgainstCompiledRmsNormRecordedOnTheCpu) {
  test::qtApp();
  const QString samples =
      QString::fromStdString(std::string(SUTRA_SOURCE_DIR) + "/resources/samples/");
  CompareView view;
  view.resize(1400, 900);
  QSignalSpy ready(&view, &CompareView::ready);
  openFiles(view, samples + "rmsnorm_naive", samples + "rmsnorm_compiled");
  ASSERT_TRUE(ready.wait(60'000));
  EXPECT_TRUE(view.headlineText().startsWith(
      "B (rmsnorm_compiled) against A (rmsnorm_naive): time per step "))
      << view.headlineText().toStdString();
  EXPECT_FALSE(view.headlineText().contains("CUDA"));
  EXPECT_TRUE(view.totalsText().startsWith(
      "4 ops only in A (aten::mul, aten::mean, aten::add, aten::rsqrt)"))
      << view.totalsText().toStdString();
  auto* table = view.findChild<QTableView*>();
  ASSERT_NE(table, nullptr);
  EXPECT_TRUE(table->isColumnHidden(CompareModel::SelfDeviceA));
  EXPECT_TRUE(table->isColumnHidden(CompareModel::DeviceTotalDelta));
  EXPECT_FALSE(table->isColumnHidden(CompareModel::SelfCpuDelta));
}

TEST(CompareViewStory, NaiveAgainstFusedRmsNormOnOneTimeAxis) {
  test::qtApp();
  const QString samples =
      QString::fromStdString(std::string(SUTRA_SOURCE_DIR) + "/tests/data/synthetic_samples/");
  CompareView view;
  view.resize(1400, 900);
  QSignalSpy ready(&view, &CompareView::ready);
  openFiles(view, samples + "rmsnorm_naive", samples + "rmsnorm_fused");
  ASSERT_TRUE(ready.wait(60'000));
  // The headline in words a user can paste, the runs named by their folders.
  const QString headline = view.headlineText();
  EXPECT_TRUE(
      headline.startsWith("B (rmsnorm_fused) against A (rmsnorm_naive): 3.14x less CUDA "
                          "time (241.8 us -> 77.05 us), 5 kernels -> 1 per step"))
      << headline.toStdString();
  // The replaced operators, explained.
  EXPECT_TRUE(view.totalsText().startsWith("4 ops only in A (aten::"))
      << view.totalsText().toStdString();
  EXPECT_TRUE(view.totalsText().contains("replaced by 1 op only in B (aten::rms_norm"));
  // One time axis: both timelines show the longer run's span from their first step, and the
  // headers name each run once with its own span.
  const TimeNs naive = view.timelineA()->trace()->endNs - view.timelineA()->visibleRange().start;
  EXPECT_GT(view.sharedSpan(), 0);
  EXPECT_EQ(view.timelineA()->visibleRange().end - view.timelineA()->visibleRange().start,
            view.sharedSpan());
  EXPECT_EQ(view.timelineB()->visibleRange().end - view.timelineB()->visibleRange().start,
            view.sharedSpan());
  EXPECT_EQ(naive, view.sharedSpan());  // the naive run is the longer one
  EXPECT_TRUE(view.timelineHeader(0).startsWith("A: rmsnorm_naive"));
  EXPECT_TRUE(view.timelineHeader(1).startsWith("B: rmsnorm_fused"));
  // Short lane labels: no lane repeats the run or a file name.
  for (TimelineView* timeline : {view.timelineA(), view.timelineB()})
    for (const auto& track : timeline->layout()->tracks())
      EXPECT_EQ(track.label.find("rank0.kineto"), std::string::npos) << track.label;
  // The chart shows changes only: every plotted operator changed.
  for (const DeltaBar& bar : comparisonDeltas(view.comparison(), 100))
    EXPECT_TRUE(bar.device != 0 || bar.cpu != 0) << bar.name;
  // The story's columns come first.
  EXPECT_EQ(view.model()->headerData(CompareModel::DeviceTotalDelta, Qt::Horizontal).toString(),
            QString::fromUtf8("CUDA total \u0394"));
  EXPECT_EQ(view.model()->headerData(CompareModel::Calls, Qt::Horizontal).toString(),
            QString::fromUtf8("Calls A \u2192 B"));
}

// The rows of `timeline`'s first ProfilerStep and of the first op under it, and whether both are
// on screen.
bool stepAndOpInView(const TimelineView& timeline) {
  const Trace& trace = *timeline.trace();
  const LaneLayout& layout = *timeline.layout();
  for (EventId i = 0; i < trace.events.size(); ++i) {
    if (!trace.name(trace.events[i]).starts_with("ProfilerStep#")) continue;
    const std::uint32_t step = layout.rowOf(i);
    const int top = timeline.rowTop(step);
    const int opTop = timeline.rowTop(step + 1);
    return top >= timeline.rulerHeight() && opTop > top &&
           opTop + timeline.rowHeight(0, step + 1) <= timeline.height();
  }
  return false;
}

// A with_stack recording's Python frames fold into one band per thread, so the compare window
// opens on the steps and their ops (issue #44); its toggle unfolds them, in this window only.
TEST(CompareViewFolding, TheRmsNormRunsOpenOnTheirStepsWithTheFramesFolded) {
  test::qtApp();
  const QString samples =
      QString::fromStdString(std::string(SUTRA_SOURCE_DIR) + "/resources/samples/");
  CompareView view;
  view.resize(1400, 900);
  view.show();
  QSignalSpy ready(&view, &CompareView::ready);
  openFiles(view, samples + "rmsnorm_naive", samples + "rmsnorm_compiled");
  ASSERT_TRUE(ready.wait(60'000));
  QAction* fold = view.foldPythonFramesAction();
  EXPECT_TRUE(fold->isChecked());
  EXPECT_EQ(fold->shortcut(), QKeySequence(Qt::Key_P));
  for (TimelineView* timeline : {view.timelineA(), view.timelineB()}) {
    const LaneLayout& layout = *timeline->layout();
    ASSERT_TRUE(layout.hasFoldedPythonFrames());
    for (const LayoutTrack& track : layout.tracks()) {
      if (track.foldedPythonDepth == 0) continue;
      // One thin band, the frames of every depth in it, and the ops right under it.
      const std::uint32_t band = track.firstRow;
      EXPECT_TRUE(layout.rows()[band].pythonFrames);
      EXPECT_LT(timeline->rowHeight(0, band), timeline->rowHeight(0, band + 1));
      EXPECT_EQ(timeline->rowTop(band + 1), timeline->rowTop(band) + timeline->rowHeight(0, band));
      const Trace& trace = *timeline->trace();
      for (EventId i = 0; i < trace.events.size(); ++i)
        if (trace.events[i].lane == track.lane &&
            trace.events[i].klass == CategoryClass::PythonFunction) {
          EXPECT_EQ(layout.rowOf(i), band) << trace.name(trace.events[i]);
        }
    }
    EXPECT_TRUE(stepAndOpInView(*timeline));
  }
  // Unfolded: a row per frame depth, the step pushed down out of view; folded again on a toggle.
  const std::size_t foldedRows = view.timelineA()->layout()->rows().size();
  QSignalSpy relaid(&view, &CompareView::layoutsChanged);
  fold->setChecked(false);
  ASSERT_TRUE(relaid.wait(60'000));
  for (TimelineView* timeline : {view.timelineA(), view.timelineB()}) {
    EXPECT_FALSE(timeline->layout()->hasFoldedPythonFrames());
    EXPECT_FALSE(timeline->layout()->options().foldPythonFrames);
  }
  EXPECT_GT(view.timelineA()->layout()->rows().size(), foldedRows + 5);
  EXPECT_FALSE(stepAndOpInView(*view.timelineA()));
  fold->setChecked(true);
  ASSERT_TRUE(relaid.wait(60'000));
  EXPECT_TRUE(view.timelineA()->layout()->hasFoldedPythonFrames());
  EXPECT_EQ(view.timelineA()->layout()->rows().size(), foldedRows);
}

}  // namespace
}  // namespace sutra::widgets
