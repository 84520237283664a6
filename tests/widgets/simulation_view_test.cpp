// SPDX-License-Identifier: MIT
// The simulation view shows the simulator's numbers: on HTA's base.json.gz the steps' measured
// times are (python over the file: step start to the later of its end and the end of the device
// ops whose launch call starts in it) 157408000 ns for ProfilerStep#1009 and 174193000 ns for
// #1010, and the simulator replays a trace exactly with no knobs.
#include "simulation_view.h"

#include <gtest/gtest.h>

#include <QSignalSpy>

#include "format.h"
#include "io/readers.h"
#include "qt_app.h"
#include "test_support.h"

namespace sutra::widgets {
namespace {

std::shared_ptr<const Trace> baseTrace() {
  auto trace = readKinetoTrace(test::sharedTrace("hta/trace_compare/base.json.gz"));
  EXPECT_TRUE(trace.ok());
  return std::make_shared<const Trace>(std::move(trace).value());
}

TEST(SimulationView, ShowsMeasuredAndSimulatedPerStep) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  SimulationView view;
  view.resize(1200, 700);
  QSignalSpy ready(&view, &SimulationView::ready);
  view.simulate(baseTrace());
  ASSERT_TRUE(ready.wait(60'000));
  const StepTimingModel* model = view.model();
  ASSERT_EQ(model->rowCount(), 2);
  const TimeNs expected[] = {157'408'000, 174'193'000};
  for (int r = 0; r < 2; ++r) {
    EXPECT_EQ(model->index(r, StepTimingModel::Measured).data(StepTimingModel::SortRole).toLongLong(),
              expected[r]);
    EXPECT_EQ(model->index(r, StepTimingModel::Simulated).data(StepTimingModel::SortRole).toLongLong(),
              expected[r]);
    EXPECT_EQ(model->index(r, StepTimingModel::Simulated).data().toString(), durationText(expected[r]));
  }
  EXPECT_EQ(model->index(0, StepTimingModel::Step).data().toString(), "ProfilerStep#1009");
  EXPECT_EQ(view.chart()->seriesCount(), 2);
  EXPECT_TRUE(view.movedText().isEmpty());
}

TEST(SimulationView, WhatIfShowsTheProjectedTimeAndWhatMoved) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  SimulationView view;
  QSignalSpy ready(&view, &SimulationView::ready);
  view.simulate(baseTrace());
  ASSERT_TRUE(ready.wait(60'000));
  SimKnobs knobs;
  knobs.scales.push_back({"Memcpy", 4.0});
  view.applyKnobs(knobs);
  ASSERT_TRUE(ready.wait(60'000));
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
  EXPECT_TRUE(view.summaryText().contains("what-if"));
  EXPECT_TRUE(view.movedText().contains("Memcpy HtoD (Pinned -> Device)"));
  EXPECT_EQ(view.model()->index(0, StepTimingModel::WhatIf).data(StepTimingModel::SortRole).toLongLong(),
            r->variantSteps[0].simulated);
}

TEST(WhatIfDialog, ParsesKnobsAndNamesTheBadLine) {
  test::qtApp();
  WhatIfDialog dialog;
  SimKnobs knobs;
  knobs.scales.push_back({"gemm", 0.5});
  knobs.launchLatencyNs = 2'500;
  knobs.cpuSpeed = 2.0;
  knobs.dropSyncs = true;
  dialog.setKnobs(knobs);
  auto parsed = dialog.knobs();
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->scales.size(), 1u);
  EXPECT_EQ(parsed->scales[0].pattern, "gemm");
  EXPECT_EQ(parsed->scales[0].factor, 0.5);
  EXPECT_EQ(parsed->launchLatencyNs, 2'500);
  EXPECT_EQ(parsed->cpuSpeed, 2.0);
  EXPECT_TRUE(parsed->dropSyncs);
  knobs.scales[0].pattern = "gemm(";  // does not compile
  dialog.setKnobs(knobs);
  EXPECT_FALSE(dialog.knobs().ok());
}

}  // namespace
}  // namespace sutra::widgets
