// SPDX-License-Identifier: MIT
// The window as a user drives it: a bad file shows the error dialog with its reason; a real trace
// fills the timeline and search selects; an operator-table row selects its occurrences.
#include "main_window.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTest>
#include <algorithm>

#include "chain_view.h"
#include "event_details.h"
#include "op_table_model.h"
#include "op_table_view.h"
#include "qt_app.h"
#include "test_support.h"
#include "timeline_view.h"
#include "trace_session.h"
#include "view/time_axis.h"

namespace sutra::gui {
namespace {

bool waitFor(QSignalSpy& spy) {
  for (int i = 0; i < 600 && spy.isEmpty(); ++i) spy.wait(100);
  return !spy.isEmpty();
}

// Opens the param linear Kineto trace in a window of a size where every panel shows.
void openLinearTrace(MainWindow& window) {
  window.resize(1400, 900);
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({QString::fromStdString(test::sharedTrace("param/linear_kineto.json.gz"))});
  ASSERT_TRUE(waitFor(loaded));
}

TEST(MainWindow, ABadFileShowsTheErrorDialogWithItsReason) {
  test::qtApp();
  MainWindow window;
  QSignalSpy errors(&window, &MainWindow::errorShown);
  const QString path = QStringLiteral("/nonexistent/run/rank0.json.gz");
  window.openPaths({path});
  ASSERT_TRUE(waitFor(errors));
  const QString expected = path + ": no such file or directory";
  EXPECT_EQ(errors.front().front().toString(), expected);
  auto* dialog = window.findChild<QMessageBox*>("ErrorDialog");
  ASSERT_NE(dialog, nullptr);
  EXPECT_EQ(dialog->text(), expected);
  EXPECT_TRUE(dialog->isVisible());
  EXPECT_EQ(window.timeline().trace(), nullptr);
}

TEST(MainWindow, OpensARealTraceIntoTheTimeline) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openLinearTrace(window));
  ASSERT_NE(window.timeline().trace(), nullptr);
  EXPECT_EQ(window.timeline().trace()->events.size(), 61950u);  // the X events of the file
  EXPECT_EQ(window.timeline().layout()->tracks().size(), 6u);
  EXPECT_EQ(window.currentRank(), 0);
  // Searching selects the first match and the details panel shows it.
  window.searchAndSelect("aten::linear");
  const EventId selected = window.timeline().selectedEvent();
  ASSERT_NE(selected, kNoEvent);
  EXPECT_EQ(window.timeline().trace()->name(window.timeline().trace()->events[selected]),
            "aten::linear");
}

TEST(MainWindow, ATableRowSelectsItsOccurrencesInTheTimeline) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openLinearTrace(window));
  auto* ops = window.findChild<widgets::OpTableView*>();
  ASSERT_NE(ops, nullptr);
  ASSERT_NE(window.timeline().trace(), nullptr);
  EXPECT_EQ(window.timeline().trace()->events.size(), 61950u);
  EXPECT_EQ(window.timeline().layout()->tracks().size(), 6u);

  ASSERT_GT(ops->proxy()->rowCount(), 0);
  // Pick the aten::linear row through the filter, as a user would.
  ops->setFilterText("aten::linear");
  int row = -1;
  for (int r = 0; r < ops->proxy()->rowCount(); ++r)
    if (ops->proxy()->data(ops->proxy()->index(r, widgets::OpTableModel::Name)).toString() ==
        "aten::linear")
      row = r;
  ASSERT_GE(row, 0);
  const auto* opRow =
      ops->model()->rowAt(ops->proxy()->mapToSource(ops->proxy()->index(row, 0)).row());
  ASSERT_NE(opRow, nullptr);
  ops->table()->setCurrentIndex(ops->proxy()->index(row, widgets::OpTableModel::Name));
  const auto& trace = *window.timeline().trace();
  std::vector<EventId> expected;
  for (EventId i = 0; i < trace.events.size(); ++i)
    if (trace.name(trace.events[i]) == "aten::linear") expected.push_back(i);
  std::vector<EventId> highlighted = window.timeline().highlighted();
  std::sort(highlighted.begin(), highlighted.end());
  EXPECT_EQ(highlighted, expected);
  ASSERT_NE(window.timeline().selectedEvent(), kNoEvent);
  EXPECT_EQ(trace.name(trace.events[window.timeline().selectedEvent()]), "aten::linear");
}

QString sample(const char* name) {
  return QString::fromStdString(test::fixture("synthetic_samples/")) + name;
}

QStringList recentEntries() { return QSettings().value("recent").toStringList(); }

// A CPU recording's operator table has no empty device columns and sorts by self CPU; a run with
// device time shows them again, sorted by self device time.
TEST(MainWindow, TheOperatorTableOfACpuRecordingHidesTheDeviceColumns) {
  test::qtApp();
  MainWindow window;
  auto* ops = window.findChild<widgets::OpTableView*>();
  ASSERT_NE(ops, nullptr);
  auto* view = ops->findChild<QTableView*>();
  ASSERT_NE(view, nullptr);
  auto open = [&](const QString& path) {
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openPaths({path});
    ASSERT_TRUE(waitFor(loaded));
    for (int i = 0; i < 600 && !ops->model()->table(); ++i) QTest::qWait(100);
    ASSERT_NE(ops->model()->table(), nullptr);
  };
  ASSERT_NO_FATAL_FAILURE(open(
      QString::fromStdString(std::string(SUTRA_SOURCE_DIR) + "/resources/samples/matmul_1024")));
  EXPECT_TRUE(view->isColumnHidden(widgets::OpTableModel::SelfDevice));
  EXPECT_TRUE(view->isColumnHidden(widgets::OpTableModel::DeviceAverage));
  EXPECT_EQ(view->horizontalHeader()->sortIndicatorSection(), widgets::OpTableModel::SelfCpu);
  ASSERT_NO_FATAL_FAILURE(open(sample("matmul_1024")));
  for (int i = 0; i < 600 && !ops->model()->table()->hasDeviceTime(); ++i) QTest::qWait(100);
  EXPECT_FALSE(view->isColumnHidden(widgets::OpTableModel::SelfDevice));
  EXPECT_EQ(view->horizontalHeader()->sortIndicatorSection(), widgets::OpTableModel::SelfDevice);
}

// A failed open keeps the trace loaded before, with its title, and stays out of Open Recent; only
// what opened enters it.
TEST(MainWindow, AFailedOpenKeepsTheLoadedTraceAndStaysOutOfRecent) {
  test::qtApp();
  QSettings().remove("recent");
  MainWindow window;
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({sample("matmul_1024")});
  ASSERT_TRUE(waitFor(loaded));
  const Trace* trace = window.timeline().trace();
  ASSERT_NE(trace, nullptr);
  const QString title = window.windowTitle();
  const QString opened = QFileInfo(sample("matmul_1024")).absoluteFilePath();
  EXPECT_EQ(recentEntries(), QStringList{opened});

  QSignalSpy errors(&window, &MainWindow::errorShown);
  window.openPaths({QString::fromStdString(test::fixture("widgets/truncated_kineto.json.gz"))});
  ASSERT_TRUE(waitFor(errors));
  EXPECT_EQ(window.timeline().trace(), trace);
  EXPECT_EQ(window.windowTitle(), title);
  EXPECT_EQ(window.currentRank(), 0);
  EXPECT_EQ(recentEntries(), QStringList{opened});
  if (auto* dialog = window.findChild<QMessageBox*>("ErrorDialog")) dialog->close();

  // Cancelled: the same.
  QSignalSpy canceled(&window.session(), &TraceSession::canceled);
  window.openPaths({sample("allreduce_2ranks")});
  window.session().cancel();  // before its first rank
  ASSERT_TRUE(waitFor(canceled));
  EXPECT_EQ(window.timeline().trace(), trace);
  EXPECT_EQ(window.windowTitle(), title);
  EXPECT_EQ(recentEntries(), QStringList{opened});
  QSettings().remove("recent");
}

// With nothing loaded, what needs a trace is disabled and says why; a load enables it.
TEST(MainWindow, ActionsThatNeedATraceWaitForOne) {
  test::qtApp();
  MainWindow window;
  std::vector<QAction*> needing;
  for (QMenu* menu : window.findChildren<QMenu*>())
    for (QAction* action : menu->actions()) {
      const QString text = action->text().remove('&');
      if (text == "Chakra trace(s)..." || text == "Linked ET+ JSON..." ||
          text.startsWith("Measured timeline") || text.startsWith("Simulated timeline") ||
          text == "Simulate" || text == "Charts" || text == "Fit All" || text == "Fit Selection")
        needing.push_back(action);
    }
  ASSERT_EQ(needing.size(), 8u);
  for (QAction* action : needing) {
    EXPECT_FALSE(action->isEnabled()) << action->text().toStdString();
    EXPECT_EQ(action->toolTip(), "Open a trace first") << action->text().toStdString();
  }
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({sample("matmul_1024")});
  ASSERT_TRUE(waitFor(loaded));
  for (QAction* action : needing) {
    EXPECT_TRUE(action->isEnabled()) << action->text().toStdString();
    EXPECT_NE(action->toolTip(), "Open a trace first") << action->text().toStdString();
  }
  QSettings().remove("recent");
}

// The window is titled by the run: a run folder by its name, a single file by its own.
TEST(MainWindow, TheTitleNamesTheRun) {
  test::qtApp();
  MainWindow window;
  EXPECT_EQ(window.windowTitle(), "Sutra");
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({sample("allreduce_2ranks")});
  ASSERT_TRUE(waitFor(loaded));
  EXPECT_EQ(window.windowTitle(), "allreduce_2ranks - Sutra");
  window.setCurrentRank(1);
  EXPECT_EQ(window.windowTitle(), "allreduce_2ranks - Sutra");
  loaded.clear();
  window.openPaths({sample("matmul_1024/rank0.kineto.json.gz")});
  ASSERT_TRUE(waitFor(loaded));
  EXPECT_EQ(window.windowTitle(), "rank0.kineto.json.gz - Sutra");
  QSettings().remove("recent");
}

// W/A/S/D/F/0 move the timeline wherever focus is in the window (here the operator table), but a
// text field keeps its typing; F fits the range selected on the ruler.
TEST(MainWindow, TimelineKeysWorkWhereverFocusIsButInTextFields) {
  test::qtApp();
  MainWindow window;
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({sample("matmul_1024")});
  ASSERT_TRUE(waitFor(loaded));
  window.show();
  window.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
  widgets::TimelineView& timeline = window.timeline();
  auto* table = window.findChild<widgets::OpTableView*>()->table();
  table->setFocus();
  QApplication::processEvents();
  ASSERT_EQ(QApplication::focusWidget(), table);
  const widgets::TimeRange all = timeline.visibleRange();
  QTest::keyClick(table, Qt::Key_W);
  EXPECT_LT(timeline.visibleRange().span(), all.span());
  const widgets::TimeRange zoomed = timeline.visibleRange();
  QTest::keyClick(table, Qt::Key_D);
  EXPECT_GT(timeline.visibleRange().start, zoomed.start);
  QTest::keyClick(table, Qt::Key_0);
  EXPECT_EQ(timeline.visibleRange(), all);
  const widgets::TimeRange range{all.start + all.span() / 4, all.start + all.span() / 2};
  timeline.setSelectedTimeRange(range);
  QTest::keyClick(table, Qt::Key_F);
  EXPECT_EQ(timeline.visibleRange(), range);

  QLineEdit* search = nullptr;
  for (QLineEdit* edit : window.findChildren<QLineEdit*>())
    if (edit->placeholderText().startsWith("Search event names")) search = edit;
  ASSERT_NE(search, nullptr);
  search->setFocus();
  QApplication::processEvents();
  QTest::keyClick(search, Qt::Key_W);
  QTest::keyClick(search, Qt::Key_0);
  EXPECT_EQ(search->text(), "w0");
  EXPECT_EQ(timeline.visibleRange(), range);
  QSettings().remove("recent");
}

// At 1000 x 650 the events get at least half the width: the docks beside the timeline and its
// label column give way.
TEST(MainWindow, TheEventsGetHalfOfASmallWindow) {
  test::qtApp();
  MainWindow window;
  window.resize(1000, 650);
  window.show();
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({sample("allreduce_2ranks")});
  ASSERT_TRUE(waitFor(loaded));
  QApplication::processEvents();
  EXPECT_GE(window.timeline().eventAreaWidth(), 500) << window.timeline().labelWidth();
  QSettings().remove("recent");
}

void sendMouse(QWidget* widget, QEvent::Type type, QPoint pos, Qt::MouseButtons buttons) {
  QMouseEvent event(type, QPointF(pos), widget->mapToGlobal(QPointF(pos)), Qt::LeftButton, buttons,
                    Qt::NoModifier);
  QApplication::sendEvent(widget, &event);
}

// A drag on the timeline's ruler selects a time range: the operator table is rebuilt for it, and a
// click on the ruler gives the whole trace back.
TEST(MainWindow, ARangeDraggedOnTheRulerIsTheOperatorTablesWindow) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openLinearTrace(window));
  auto* ops = window.findChild<widgets::OpTableView*>();
  ASSERT_NE(ops, nullptr);
  widgets::TimelineView& timeline = window.timeline();
  const TimeWindow whole = ops->currentWindow();
  const int left = timeline.eventAreaLeft(), y = timeline.rulerHeight() / 2;
  const widgets::TimeRange view = timeline.visibleRange();
  const int width = timeline.eventAreaWidth(), x0 = width / 5, x1 = width * 3 / 5;
  const TimeNs t0 = widgets::xToTime(x0, view, width);
  const TimeNs t1 = widgets::xToTime(x1, view, width);
  QSignalSpy tables(&window.session(), &TraceSession::opTableReady);
  sendMouse(&timeline, QEvent::MouseButtonPress, {left + x0, y}, Qt::LeftButton);
  sendMouse(&timeline, QEvent::MouseMove, {left + (x0 + x1) / 2, y}, Qt::LeftButton);
  sendMouse(&timeline, QEvent::MouseMove, {left + x1, y}, Qt::LeftButton);
  sendMouse(&timeline, QEvent::MouseButtonRelease, {left + x1, y}, Qt::NoButton);
  EXPECT_EQ(timeline.selectedTimeRange(), (widgets::TimeRange{t0, t1}));
  EXPECT_EQ(timeline.visibleRange(), view);  // a ruler drag selects, it does not pan
  EXPECT_EQ(ops->currentWindow().start, t0);
  EXPECT_EQ(ops->currentWindow().end, t1);
  ASSERT_TRUE(waitFor(tables));
  ASSERT_NE(ops->model()->table(), nullptr);
  EXPECT_EQ(ops->model()->table()->window.start, t0);
  EXPECT_EQ(ops->model()->table()->window.end, t1);
  // A click on the ruler clears the range: back to the whole trace.
  sendMouse(&timeline, QEvent::MouseButtonPress, {left + x0 / 2, y}, Qt::LeftButton);
  sendMouse(&timeline, QEvent::MouseButtonRelease, {left + x0 / 2, y}, Qt::NoButton);
  EXPECT_EQ(timeline.selectedTimeRange(), (widgets::TimeRange{0, 0}));
  EXPECT_EQ(ops->currentWindow().start, whole.start);
  EXPECT_EQ(ops->currentWindow().end, whole.end);
}

}  // namespace
}  // namespace sutra::gui

namespace sutra::gui {
namespace {

// The timeline opens in layer sections (framework, runtime, each device by name); View > Group
// Lanes by Layer off lays the run out per process again. The status bar says how the ET is linked,
// and a linked op's details show its ET node.
TEST(MainWindow, LayerSectionsByDefaultAndTheEtPairingShows) {
  test::qtApp();
  QSettings().remove("timeline/groupByLayer");
  MainWindow window;
  window.resize(1400, 900);
  auto* layers = window.findChild<QAction*>("GroupLanesByLayerAction");
  ASSERT_NE(layers, nullptr);
  EXPECT_TRUE(layers->isChecked());
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({sample("transformer_two_streams")});
  ASSERT_TRUE(waitFor(loaded));
  auto groups = [&] {
    std::vector<std::string> out;
    for (const auto& g : window.timeline().layout()->groups()) out.push_back(g.label);
    return out;
  };
  EXPECT_EQ(groups(),
            (std::vector<std::string>{"rank0 / framework", "rank0 / runtime",
                                      "rank0 / GPU 0: NVIDIA H100 80GB HBM3", "rank0 / other"}));
  const auto* status = window.findChild<QLabel*>("StatusText");
  ASSERT_NE(status, nullptr);
  EXPECT_TRUE(status->text().contains(
      "linked with rank0.et.json.gz by record function id: 351 of 351 ET ops matched"))
      << status->text().toStdString();
  // The details of aten::linear show the ET node it was matched to.
  const auto data = window.session().ranks().front();
  const Trace& trace = *data->run->trace;
  EventId linear = kNoEvent;
  for (EventId i = 0; i < trace.events.size() && linear == kNoEvent; ++i)
    if (trace.name(trace.events[i]) == "aten::linear") linear = i;
  ASSERT_NE(linear, kNoEvent);
  const QString html = widgets::etNodeHtml(*data, linear);
  EXPECT_TRUE(html.contains("execution trace node"));
  EXPECT_TRUE(html.contains("aten::linear(Tensor input, Tensor weight"));
  EXPECT_TRUE(html.contains("Tensor(c10::BFloat16) [2048, 1024]")) << html.toStdString();
  // Its dependency chain lists the ET's data dependencies too (producers of its inputs, consumers
  // of its output).
  window.timeline().selectEvent(linear, true);
  auto* chain = window.findChild<widgets::ChainView*>();
  ASSERT_NE(chain, nullptr);
  const auto& hops = chain->chain().hops;
  EXPECT_TRUE(std::any_of(hops.begin(), hops.end(), [](const ChainHop& h) {
    return h.kind == HopKind::DataProducer || h.kind == HopKind::DataConsumer;
  }));

  // Laid out again, not read again: the same trace, the window and the selection kept.
  const auto traceBefore = window.session().ranks().front()->run->trace;
  const view::TimeRange zoomed{window.timeline().visibleRange().start,
                               window.timeline().visibleRange().start + 50'000};
  window.timeline().setVisibleRange(zoomed);
  window.timeline().setHighlighted({linear});
  QSignalSpy started(&window.session(), &TraceSession::started);
  QSignalSpy relaid(&window.session(), &TraceSession::layoutsChanged);
  layers->setChecked(false);
  ASSERT_TRUE(waitFor(relaid));
  EXPECT_EQ(started.count(), 0);
  EXPECT_EQ(window.session().ranks().front()->run->trace, traceBefore);
  EXPECT_EQ(window.timeline().trace(), traceBefore.get());
  EXPECT_EQ(window.timeline().visibleRange().start, zoomed.start);
  EXPECT_EQ(window.timeline().visibleRange().end, zoomed.end);
  EXPECT_EQ(window.timeline().selectedEvent(), linear);
  EXPECT_EQ(window.timeline().highlighted(), std::vector<EventId>{linear});
  const auto byProcess = groups();
  EXPECT_NE(std::find(byProcess.begin(), byProcess.end(), "rank0 / pid 20481 (python3)"),
            byProcess.end());
  EXPECT_EQ(std::find(byProcess.begin(), byProcess.end(), "rank0 / framework"), byProcess.end());
  EXPECT_EQ(window.session().laneGrouping(), view::LaneGrouping::Processes);
  QSettings().remove("timeline/groupByLayer");
}

// A with_stack recording (the bundled RMSNorm sample): each thread's Python frames fold into one
// thin band, the step and its ops start in the row under it and are on screen; View > Fold Python
// Frames (key P) lays the frames out a row per depth and back, without reading the trace again.
TEST(MainWindow, PythonFramesAreFoldedIntoOneBandPerThreadAndUnfoldOnDemand) {
  test::qtApp();
  MainWindow window;
  window.resize(1400, 900);
  window.show();
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths(
      {QString::fromStdString(std::string(SUTRA_SOURCE_DIR) + "/resources/samples/rmsnorm_naive")});
  ASSERT_TRUE(waitFor(loaded));
  auto* fold = window.findChild<QAction*>("FoldPythonFramesAction");
  ASSERT_NE(fold, nullptr);
  EXPECT_TRUE(fold->isChecked());
  EXPECT_EQ(fold->shortcut(), QKeySequence(Qt::Key_P));
  widgets::TimelineView& timeline = window.timeline();
  const Trace& trace = *timeline.trace();
  EventId step = kNoEvent;
  for (EventId i = 0; i < trace.events.size() && step == kNoEvent; ++i)
    if (trace.name(trace.events[i]).starts_with("ProfilerStep#")) step = i;
  ASSERT_NE(step, kNoEvent);
  auto frameRows = [&] {
    std::vector<std::uint32_t> rows;
    for (EventId i = 0; i < trace.events.size(); ++i)
      if (trace.events[i].klass == CategoryClass::PythonFunction)
        rows.push_back(timeline.layout()->rowOf(i));
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    return rows;
  };
  // Folded: the frames (one thread here) in one thin band; the step right under it, on screen.
  const std::vector<std::uint32_t> band = frameRows();
  ASSERT_EQ(band.size(), 1u);
  EXPECT_TRUE(timeline.layout()->rows()[band[0]].pythonFrames);
  EXPECT_LT(timeline.rowHeight(0, band[0]), timeline.rowHeight(0, band[0] + 1));
  EXPECT_EQ(timeline.layout()->rowOf(step), band[0] + 1);
  EXPECT_EQ(timeline.rowTop(band[0] + 1),
            timeline.rowTop(band[0]) + timeline.rowHeight(0, band[0]));
  const int stepTop = timeline.rowTop(timeline.layout()->rowOf(step));
  EXPECT_GE(stepTop, timeline.rulerHeight());
  EXPECT_LT(stepTop + 2 * timeline.rowHeight(0, band[0] + 1), timeline.height());

  // Unfolded: a row per frame depth, the step below them all; the same trace, not read again.
  QSignalSpy relaid(&window.session(), &TraceSession::layoutsChanged);
  QSignalSpy started(&window.session(), &TraceSession::started);
  fold->trigger();
  ASSERT_TRUE(waitFor(relaid));
  EXPECT_EQ(started.count(), 0);
  EXPECT_FALSE(window.session().foldPythonFrames());
  EXPECT_FALSE(timeline.layout()->hasFoldedPythonFrames());
  EXPECT_GE(frameRows().size(), 5u);
  EXPECT_GT(timeline.rowTop(timeline.layout()->rowOf(step)), stepTop + 4 * 18);
  relaid.clear();
  fold->trigger();
  ASSERT_TRUE(waitFor(relaid));
  EXPECT_TRUE(timeline.layout()->hasFoldedPythonFrames());
  EXPECT_EQ(frameRows(), band);
}

}  // namespace
}  // namespace sutra::gui
