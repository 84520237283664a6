// SPDX-License-Identifier: MIT
#include "timeline_view.h"

#include <gtest/gtest.h>

#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>

#include "analysis/memory.h"
#include "io/readers.h"
#include "model/trace_builder.h"
#include "qt_app.h"
#include "synthetic_trace.h"
#include "test_support.h"
#include "text/format.h"
#include "theme.h"

namespace sutra::widgets {
namespace {

class TimelineViewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    test::qtApp();
    trace = std::make_shared<const Trace>(test::makeSyntheticTrace({4'000, 2, 2}));
    layout = std::make_shared<const LaneLayout>(LaneLayout::build(*trace, "rank0"));
    owned = std::make_unique<TimelineView>();  // after the QApplication
    owned->resize(1200, 700);
    owned->setTrace(trace, layout);
  }

  // An event of `name` in the middle of the trace, and a window of `span` around it.
  EventId middleEvent(std::string_view name) const {
    EventId found = kNoEvent;
    const TimeNs middle = trace->startNs + (trace->endNs - trace->startNs) / 2;
    for (EventId i = 0; i < trace->events.size(); ++i)
      if (trace->name(trace->events[i]) == name && trace->events[i].start >= middle) {
        found = i;
        break;
      }
    return found;
  }

  QPoint centreOf(EventId id) const {
    const Event& e = trace->events[id];
    const double x = timeToX(e.start + e.dur / 2, view().visibleRange(), view().eventAreaWidth());
    return {view().eventAreaLeft() + static_cast<int>(x), view().rowTop(layout->rowOf(id)) + 8};
  }

  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const LaneLayout> layout;
  std::unique_ptr<TimelineView> owned;
  TimelineView& view() { return *owned; }
  const TimelineView& view() const { return *owned; }
};

TEST_F(TimelineViewTest, StartsFittedToTheWholeTraceWithEveryGroupOpen) {
  const TimeRange bounds = view().boundsRange();
  EXPECT_EQ(view().visibleRange(), bounds);
  EXPECT_LE(bounds.start, trace->startNs);
  EXPECT_GE(bounds.end, trace->endNs);
  for (std::uint32_t g = 0; g < layout->groups().size(); ++g)
    EXPECT_FALSE(view().isGroupCollapsed(g));
  EXPECT_GE(view().rowTop(0), 0);
}

TEST_F(TimelineViewTest, PaintsRunsWhenZoomedOutAndNamedBoxesWhenZoomedIn) {
  QImage image(view().size(), QImage::Format_ARGB32_Premultiplied);
  {
    QPainter painter(&image);
    view().render(&painter);
  }
  const auto out = view().lastFrameStats();
  EXPECT_GT(out.runs, 0u);
  EXPECT_GT(out.mergedEvents, out.runs);  // runs hold several events each
  const EventId op = middleEvent("aten::addmm");
  ASSERT_NE(op, kNoEvent);
  const Event& e = trace->events[op];
  view().setVisibleRange({e.start - e.dur, e.end() + e.dur});
  {
    QPainter painter(&image);
    view().render(&painter);
  }
  const auto in = view().lastFrameStats();
  EXPECT_GT(in.labels, 0u);
  EXPECT_EQ(view().eventAt(centreOf(op)), op);
  const QString tip = view().toolTipAt(centreOf(op));
  EXPECT_TRUE(tip.contains("aten::addmm")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("rank0 / pid 1000 / thread")) << tip.toStdString();
}

TEST_F(TimelineViewTest, ClickSelectsAndEmitsTheEvent) {
  const EventId launch = middleEvent("cudaLaunchKernel");
  ASSERT_NE(launch, kNoEvent);
  const Event& e = trace->events[launch];
  view().setVisibleRange({e.start - 2 * e.dur, e.end() + 2 * e.dur});
  QSignalSpy spy(&view(), &TimelineView::selectionChanged);
  QTest::mouseClick(&view(), Qt::LeftButton, {}, centreOf(launch));
  ASSERT_EQ(spy.count(), 1);
  EXPECT_EQ(spy.at(0).at(0).value<sutra::EventId>(), launch);
  EXPECT_EQ(view().selectedEvent(), launch);
  // Clicking empty space (the ruler) does not select; Esc clears.
  QTest::keyClick(&view(), Qt::Key_Escape);
  EXPECT_EQ(view().selectedEvent(), kNoEvent);
}

TEST_F(TimelineViewTest, KeysZoomPanAndFit) {
  const TimeRange all = view().visibleRange();
  const TimeRange middle{all.start + all.span() / 4, all.start + all.span() / 4 + all.span() / 2};
  view().setVisibleRange(middle);
  QTest::keyClick(&view(), Qt::Key_W);
  const TimeRange in = view().visibleRange();
  EXPECT_NEAR(static_cast<double>(in.span()), middle.span() * 0.8, 2.0);
  EXPECT_GE(in.start, middle.start);
  EXPECT_LE(in.end, middle.end);
  QTest::keyClick(&view(), Qt::Key_D);
  EXPECT_EQ(view().visibleRange().start,
            in.start + static_cast<TimeNs>(std::llround(in.span() * 0.15)));
  QTest::keyClick(&view(), Qt::Key_A);
  EXPECT_EQ(view().visibleRange().start, in.start);
  QTest::keyClick(&view(), Qt::Key_S);
  EXPECT_NEAR(static_cast<double>(view().visibleRange().span()), in.span() * 1.25, 2.0);
  QTest::keyClick(&view(), Qt::Key_0);
  EXPECT_EQ(view().visibleRange(), all);
  const EventId op = middleEvent("aten::linear");
  view().selectEvent(op, false);
  QTest::keyClick(&view(), Qt::Key_F);
  const Event& e = trace->events[op];
  EXPECT_LT(view().visibleRange().start, e.start);
  EXPECT_GT(view().visibleRange().end, e.end());
  EXPECT_LT(view().visibleRange().span(), e.dur * 2);
}

TEST_F(TimelineViewTest, SearchHighlightsEveryMatchAndStepsThroughThem) {
  std::size_t expected = 0;
  std::size_t exact = 0;  // aten::gelu alone
  for (const auto& e : trace->events) {
    const auto name = QString::fromUtf8(trace->name(e));
    expected += name.contains("gelu", Qt::CaseInsensitive);  // aten::gelu, aten::gelu_, gelu_kernel
    exact += name == "aten::gelu";
  }
  ASSERT_GT(exact, 0u);
  QSignalSpy spy(&view(), &TimelineView::matchesChanged);
  EXPECT_EQ(view().search("GELU", false), static_cast<int>(expected));
  EXPECT_EQ(view().highlighted().size(), expected);
  EXPECT_EQ(view().search("^aten::gelu$", true), static_cast<int>(exact));
  EXPECT_EQ(view().search("(", true), -1);
  view().search("gelu", false);
  view().nextMatch();
  const EventId first = view().selectedEvent();
  ASSERT_NE(first, kNoEvent);
  EXPECT_EQ(view().currentMatch(), 0);
  view().nextMatch();
  EXPECT_EQ(view().currentMatch(), 1);
  EXPECT_GE(trace->events[view().selectedEvent()].start, trace->events[first].start);
  view().previousMatch();
  EXPECT_EQ(view().selectedEvent(), first);
  view().previousMatch();  // wraps around to the last
  EXPECT_EQ(view().currentMatch(), static_cast<int>(expected) - 1);
  EXPECT_GE(spy.count(), 5);
  view().clearSearch();
  EXPECT_TRUE(view().highlighted().empty());
}

TEST_F(TimelineViewTest, ClickingAGroupHeaderCollapsesItAndSelectingRevealsIt) {
  const int headerY = view().rowTop(0) - 10;  // the first group's header sits above its first row
  QTest::mouseClick(&view(), Qt::LeftButton, {}, QPoint(view().eventAreaLeft() + 50, headerY));
  EXPECT_TRUE(view().isGroupCollapsed(0));
  EXPECT_EQ(view().rowTop(0), -1);
  const EventId op = middleEvent("aten::linear");
  view().selectEvent(op, true);
  EXPECT_FALSE(view().isGroupCollapsed(0));
  EXPECT_GE(view().rowTop(layout->rowOf(op)), 0);
}

// Two parts (the ranks of the all-ranks view): the same trace again, 3 ms later on the axis.
TEST_F(TimelineViewTest, PartsStackOnOneAxisEachUnderItsFoldableHeader) {
  constexpr TimeNs kLater = 3'000'000;
  auto layout1 = std::make_shared<const LaneLayout>(LaneLayout::build(*trace, "rank1"));
  view().setParts({{trace, layout, "rank0", 0}, {trace, layout1, "rank1", kLater}});
  ASSERT_EQ(view().partCount(), 2);
  EXPECT_EQ(view().currentPart(), 0);
  EXPECT_EQ(view().timeOrigin(), trace->startNs);
  const TimeNs span = trace->endNs + kLater - trace->startNs;
  EXPECT_EQ(view().boundsRange(),
            (TimeRange{trace->startNs - span / 50, trace->endNs + kLater + span / 50}));
  // Rank 0's header, its groups and rows, then rank 1's header below all of them.
  const int header0 = view().partHeaderTop(0), header1 = view().partHeaderTop(1);
  EXPECT_EQ(header0, view().rulerHeight());
  EXPECT_GT(view().groupHeaderTop(0, 0), header0);
  for (std::uint32_t r = 0; r < layout->rows().size(); ++r) EXPECT_LT(view().rowTop(0, r), header1);
  EXPECT_GT(view().groupHeaderTop(1, 0), header1);

  // Folding rank 0 brings rank 1 up under its header.
  QTest::mouseClick(&view(), Qt::LeftButton, {}, QPoint(20, header0 + 8));
  EXPECT_TRUE(view().isPartCollapsed(0));
  EXPECT_EQ(view().rowTop(0, 0), -1);
  EXPECT_EQ(view().partHeaderTop(1), header0 + 24);

  // An event of rank 1 is hit where its time plus the offset is drawn; its tooltip counts from
  // the shared origin; a click selects it and makes rank 1 the current part.
  const EventId op = middleEvent("aten::addmm");
  ASSERT_NE(op, kNoEvent);
  const Event& e = trace->events[op];
  view().setVisibleRange({e.start + kLater - e.dur, e.end() + kLater + e.dur});
  const QPoint at(view().eventAreaLeft() +
                      static_cast<int>(timeToX(e.start + kLater + e.dur / 2, view().visibleRange(),
                                               view().eventAreaWidth())),
                  view().rowTop(1, layout1->rowOf(op)) + 8);
  EXPECT_EQ(view().hitAt(at), (TimelineEvent{1, op}));
  const QString tip = view().toolTipAt(at);
  EXPECT_TRUE(tip.contains("start: +" + durationText(e.start + kLater - trace->startNs)))
      << tip.toStdString();
  EXPECT_TRUE(tip.contains("rank1 / pid 1000")) << tip.toStdString();
  QTest::mouseClick(&view(), Qt::LeftButton, {}, at);
  EXPECT_EQ(view().selectedPart(), 1);
  EXPECT_EQ(view().selectedEvent(), op);
  EXPECT_EQ(view().currentPart(), 1);
  EXPECT_EQ(view().trace(), trace.get());
  EXPECT_EQ(view().layout(), layout1.get());

  // Search covers both parts; a table's occurrences (showMatches) only the current one.
  std::size_t expected = 0;
  for (const auto& ev : trace->events)
    expected += QString::fromUtf8(trace->name(ev)).contains("gelu");
  EXPECT_EQ(view().search("gelu", false), static_cast<int>(2 * expected));
  EXPECT_EQ(view().highlightedOn(0).size(), expected);
  EXPECT_EQ(view().highlightedOn(1).size(), expected);
  view().showMatches({op});
  EXPECT_TRUE(view().highlightedOn(0).empty());
  EXPECT_EQ(view().highlightedOn(1), std::vector<EventId>{op});

  // Selecting an event of the folded rank opens it.
  view().selectEvent(0, op, true);
  EXPECT_FALSE(view().isPartCollapsed(0));
  EXPECT_EQ(view().currentPart(), 0);
  // Every rank folded: their headers one under the other; then all open again.
  view().setAllPartsCollapsed(true);
  EXPECT_TRUE(view().isPartCollapsed(0) && view().isPartCollapsed(1));
  EXPECT_EQ(view().partHeaderTop(1) - view().partHeaderTop(0), 24);
  view().setAllPartsCollapsed(false);
  EXPECT_FALSE(view().isPartCollapsed(0) || view().isPartCollapsed(1));
  EXPECT_GT(view().partHeaderTop(1) - view().partHeaderTop(0), 24);
}

// A counter series is drawn as a small graph in its process's group (the columns and the layout:
// tests/view/counter_geometry_test.cpp), and goes with the group when it is collapsed.
TEST(CounterLanes, AreDrawnInTheirGroupAndFoldWithIt) {
  test::qtApp();
  auto trace = std::make_shared<const Trace>(test::makeCounterTrace());
  auto layout = std::make_shared<const LaneLayout>(LaneLayout::build(*trace, "rank0"));
  ASSERT_EQ(layout->counters().size(), 2u);
  TimelineView view;
  view.resize(800, 400);
  view.setTrace(trace, layout);
  view.setVisibleRange({0, 1000});
  const int top = view.counterTop(0);
  ASSERT_GT(top, view.rulerHeight());
  EXPECT_GT(view.counterTop(1), top);
  QImage image(view.size(), QImage::Format_RGB32);
  view.render(&image);
  // The graph's line: at the window's right end the value is 30, the top of the graph.
  const int x = view.eventAreaLeft() + view.eventAreaWidth() - 5;
  bool drawn = false;
  for (int y = top; y < top + 30; ++y) drawn |= image.pixelColor(x, y) == QColor(0x1f, 0x77, 0xb4);
  EXPECT_TRUE(drawn);
  // Collapsing the group hides its counter.
  view.setGroupCollapsed(0, true);
  EXPECT_EQ(view.counterTop(0), -1);
}

// The memory curve's peak is marked on its counter lane (core's addMemoryCounters gives the
// series its mark; tests/view/lane_layout_test.cpp checks the mark's numbers): drawn in the mark
// colour where the peak is, its tooltip naming the size and the ops live at the peak, and a click
// on it selects the op that reached it (tests/data/kineto/memory_events.json: 13312 B at 35 us in
// aten::mm).
TEST(CounterLanes, TheMemoryPeakIsMarkedWithItsOps) {
  test::qtApp();
  auto read = readKinetoTrace(test::fixture("kineto/memory_events.json"));
  ASSERT_TRUE(read.ok()) << read.error().message;
  Trace owned = std::move(read).value();
  addMemoryCounters(owned);
  auto trace = std::make_shared<const Trace>(std::move(owned));
  auto layout = std::make_shared<const LaneLayout>(LaneLayout::build(*trace, "rank0"));
  std::uint32_t gpu = UINT32_MAX;
  for (std::uint32_t c = 0; c < layout->counters().size(); ++c)
    if (layout->counters()[c].label == "memory allocated (CUDA 0)") gpu = c;
  ASSERT_NE(gpu, UINT32_MAX);
  const CounterSeries& series = trace->counters[layout->counters()[gpu].series];
  ASSERT_EQ(series.marks.size(), 1u);
  TimelineView view;
  view.resize(1000, 500);
  view.setTrace(trace, layout);
  const TimeRange window{trace->startNs, trace->endNs};
  view.setVisibleRange(window);
  const int top = view.counterTop(gpu);
  ASSERT_GT(top, view.rulerHeight());
  const int x = view.eventAreaLeft() +
                static_cast<int>(std::floor(timeToX(35'000, window, view.eventAreaWidth())));
  QImage image(view.size(), QImage::Format_RGB32);
  view.render(&image);
  const QColor mark = themeFor(view).counterMark;
  int marked = 0, markedElsewhere = 0;
  for (int y = top; y < top + 30; ++y)
    for (int dx = -1; dx <= 1; ++dx) marked += image.pixelColor(x + dx, y) == mark;
  for (int y = top; y < top + 30; ++y)
    markedElsewhere += image.pixelColor(view.eventAreaLeft() + 2, y) == mark;
  EXPECT_GE(marked, 10);  // the dashed line and the diamond
  EXPECT_EQ(markedElsewhere, 0);

  const QPoint onMark(x + 2, top + 15);
  const QString tip = view.toolTipAt(onMark);
  EXPECT_TRUE(tip.contains("peak 13.00 KiB in aten::mm")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("9.00 KiB  aten::mm (2 allocations)")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("4.00 KiB  aten::empty (1 allocation)")) << tip.toStdString();
  EXPECT_FALSE(view.toolTipAt({view.eventAreaLeft() + 2, top + 15}).contains("peak"));

  QSignalSpy selected(&view, &TimelineView::selectionChanged);
  QTest::mouseClick(&view, Qt::LeftButton, {}, onMark);
  ASSERT_EQ(selected.count(), 1);
  const EventId op = selected.at(0).at(0).value<EventId>();
  ASSERT_NE(op, kNoEvent);
  EXPECT_EQ(trace->name(trace->events[op]), "aten::mm");
  EXPECT_EQ(op, series.marks[0].event);
}

}  // namespace
}  // namespace sutra::widgets
