// SPDX-License-Identifier: MIT
// The simulation view shows the simulator's numbers: on HTA's base.json.gz the steps' measured
// times are (python over the file: step start to the later of its end and the end of the device
// ops whose launch call starts in it) 157408000 ns for ProfilerStep#1009 and 174193000 ns for
// #1010, and the simulator replays a trace exactly with no knobs. Its distributedInfo says rank 1.
#include "simulation_view.h"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QCheckBox>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableView>
#include <array>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "io/readers.h"
#include "qt_app.h"
#include "simulation_runner.h"
#include "test_support.h"
#include "text/format.h"
#include "trace_session.h"

namespace sutra::widgets {
namespace {

std::shared_ptr<const Trace> baseTrace() {
  auto trace = readKinetoTrace(test::sharedTrace("hta/trace_compare/base.json.gz"));
  EXPECT_TRUE(trace.ok());
  return std::make_shared<const Trace>(std::move(trace).value());
}

// The base trace as a run of its own, and the app's side of the window: a SimulationRunner that
// simulates what the view asks, on a worker, as Analysis > Simulate does.
std::shared_ptr<const Run> baseRun() {
  auto run = runOfTrace(baseTrace());
  EXPECT_TRUE(run.ok());
  return std::make_shared<const Run>(std::move(run).value());
}
void simulateBase(SimulationView& view) {
  if (!view.findChild<gui::SimulationRunner*>()) new gui::SimulationRunner(&view);
  view.simulate(baseRun(), 0);
}

// Simulates the base trace, then the what-if in which every Memcpy takes 4x as long.
void simulateMemcpyX4(SimulationView& view) {
  QSignalSpy ready(&view, &SimulationView::ready);
  simulateBase(view);
  ASSERT_TRUE(ready.wait(60'000));
  SimKnobs knobs;
  knobs.scales.push_back({"Memcpy", 4.0});
  view.applyKnobs(knobs);
  ASSERT_TRUE(ready.wait(60'000));
}

TEST(SimulationView, ShowsMeasuredAndSimulatedPerStep) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  SimulationView view;
  view.resize(1200, 700);
  QSignalSpy ready(&view, &SimulationView::ready);
  simulateBase(view);
  ASSERT_TRUE(ready.wait(60'000));
  const StepTimingModel* model = view.model();
  ASSERT_EQ(model->rowCount(), 2);
  const TimeNs expected[] = {157'408'000, 174'193'000};
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(
        model->index(r, StepTimingModel::Measured).data(StepTimingModel::SortRole).toLongLong(),
        expected[r]);
    EXPECT_EQ(
        model->index(r, StepTimingModel::Simulated).data(StepTimingModel::SortRole).toLongLong(),
        expected[r]);
    EXPECT_EQ(model->index(r, StepTimingModel::Simulated).data().toString(),
              durationText(expected[r]));
  }
  EXPECT_EQ(model->index(0, StepTimingModel::Step).data().toString(), "ProfilerStep#1009");
  EXPECT_EQ(view.chart()->seriesCount(), 2);
  EXPECT_TRUE(view.movedText().isEmpty());
}

TEST(SimulationView, WhatIfShowsTheProjectedTimeAndWhatMoved) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  SimulationView view;
  ASSERT_NO_FATAL_FAILURE(simulateMemcpyX4(view));
  const SimulationResult* r = view.result();
  ASSERT_NE(r, nullptr);
  ASSERT_TRUE(r->variant.has_value());
  // Copies take 4x as long: the memcpy row of what moved grows from 1226000 ns to 4 x that.
  bool found = false;
  for (const OpChange& op : r->moved.ops)
    if (op.name == "Memcpy HtoD (Pinned -> Device)") {
      found = true;
      EXPECT_EQ(op.baselineNs, 1'226'000);
      EXPECT_EQ(op.variantNs, 4 * 1'226'000);
    }
  EXPECT_TRUE(found);
  EXPECT_GE(r->moved.variantNs, r->moved.baselineNs);
  // The headline names the knobs and compares the steps' projected time with the replay's.
  EXPECT_TRUE(view.summaryText().contains("What-if ('Memcpy' x4)"))
      << view.summaryText().toStdString();
  EXPECT_TRUE(view.summaryText().contains(durationText(r->whatIfProjection->simulatedNs)));
  EXPECT_TRUE(view.summaryText().contains("exact replay"));
  EXPECT_EQ(view.chart()->seriesName(1), "what-if ('Memcpy' x4)");
  EXPECT_TRUE(view.movedText().contains("Memcpy HtoD (Pinned -> Device)"));
  EXPECT_EQ(
      view.model()->index(0, StepTimingModel::WhatIf).data(StepTimingModel::SortRole).toLongLong(),
      r->variantSteps[0].simulated);
}

// The simulated lanes hold exactly what the simulator replays, at its times: one event per measured
// event simulatedTimes() answers for, none other, with the same name and category.
void expectSimulatorsEvents(const SimulationResult& r, const SimRun& run) {
  ASSERT_NE(r.simulated, nullptr);
  const Trace& measured = *r.trace;
  const Trace& sim = r.simulated->trace;
  ASSERT_EQ(r.simulated->measuredEvent.size(), sim.events.size());
  std::map<EventId, EventId> simOf;
  for (EventId s = 0; s < sim.events.size(); ++s)
    EXPECT_TRUE(simOf.emplace(r.simulated->measuredEvent[s], s).second) << "measured event twice";
  std::size_t expected = 0;
  for (EventId e = 0; e < measured.events.size(); ++e) {
    const auto times = simulatedTimes(*r.graph, run, e);
    if (!times || r.graph->trackOfLane[measured.events[e].lane] == kNoTrack) continue;
    ++expected;
    auto it = simOf.find(e);
    ASSERT_NE(it, simOf.end()) << measured.name(measured.events[e]);
    const Event& s = sim.events[it->second];
    EXPECT_EQ(s.start, times->first);
    EXPECT_EQ(s.end(), times->second);
    EXPECT_EQ(sim.name(s), measured.name(measured.events[e]));
    EXPECT_EQ(sim.category(s), measured.category(measured.events[e]));
    EXPECT_EQ(sim.lanes[s.lane].tid, measured.lanes[measured.events[e].lane].tid);
  }
  EXPECT_EQ(sim.events.size(), expected);
}

TEST(SimulationView, SimulatedLanesUnderTheMeasuredOnesOnOneTimeAxis) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  SimulationView view;
  view.resize(1400, 900);
  QSignalSpy ready(&view, &SimulationView::ready);
  simulateBase(view);
  ASSERT_TRUE(ready.wait(60'000));
  const SimulationResult& r = *view.result();
  expectSimulatorsEvents(r, r.baseline);
  // The 18 device ops the summary counts are all on the simulated device lanes.
  std::size_t deviceOps = 0;
  for (const Event& e : r.simulated->trace.events) deviceOps += isDeviceOp(e.klass) ? 1 : 0;
  EXPECT_EQ(deviceOps, r.graph->deviceOpCount());
  EXPECT_EQ(r.graph->deviceOpCount(), 18u);

  TimelineView* measured = view.measuredTimeline();
  TimelineView* simulated = view.simulatedTimeline();
  ASSERT_EQ(measured->trace(), r.trace.get());
  ASSERT_EQ(simulated->trace(), &r.simulated->trace);
  EXPECT_EQ(simulated->layout()->eventCount(), r.simulated->trace.events.size());
  EXPECT_TRUE(simulated->layout()->groups().front().label.starts_with("rank1 simulated / "))
      << simulated->layout()->groups().front().label;
  // Zoom-locked on the same clock, with label columns of one width so times line up in pixels.
  EXPECT_EQ(measured->labelWidth(), simulated->labelWidth());
  const TimeRange window{r.trace->startNs + 1'000'000, r.trace->startNs + 3'000'000};
  measured->setVisibleRange(window);
  EXPECT_EQ(simulated->visibleRange(), window);
  simulated->zoomBy(0.5);
  EXPECT_EQ(measured->visibleRange(), simulated->visibleRange());
  // Each lane group has its toggle.
  view.show();
  view.simulatedToggle()->setChecked(false);
  EXPECT_FALSE(simulated->isVisible());
  EXPECT_TRUE(measured->isVisible());
  view.measuredToggle()->setChecked(false);
  view.simulatedToggle()->setChecked(true);
  EXPECT_TRUE(simulated->isVisible());
  EXPECT_FALSE(measured->isVisible());
}

TEST(SimulationView, WhatIfLanesShowTheVariantsTimes) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  SimulationView view;
  ASSERT_NO_FATAL_FAILURE(simulateMemcpyX4(view));
  const SimulationResult& r = *view.result();
  ASSERT_TRUE(r.variant.has_value());
  expectSimulatorsEvents(r, *r.variant);
  // Every copy lasts 4x its measured time: the five HtoD copies 4 x 1226000 ns together.
  TimeNs htod = 0;
  for (const Event& e : r.simulated->trace.events)
    if (r.simulated->trace.name(e) == "Memcpy HtoD (Pinned -> Device)") htod += e.dur;
  EXPECT_EQ(htod, 4 * 1'226'000);
  EXPECT_EQ(view.simulatedTimeline()->trace(), &r.simulated->trace);
  EXPECT_TRUE(
      view.simulatedTimeline()->layout()->groups().front().label.starts_with("rank1 what-if / "));
}

TEST(SimulationView, TableStartsByStepAndTheChartSpeaksMilliseconds) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  SimulationView view;
  QSignalSpy ready(&view, &SimulationView::ready);
  simulateBase(view);
  ASSERT_TRUE(ready.wait(60'000));
  QTableView* table = view.table();
  EXPECT_EQ(table->horizontalHeader()->sortIndicatorSection(), int(StepTimingModel::Step));
  EXPECT_EQ(table->horizontalHeader()->sortIndicatorOrder(), Qt::AscendingOrder);
  EXPECT_EQ(table->model()->index(0, StepTimingModel::Step).data().toString(), "ProfilerStep#1009");
  EXPECT_EQ(table->model()->index(1, StepTimingModel::Step).data().toString(), "ProfilerStep#1010");
  // Steps of 157 and 174 ms: the axis reads in ms, up to 1.1 x 174.193.
  EXPECT_EQ(view.chart()->plot()->yAxis->label(), "time (ms)");
  EXPECT_DOUBLE_EQ(view.chart()->plot()->yAxis->range().upper, 174.193 * 1.1);
}

TEST(WhatIfDialog, ParsesKnobsAndNamesTheBadLine) {
  test::qtApp();
  WhatIfDialog dialog;
  SimKnobs knobs;
  knobs.scales.push_back({"gemm", 0.5});
  knobs.launchLatencyNs = 2'500;
  knobs.cpuSpeed = 2.0;
  knobs.dropSyncs = true;
  knobs.hostScales.push_back({"straggle", 0});
  knobs.networkSpeed = 4.0;
  dialog.setKnobs(knobs);
  auto parsed = dialog.knobs();
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->scales.size(), 1u);
  EXPECT_EQ(parsed->scales[0].pattern, "gemm");
  EXPECT_EQ(parsed->scales[0].factor, 0.5);
  EXPECT_EQ(parsed->launchLatencyNs, 2'500);
  EXPECT_EQ(parsed->cpuSpeed, 2.0);
  EXPECT_TRUE(parsed->dropSyncs);
  ASSERT_EQ(parsed->hostScales.size(), 1u);
  EXPECT_EQ(parsed->hostScales[0].pattern, "straggle");
  EXPECT_EQ(parsed->hostScales[0].factor, 0.0);
  EXPECT_EQ(parsed->networkSpeed, 4.0);
  knobs.scales[0].pattern = "gemm(";  // does not compile
  dialog.setKnobs(knobs);
  EXPECT_FALSE(dialog.knobs().ok());
}

// sutra-cli's standard output.
std::string cliOutput(const std::string& arguments) {
  return test::commandOutput(std::string(SUTRA_CLI) + " " + arguments + " 2>/dev/null");
}

// The view simulates nothing: it asks, and shows the answer it is handed.
TEST(SimulationView, AsksForASimulationAndShowsTheAnswerItIsGiven) {
  test::qtApp();
  SimulationView view;
  QSignalSpy asked(&view, &SimulationView::simulationRequested);
  QSignalSpy whatIf(&view, &SimulationView::whatIfRequested);
  QSignalSpy failed(&view, &SimulationView::failed);
  view.simulate(nullptr, 3);
  ASSERT_EQ(asked.size(), 1);
  EXPECT_EQ(asked.front()[1].toInt(), 3);
  EXPECT_EQ(view.summaryText(), "Simulating...");
  view.applyKnobs(SimKnobs{});  // nothing shown yet to replay
  EXPECT_TRUE(whatIf.isEmpty());
  view.showSimulation(gui::runSimulation(nullptr, 3));
  ASSERT_EQ(failed.size(), 1);
  EXPECT_EQ(failed.front()[0].toString(), "no such rank to simulate");
  EXPECT_EQ(view.result(), nullptr);
}

// The GUI's path (TraceSession, then Analysis > Simulate's runSimulation on the session's run) and
// `sutra-cli simulate DIR` give the same projected time for every step of every rank, the ranks
// coupled at their collectives in both; and the same under a what-if.
TEST(SimulationView, TheGuiSimulatesARunAsTheCliDoes) {
  test::qtApp();
  const std::string dir =
      std::string(SUTRA_SOURCE_DIR) + "/tests/data/synthetic_samples/allreduce_2ranks";
  gui::TraceSession session;
  QSignalSpy finished(&session, &gui::TraceSession::finished);
  session.open({QString::fromStdString(dir)});
  ASSERT_TRUE(finished.wait(60'000));
  ASSERT_NE(session.run(), nullptr);
  for (const std::string knobs : {"", "--scale nccl=3"}) {
    const auto cli = nlohmann::json::parse(cliOutput("simulate " + dir + " --json " + knobs));
    ASSERT_EQ(cli["ranks"].size(), 2u);
    SimKnobs whatIf;
    if (!knobs.empty()) whatIf.scales.push_back({"nccl", 3.0});
    for (int r = 0; r < 2; ++r) {
      const SimulationResult gui = gui::runSimulation(session.run(), r, whatIf);
      ASSERT_TRUE(gui.error.isEmpty()) << gui.error.toStdString();
      EXPECT_EQ(gui.coupledRanks, 2u);
      const auto& steps = knobs.empty() ? gui.steps : gui.variantSteps;
      const auto& cliSteps = cli["ranks"][std::size_t(r)]["steps"];
      ASSERT_EQ(steps.size(), cliSteps.size());
      for (std::size_t s = 0; s < steps.size(); ++s) {
        EXPECT_EQ(steps[s].number, cliSteps[s]["step"].get<std::int64_t>());
        EXPECT_EQ(steps[s].simulated, cliSteps[s]["simulated_ns"].get<TimeNs>())
            << "rank " << r << " step " << steps[s].number << " " << knobs;
      }
    }
  }
}

}  // namespace
}  // namespace sutra::widgets
