// SPDX-License-Identifier: MIT
// The all-ranks view on tests/data/all_ranks/three_ranks (hand-made by
// tests/tools/make_three_ranks.py, whose header lists the numbers asserted here): every rank's
// groups stacked in rank order on one time axis, selection switching the tables to its rank, search
// across ranks, a rank folded to its header, the alignment on the first ProfilerStep, and rank 0
// alone past 16 ranks.
#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QMouseEvent>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include "event_details.h"
#include "io/readers.h"
#include "main_window.h"
#include "op_table_view.h"
#include "qt_app.h"
#include "test_support.h"
#include "text/alignment_text.h"
#include "timeline_view.h"
#include "trace_session.h"
#include "view/time_axis.h"

namespace sutra::gui {
namespace {

constexpr TimeNs kUs = 1000;

bool waitFor(QSignalSpy& spy) {
  for (int i = 0; i < 600 && spy.isEmpty(); ++i) spy.wait(100);
  return !spy.isEmpty();
}

void openPaths(MainWindow& window, const QStringList& paths) {
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths(paths);
  ASSERT_TRUE(waitFor(loaded));
}

void openThreeRanks(MainWindow& window) {
  window.resize(1500, 1400);  // tall enough for the three ranks' rows in the timeline
  window.show();              // offscreen: lays the docks and the timeline out at that size
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  openPaths(window, {QString::fromStdString(test::fixture("all_ranks/three_ranks"))});
  ASSERT_GT(window.timeline().height(), 700);
}

// The first event of `name` on `part`, by start.
EventId firstNamed(const widgets::TimelineView& view, int part, std::string_view name) {
  const Trace& trace = *view.part(part).trace;
  EventId found = kNoEvent;
  for (EventId i = 0; i < trace.events.size(); ++i)
    if (trace.name(trace.events[i]) == name &&
        (found == kNoEvent || trace.events[i].start < trace.events[found].start))
      found = i;
  return found;
}

QString statusText(MainWindow& window) {
  auto* label = window.findChild<QLabel*>(QStringLiteral("StatusText"));
  return label ? label->text() : QString();
}

TEST(AllRanks, IsTheDefaultAndListsEveryRanksGroupsInRankOrder) {
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openThreeRanks(window));
  EXPECT_TRUE(window.showingAllRanks());
  auto* selector = window.findChild<QComboBox*>(QStringLiteral("RankSelector"));
  ASSERT_NE(selector, nullptr);
  ASSERT_EQ(selector->count(), 4);
  EXPECT_EQ(selector->currentText(), "All ranks (3)");
  EXPECT_TRUE(selector->itemText(1).startsWith("rank0"));
  EXPECT_TRUE(selector->itemText(3).startsWith("rank2"));

  widgets::TimelineView& timeline = window.timeline();
  ASSERT_EQ(timeline.partCount(), 3);
  int previousBottom = -1;
  for (int p = 0; p < 3; ++p) {
    const auto& layout = *timeline.part(p).layout;
    EXPECT_TRUE(
        timeline.part(p).label.startsWith(QStringLiteral("rank%1  (rank%1.json, 8 events)").arg(p)))
        << timeline.part(p).label.toStdString();
    const int header = timeline.partHeaderTop(p);
    EXPECT_GT(header, previousBottom) << "rank " << p;
    // Each rank's layer sections (framework, runtime, its device), each labelled with its rank,
    // under its header.
    ASSERT_EQ(layout.groups().size(), 3u);
    for (std::uint32_t g = 0; g < layout.groups().size(); ++g) {
      EXPECT_TRUE(QString::fromStdString(layout.groups()[g].label)
                      .startsWith(QStringLiteral("rank%1 / ").arg(p)));
      const int top = timeline.groupHeaderTop(p, g);
      EXPECT_GT(top, header);
      previousBottom = std::max(previousBottom, top);
    }
    for (std::uint32_t r = 0; r < layout.rows().size(); ++r)
      previousBottom = std::max(previousBottom, timeline.rowTop(p, r));
  }
}

TEST(AllRanks, TheTimeAxisCoversTheUnionOfTheRanks) {
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openThreeRanks(window));
  widgets::TimelineView& timeline = window.timeline();
  // Rank 0's step starts first (1000000 us), every rank's ends at 1000720 us; 1/50 margin.
  const TimeNs start = 1000000 * kUs, end = 1000720 * kUs, margin = (end - start) / 50;
  EXPECT_EQ(timeline.timeOrigin(), start);
  EXPECT_EQ(timeline.boundsRange(), (widgets::TimeRange{start - margin, end + margin}));
  EXPECT_EQ(timeline.visibleRange(), timeline.boundsRange());
  EXPECT_TRUE(timeline.axisNote().contains("shared clock")) << timeline.axisNote().toStdString();
  EXPECT_TRUE(statusText(window).contains("All 3 ranks")) << statusText(window).toStdString();
}

TEST(AllRanks, SelectingAnEventOnRank1SwitchesTheTablesToRank1) {
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openThreeRanks(window));
  widgets::TimelineView& timeline = window.timeline();
  auto* ops = window.findChild<widgets::OpTableView*>();
  ASSERT_NE(ops, nullptr);
  EXPECT_EQ(window.currentRank(), 0);
  EXPECT_EQ(ops->currentWindow().start, 1000000 * kUs);

  // Click rank 1's first aten::mm (1000060 us, 40 us) where it is drawn.
  const EventId mm = firstNamed(timeline, 1, "aten::mm");
  ASSERT_NE(mm, kNoEvent);
  const Event& e = timeline.part(1).trace->events[mm];
  EXPECT_EQ(e.start, 1000060 * kUs);
  const double x =
      widgets::timeToX(e.start + e.dur / 2, timeline.visibleRange(), timeline.eventAreaWidth());
  const int y = timeline.rowTop(1, timeline.part(1).layout->rowOf(mm));
  ASSERT_GT(y, timeline.rulerHeight());
  ASSERT_LT(y + 18, timeline.height());
  const QPoint at(timeline.eventAreaLeft() + static_cast<int>(x), y + 8);
  EXPECT_EQ(timeline.hitAt(at), (widgets::TimelineEvent{1, mm}));
  QTest::mouseClick(&timeline, Qt::LeftButton, {}, at);

  EXPECT_EQ(timeline.selectedPart(), 1);
  EXPECT_EQ(timeline.selectedEvent(), mm);
  EXPECT_EQ(window.currentRank(), 1);
  EXPECT_TRUE(window.showingAllRanks());  // the view stays; the tables follow
  // The operator table now covers rank 1's whole trace, which starts at its step (1000050 us).
  EXPECT_EQ(ops->currentWindow().start, 1000050 * kUs);
  EXPECT_EQ(timeline.trace(), timeline.part(1).trace.get());
  EXPECT_TRUE(statusText(window).contains("rank1: 8 events")) << statusText(window).toStdString();
  // The details count its start from the ruler's origin (rank 0's first event), not rank 1's own.
  auto* details = window.findChild<widgets::EventDetailsView*>();
  ASSERT_NE(details, nullptr);
  EXPECT_TRUE(details->toPlainText().contains("+60.00 us (1000060000 ns)"))
      << details->toPlainText().toStdString();
}

TEST(AllRanks, SearchFindsAndHighlightsMatchesOnEveryRank) {
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openThreeRanks(window));
  widgets::TimelineView& timeline = window.timeline();
  window.searchAndSelect("aten::mm");
  EXPECT_EQ(timeline.matchCount(), 6);
  for (int p = 0; p < 3; ++p) EXPECT_EQ(timeline.highlightedOn(p).size(), 2u) << "rank " << p;
  // Matches in time order across ranks: rank 0 at 1000010 us, then rank 1 at 1000060 us.
  EXPECT_EQ(timeline.selectedPart(), 0);
  timeline.nextMatch();
  EXPECT_EQ(timeline.selectedPart(), 1);
  EXPECT_EQ(window.currentRank(), 1);
  EXPECT_EQ(timeline.part(1).trace->events[timeline.selectedEvent()].start, 1000060 * kUs);
  // Case-insensitive: c10d::allreduce_ and the NCCL kernel, on every rank.
  EXPECT_EQ(timeline.search("ALLREDUCE", false), 6);
  for (int p = 0; p < 3; ++p) EXPECT_EQ(timeline.highlightedOn(p).size(), 2u) << "rank " << p;
}

TEST(AllRanks, AClickOnARanksHeaderFoldsTheWholeRank) {
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openThreeRanks(window));
  widgets::TimelineView& timeline = window.timeline();
  const int header1 = timeline.partHeaderTop(1);
  ASSERT_GT(header1, 0);
  QTest::mouseClick(&timeline, Qt::LeftButton, {}, QPoint(20, header1 + 10));
  EXPECT_TRUE(timeline.isPartCollapsed(1));
  EXPECT_EQ(timeline.groupHeaderTop(1, 0), -1);
  EXPECT_EQ(timeline.partHeaderTop(2), header1 + 24);  // rank 2 moves up under rank 1's header
  // Selecting an event of the folded rank opens it again.
  timeline.selectEvent(1, firstNamed(timeline, 1, "gemm_kernel"), true);
  EXPECT_FALSE(timeline.isPartCollapsed(1));
  EXPECT_GT(timeline.groupHeaderTop(1, 0), header1);
}

TEST(AllRanks, AlignsRanksOnTheirFirstProfilerStepWhenAsked) {
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openThreeRanks(window));
  widgets::TimelineView& timeline = window.timeline();
  auto* align = window.findChild<QAction*>(QStringLiteral("AlignRanksAction"));
  ASSERT_NE(align, nullptr);
  EXPECT_FALSE(align->isChecked());
  for (int p = 0; p < 3; ++p) EXPECT_EQ(timeline.part(p).offset, 0);
  align->setChecked(true);
  // Steps start at 1000000, 1000050 and 1000400 us: ranks 1 and 2 move back to rank 0's.
  EXPECT_EQ(timeline.part(0).offset, 0);
  EXPECT_EQ(timeline.part(1).offset, -50 * kUs);
  EXPECT_EQ(timeline.part(2).offset, -400 * kUs);
  EXPECT_TRUE(timeline.axisNote().contains("first ProfilerStep"))
      << timeline.axisNote().toStdString();
  EXPECT_TRUE(statusText(window).contains("first ProfilerStep"))
      << statusText(window).toStdString();
  // Rank 2's aten::mm (1000410 us) is now drawn where rank 0's (1000010 us) is.
  const EventId mm0 = firstNamed(timeline, 0, "aten::mm"),
                mm2 = firstNamed(timeline, 2, "aten::mm");
  const Event& e0 = timeline.part(0).trace->events[mm0];
  const QPoint on0(timeline.eventAreaLeft() + static_cast<int>(widgets::timeToX(
                                                  e0.start + e0.dur / 2, timeline.visibleRange(),
                                                  timeline.eventAreaWidth())),
                   timeline.rowTop(2, timeline.part(2).layout->rowOf(mm2)) + 8);
  EXPECT_EQ(timeline.hitAt(on0), (widgets::TimelineEvent{2, mm2}));
  align->setChecked(false);
  EXPECT_EQ(timeline.part(2).offset, 0);
  EXPECT_TRUE(timeline.axisNote().contains("shared clock"));
}

// A rank without a ProfilerStep stays as recorded, and the note names it.
TEST(RankAlignment, ARankWithoutAProfilerStepStaysAsRecorded) {
  auto read = [](const std::string& relative) {
    auto trace = readKinetoTrace(test::fixture(relative));
    EXPECT_TRUE(static_cast<bool>(trace)) << relative;
    return std::move(trace).value();
  };
  const Trace rank0 = read("all_ranks/three_ranks/rank0.json");
  const Trace noSteps = read("discover/rank_dirs/rank1/trace.json");  // aten::add and a kernel only
  const Trace rank2 = read("all_ranks/three_ranks/rank2.json");
  EXPECT_EQ(widgets::firstProfilerStepStart(rank2), 1000400 * kUs);
  EXPECT_EQ(widgets::firstProfilerStepStart(noSteps), std::nullopt);
  const auto offsets =
      widgets::rankOffsets({&noSteps, &rank0, &rank2}, widgets::RankAlignment::FirstProfilerStep);
  EXPECT_EQ(offsets.reference, 1);  // the first rank with a step
  EXPECT_EQ(offsets.offsets, (std::vector<TimeNs>{0, 0, -400 * kUs}));
  EXPECT_EQ(offsets.unaligned, std::vector<int>{0});
  EXPECT_EQ(widgets::alignmentNote(offsets, widgets::RankAlignment::FirstProfilerStep,
                                   {"rank0", "rank1", "rank2"}),
            "aligned on each rank's first ProfilerStep; as recorded (no ProfilerStep): rank0");
  EXPECT_EQ(widgets::alignmentTag(offsets, widgets::RankAlignment::FirstProfilerStep),
            "aligned on first ProfilerStep (not all)");
  const auto shared =
      widgets::rankOffsets({&noSteps, &rank0, &rank2}, widgets::RankAlignment::SharedClock);
  EXPECT_EQ(shared.offsets, (std::vector<TimeNs>{0, 0, 0}));
  EXPECT_EQ(widgets::alignmentNote(shared, widgets::RankAlignment::SharedClock, {}),
            "shared clock (as recorded)");
}

// The all-reduce kernels of the three ranks are one collective (core's matching): selecting
// rank 0's shows all three, and rank 2, which started it 400 us after rank 0, as the last.
TEST(AllRanks, SelectingACollectiveShowsItOnEveryRankAndWhoStartedItLast) {
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openThreeRanks(window));
  widgets::TimelineView& timeline = window.timeline();
  const auto collectives = window.session().collectives();
  ASSERT_NE(collectives, nullptr);
  EXPECT_EQ(collectives->collectives.size(), 1u);
  EXPECT_EQ(collectives->unmatchedOps, 0u);
  const char* nccl = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
  timeline.selectEvent(0, firstNamed(timeline, 0, nccl), false);
  const std::vector<widgets::TimelineEvent> expected{{0, firstNamed(timeline, 0, nccl)},
                                                     {1, firstNamed(timeline, 1, nccl)},
                                                     {2, firstNamed(timeline, 2, nccl)}};
  EXPECT_EQ(timeline.linkedEvents(), expected);
  EXPECT_TRUE(statusText(window).contains(
      "One collective on 3 ranks: rank2 started it last, 400.0 us after rank0 (shared clock)"))
      << statusText(window).toStdString();
  // A GEMM is no collective: nothing linked.
  timeline.selectEvent(1, firstNamed(timeline, 1, "gemm_kernel"), false);
  EXPECT_TRUE(timeline.linkedEvents().empty());
  EXPECT_EQ(window.currentRank(), 1);
}

// Rank 1 recorded on a clock 5000 us ahead (tests/tools/make_three_ranks.py, skewed_clocks):
// aligned on collectives it moves back 5000 us and still starts the all-reduce 50 us after rank 0;
// aligned on the first ProfilerStep it moves back 5050 us. The two alignments exclude each other.
TEST(AllRanks, AlignsRanksOnCollectivesWhenAsked) {
  test::qtApp();
  MainWindow window;
  window.resize(1500, 1400);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  ASSERT_NO_FATAL_FAILURE(
      openPaths(window, {QString::fromStdString(test::fixture("all_ranks/skewed_clocks"))}));
  widgets::TimelineView& timeline = window.timeline();
  ASSERT_EQ(timeline.partCount(), 2);
  const TimeNs margin = (1005720 - 1000000) * kUs / 50;
  EXPECT_EQ(timeline.boundsRange(),
            (widgets::TimeRange{1000000 * kUs - margin, 1005720 * kUs + margin}));
  ASSERT_NE(window.session().collectives(), nullptr);
  EXPECT_EQ(window.session().collectives()->clockOffsets, (std::vector<TimeNs>{0, -5000 * kUs}));

  auto* onSteps = window.findChild<QAction*>(QStringLiteral("AlignRanksAction"));
  auto* onCollectives = window.findChild<QAction*>(QStringLiteral("AlignCollectivesAction"));
  ASSERT_NE(onSteps, nullptr);
  ASSERT_NE(onCollectives, nullptr);
  onCollectives->setChecked(true);
  EXPECT_EQ(timeline.part(1).offset, -5000 * kUs);
  EXPECT_EQ(timeline.axisNote(), "aligned on collectives");
  const char* nccl = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
  timeline.selectEvent(0, firstNamed(timeline, 0, nccl), false);
  EXPECT_TRUE(statusText(window).contains(
      "rank1 started it last, 50.00 us after rank0 (aligned on collectives)"))
      << statusText(window).toStdString();

  onSteps->setChecked(true);
  EXPECT_FALSE(onCollectives->isChecked());
  EXPECT_EQ(timeline.part(1).offset, -5050 * kUs);
  onSteps->setChecked(false);
  EXPECT_EQ(timeline.part(1).offset, 0);
  EXPECT_EQ(timeline.axisNote(), "shared clock");
}

void sendMouse(QWidget* widget, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons) {
  QMouseEvent event(type, QPointF(pos), widget->mapToGlobal(QPointF(pos)), Qt::LeftButton, buttons,
                    Qt::NoModifier);
  QApplication::sendEvent(widget, &event);
}

// With the ranks aligned, a range dragged on the ruler is the current rank's operator-table window
// in that rank's own times: rank 2 is drawn 400 us earlier than recorded.
TEST(AllRanks, ARangeDraggedOnTheRulerIsTheCurrentRanksWindowInItsOwnTimes) {
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openThreeRanks(window));
  window.setAlignRanks(true);
  widgets::TimelineView& timeline = window.timeline();
  auto* ops = window.findChild<widgets::OpTableView*>();
  ASSERT_NE(ops, nullptr);
  timeline.selectEvent(2, firstNamed(timeline, 2, "aten::mm"), false);
  ASSERT_EQ(window.currentRank(), 2);
  const int left = timeline.eventAreaLeft(), y = timeline.rulerHeight() / 2;
  const widgets::TimeRange view = timeline.visibleRange();
  const int width = timeline.eventAreaWidth(), x0 = width / 5, x1 = width * 3 / 5;
  const TimeNs t0 = widgets::xToTime(x0, view, width), t1 = widgets::xToTime(x1, view, width);
  sendMouse(&timeline, QEvent::MouseButtonPress, {left + x0, y}, Qt::LeftButton);
  sendMouse(&timeline, QEvent::MouseMove, {left + (x0 + x1) / 2, y}, Qt::LeftButton);
  sendMouse(&timeline, QEvent::MouseMove, {left + x1, y}, Qt::LeftButton);
  sendMouse(&timeline, QEvent::MouseButtonRelease, {left + x1, y}, Qt::NoButton);
  EXPECT_EQ(timeline.selectedTimeRange(), (widgets::TimeRange{t0, t1}));
  EXPECT_EQ(ops->currentWindow().start, t0 + 400 * kUs);
  EXPECT_EQ(ops->currentWindow().end, t1 + 400 * kUs);
}

TEST(AllRanks, OneRankChosenShowsItAloneAndAllRanksComesBack) {
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openThreeRanks(window));
  auto* selector = window.findChild<QComboBox*>(QStringLiteral("RankSelector"));
  ASSERT_NE(selector, nullptr);
  selector->setCurrentIndex(selector->findData(2));
  EXPECT_FALSE(window.showingAllRanks());
  EXPECT_EQ(window.currentRank(), 2);
  EXPECT_EQ(window.timeline().partCount(), 1);
  EXPECT_EQ(window.timeline().trace(), window.session().ranks()[2]->run->trace.get());
  EXPECT_EQ(window.timeline().partHeaderTop(0), -1);  // one rank: no rank header
  selector->setCurrentIndex(0);
  EXPECT_TRUE(window.showingAllRanks());
  EXPECT_EQ(window.timeline().partCount(), 3);
  EXPECT_EQ(window.currentRank(), 2);  // the tables stay on the rank they showed
}

// Opened from the File menu, a folder of 17 ranks comes up as its rank overview (the
// RankOverviewAction tests); the ranks picked there, 17 of them here, open on rank 0 alone.
TEST(AllRanks, PastSixteenRanksOpensOnRank0AndSaysWhy) {
  test::qtApp();
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QFile source(QString::fromStdString(test::fixture("all_ranks/three_ranks/rank0.json")));
  ASSERT_TRUE(source.open(QIODevice::ReadOnly));
  const QByteArray text = source.readAll();
  for (int r = 0; r < 17; ++r) {
    QFile out(QDir(dir.path()).filePath(QStringLiteral("rank%1.json").arg(r)));
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write(
        QByteArray(text).replace("\"rank\": 0,", QStringLiteral("\"rank\": %1,").arg(r).toUtf8()));
  }
  MainWindow window;
  window.resize(1400, 900);
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  QStringList picked;
  for (int r = 0; r < 17; ++r)
    picked << QDir(dir.path()).filePath(QStringLiteral("rank%1.json").arg(r));
  window.session().open(picked);  // as the overview's Open Selected Ranks does
  ASSERT_TRUE(waitFor(loaded));
  ASSERT_EQ(window.session().ranks().size(), 17u);
  EXPECT_FALSE(window.showingAllRanks());
  EXPECT_EQ(window.currentRank(), 0);
  EXPECT_EQ(window.timeline().partCount(), 1);
  auto* selector = window.findChild<QComboBox*>(QStringLiteral("RankSelector"));
  ASSERT_NE(selector, nullptr);
  EXPECT_EQ(selector->count(), 18);
  EXPECT_EQ(selector->currentData().toInt(), 0);
  EXPECT_TRUE(statusText(window).contains("17 ranks: showing rank 0 alone"))
      << statusText(window).toStdString();
  // All ranks stays one choice away.
  selector->setCurrentIndex(selector->findText("All ranks (17)"));
  EXPECT_TRUE(window.showingAllRanks());
  EXPECT_EQ(window.timeline().partCount(), 17);
}

}  // namespace
}  // namespace sutra::gui
