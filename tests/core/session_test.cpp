// SPDX-License-Identifier: MIT
// The run API (core/session): stages in order, each result built once and shared, cancel, the
// simulation of a whole run, and the one failure message both front ends show.
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <utility>
#include <vector>

#include "analysis/op_table.h"
#include "session/run.h"
#include "session/run_collectives.h"
#include "session/run_simulation.h"
#include "test_support.h"

namespace sutra {
namespace {

std::string sample(const std::string& name) {
  return std::string(SUTRA_SOURCE_DIR) + "/tests/data/synthetic_samples/" + name;
}

TEST(Session, StagesComeInOrderAndEachRankIsRepublishedNotChanged) {
  std::vector<std::pair<int, RunStage>> seen;
  std::vector<std::shared_ptr<const RankRun>> published;
  int found = -1;
  bool collectives = false;
  RunCallbacks callbacks;
  callbacks.ranksFound = [&](const sutra::Run&, int count) { found = count; };
  callbacks.rank = [&](int index, RunStage stage, const std::shared_ptr<const RankRun>& rank) {
    EXPECT_FALSE(collectives) << "a rank after the collectives";
    EXPECT_TRUE(rank->has(stage));
    seen.emplace_back(index, stage);
    published.push_back(rank);
  };
  callbacks.collectives = [&](const std::shared_ptr<const RunCollectives>& c) {
    collectives = true;
    EXPECT_GT(c->collectives.size(), 0u);
  };
  auto run = openRun({sample("allreduce_2ranks")}, {}, callbacks);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(found, 2);
  EXPECT_TRUE(collectives);
  const std::vector<std::pair<int, RunStage>> expected{
      {0, RunStage::Read},     {1, RunStage::Read},    {0, RunStage::Link},
      {1, RunStage::Link},     {0, RunStage::Analyse}, {1, RunStage::Analyse},
      {0, RunStage::Simulate}, {1, RunStage::Simulate}};
  EXPECT_EQ(seen, expected);
  // What was handed out at each stage stayed as it was: the read rank has no links, and so on.
  ASSERT_EQ(published.size(), 8u);
  EXPECT_EQ(published[0]->launches(), nullptr);
  EXPECT_NE(published[2]->launches(), nullptr);
  EXPECT_EQ(published[2]->opTable(), nullptr);
  EXPECT_NE(published[4]->opTable(), nullptr);
  EXPECT_EQ(published[4]->simulation, nullptr);
  // Built once, shared by every later stage: the same trace, launch index and table objects.
  const RankRun& last = *run->ranks[0];
  EXPECT_EQ(last.trace, published[0]->trace);
  EXPECT_EQ(last.launches(), published[2]->launches());
  EXPECT_EQ(last.opTable(), published[4]->opTable());
  EXPECT_EQ(last.simulation->launches, last.launches());
  EXPECT_EQ(last.simulation->trace, last.trace);
  EXPECT_EQ(run->ranks[1]->rank, 1);
}

TEST(Session, UntilStopsAfterTheStageAsked) {
  RunOptions options;
  options.until = RunStage::Analyse;
  auto run = openRun({sample("matmul_1024")}, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->ranks.size(), 1u);
  EXPECT_TRUE(run->ranks[0]->has(RunStage::Analyse));
  EXPECT_FALSE(run->ranks[0]->has(RunStage::Simulate));
  EXPECT_NE(run->ranks[0]->opTable(), nullptr);
  EXPECT_EQ(run->ranks[0]->simulation, nullptr);
  EXPECT_FALSE(simulateRun(*run).ok());  // not prepared for it, and says so
}

// RunOptions::eventArgs off: the trace is read without its events' args where nothing built needs
// them, and the operator table is the same; sync dependencies and simulation keep them.
TEST(Session, EventArgsAreLeftOutOnlyWhereNoStageReadsThem) {
  RunOptions lean = RunOptions::upTo(RunStage::Analyse);
  lean.syncDependencies = false;
  lean.linkEt = false;  // the sample's ET would be linked, and linking reads them
  lean.eventArgs = false;
  auto without = openRun({sample("matmul_1024")}, lean);
  ASSERT_TRUE(without.ok()) << without.error().message;
  RunOptions full = lean;
  full.eventArgs = true;
  auto with = openRun({sample("matmul_1024")}, full);
  ASSERT_TRUE(with.ok()) << with.error().message;
  const RankRun& a = *with->ranks[0];
  const RankRun& b = *without->ranks[0];
  EXPECT_TRUE(a.trace->eventArgsRead);
  EXPECT_FALSE(b.trace->eventArgsRead);
  EXPECT_GT(a.trace->args.size(), b.trace->args.size());
  ASSERT_EQ(a.opTable()->rows.size(), b.opTable()->rows.size());
  for (std::size_t i = 0; i < a.opTable()->rows.size(); ++i) {
    EXPECT_EQ(a.opTable()->rows[i].name, b.opTable()->rows[i].name);
    EXPECT_EQ(a.opTable()->rows[i].calls, b.opTable()->rows[i].calls);
    EXPECT_EQ(a.opTable()->rows[i].selfCpu, b.opTable()->rows[i].selfCpu);
    EXPECT_EQ(a.opTable()->rows[i].selfDevice, b.opTable()->rows[i].selfDevice);
  }
  // Grouped by shapes without args, the rows say so instead of grouping every call as shapeless.
  const OpTable byShape = buildOpTable(*b.trace, *b.launches(), {wholeTraceWindow(*b.trace), true});
  ASSERT_FALSE(byShape.rows.empty());
  for (const OpRow& row : byShape.rows) EXPECT_EQ(row.inputShapes, "(args not read)");

  for (RunStage until : {RunStage::Link, RunStage::Simulate}) {
    RunOptions needed = RunOptions::upTo(until);
    needed.eventArgs = false;  // sync dependencies (on by default) read them
    auto run = openRun({sample("matmul_1024")}, needed);
    ASSERT_TRUE(run.ok()) << run.error().message;
    EXPECT_TRUE(run->ranks[0]->trace->eventArgsRead);
  }
}

TEST(Session, CancelStopsBetweenStages) {
  CancelToken cancel;
  std::vector<RunStage> seen;
  RunCallbacks callbacks;
  callbacks.rank = [&](int, RunStage stage, const std::shared_ptr<const RankRun>&) {
    seen.push_back(stage);
    cancel.cancel();  // after the first rank is read
  };
  auto run = openRun({sample("allreduce_2ranks")}, {}, callbacks, cancel);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error().message, kCanceled);
  EXPECT_EQ(seen, std::vector<RunStage>{RunStage::Read});
}

TEST(Session, CancelDuringReadingStopsTheReader) {
  CancelToken cancel;
  cancel.cancel();
  auto run = openRun({sample("transformer_two_streams")}, {}, {}, cancel);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error().message, kCanceled);
}

TEST(Session, TheRunIsSimulatedWithItsRanksCoupled) {
  auto run = openRun({sample("allreduce_2ranks")});
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto simulated = simulateRun(*run);
  ASSERT_TRUE(simulated.ok()) << simulated.error().message;
  ASSERT_EQ(simulated->ranks.size(), 2u);
  EXPECT_EQ(simulated->matching.collectives.size(), run->collectives->matching.collectives.size());
  EXPECT_GT(simulated->matching.matchedOps, 0u);
  for (const auto& rank : simulated->ranks) {
    // No knobs: the replay lands on what was measured.
    EXPECT_EQ(rank.projection.simulatedNs, rank.projection.measuredNs);
    EXPECT_FALSE(rank.moved.has_value());
  }
  SimKnobs knobs;
  knobs.scales.push_back({"nccl", 2.0});
  auto slower = simulateRun(*run, knobs);
  ASSERT_TRUE(slower.ok());
  for (std::size_t r = 0; r < 2; ++r) {
    EXPECT_GT(slower->ranks[r].projection.simulatedNs, simulated->ranks[r].projection.simulatedNs);
    EXPECT_EQ(slower->ranks[r].baselineProjection.simulatedNs,
              simulated->ranks[r].projection.simulatedNs);
    EXPECT_TRUE(slower->ranks[r].moved.has_value());
  }
  SimulateOptions onlyStep;
  onlyStep.onlyStep = 99;
  auto noStep = simulateRun(*run, {}, onlyStep);
  ASSERT_FALSE(noStep.ok());
  EXPECT_NE(noStep.error().message.find("no step 99"), std::string::npos);
}

// A run of more events than simulateUpToEvents stops at Analyse, says so, and simulates later.
TEST(Session, ARunOverTheEventLimitOpensWithoutItsSimulation) {
  RunOptions options;
  options.simulateUpToEvents = 10;
  auto run = openRun({sample("allreduce_2ranks")}, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_TRUE(run->has(RunStage::Analyse));
  EXPECT_FALSE(run->has(RunStage::Simulate));
  ASSERT_FALSE(run->notes.empty());
  EXPECT_NE(run->notes.back().find("not simulated on opening"), std::string::npos);
  auto simulated = advanceRun(*run, RunStage::Simulate);
  ASSERT_TRUE(simulated.ok()) << simulated.error().message;
  EXPECT_TRUE(simulated->has(RunStage::Simulate));
  options.simulateUpToEvents = 0;  // no limit: simulated as usual
  auto whole = openRun({sample("allreduce_2ranks")}, options);
  ASSERT_TRUE(whole.ok());
  EXPECT_TRUE(whole->has(RunStage::Simulate));
}

// advanceRun continues a run from where it stands: the stages it has are reused (the same
// objects), only the missing ones are built, and the result simulates as a run opened in one go.
TEST(Session, AdvanceRunBuildsOnlyTheMissingStages) {
  auto analysed = openRun({sample("transformer_two_streams")}, RunOptions::upTo(RunStage::Analyse));
  ASSERT_TRUE(analysed.ok()) << analysed.error().message;
  EXPECT_TRUE(analysed->has(RunStage::Analyse));
  EXPECT_FALSE(analysed->has(RunStage::Simulate));
  std::vector<RunStage> built;
  RunCallbacks callbacks;
  callbacks.rank = [&](int, RunStage stage, const std::shared_ptr<const RankRun>&) {
    built.push_back(stage);
  };
  auto simulated = advanceRun(*analysed, RunStage::Simulate, {}, callbacks);
  ASSERT_TRUE(simulated.ok()) << simulated.error().message;
  EXPECT_EQ(built, std::vector<RunStage>{RunStage::Simulate});
  EXPECT_TRUE(simulated->has(RunStage::Simulate));
  const RankRun& before = *analysed->ranks[0];
  const RankRun& after = *simulated->ranks[0];
  EXPECT_EQ(after.trace, before.trace);
  EXPECT_EQ(after.link, before.link);
  EXPECT_EQ(after.analysis, before.analysis);
  EXPECT_FALSE(before.has(RunStage::Simulate));  // what was handed out did not change
  // A run at its stage already is given back as it is.
  built.clear();
  auto again = advanceRun(*simulated, RunStage::Simulate, {}, callbacks);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(built.empty());
  EXPECT_EQ(again->ranks[0], simulated->ranks[0]);
  // The same simulation as a run opened up to Simulate at once.
  auto direct = openRun({sample("transformer_two_streams")});
  ASSERT_TRUE(direct.ok());
  auto a = simulateRun(*simulated);
  auto b = simulateRun(*direct);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->ranks[0].projection.simulatedNs, b->ranks[0].projection.simulatedNs);
  // A trace read without its events' args is read again where the simulation needs them.
  RunOptions lean = RunOptions::upTo(RunStage::Analyse);
  lean.eventArgs = false;
  lean.syncDependencies = false;
  lean.linkEt = false;  // linking its ET would read them too
  auto leanRun = openRun({sample("transformer_two_streams")}, lean);
  ASSERT_TRUE(leanRun.ok());
  ASSERT_FALSE(leanRun->ranks[0]->trace->eventArgsRead);
  auto leanSimulated = advanceRun(*leanRun, RunStage::Simulate, lean);
  ASSERT_TRUE(leanSimulated.ok()) << leanSimulated.error().message;
  EXPECT_TRUE(leanSimulated->ranks[0]->trace->eventArgsRead);
  EXPECT_NE(leanSimulated->ranks[0]->syncs(), nullptr);
  RunOptions kinetoAlone;
  kinetoAlone.linkEt = false;
  auto directAlone = openRun({sample("transformer_two_streams")}, kinetoAlone);
  ASSERT_TRUE(directAlone.ok());
  auto c = simulateRun(*leanSimulated);
  auto d = simulateRun(*directAlone);
  ASSERT_TRUE(c.ok() && d.ok());
  EXPECT_EQ(c->ranks[0].projection.simulatedNs, d->ranks[0].projection.simulatedNs);
}

// A what-if given the baseline replays only its knobs and projects as one that replays both.
TEST(Session, ASimulationTakesTheBaselineAlreadyComputed) {
  auto run = openRun({sample("transformer_two_streams")});
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto baseline = simulateRun(*run);
  ASSERT_TRUE(baseline.ok());
  EXPECT_EQ(baseline->replays, 1);
  SimKnobs knobs;
  knobs.cpuSpeed = 2.0;
  auto both = simulateRun(*run, knobs);
  ASSERT_TRUE(both.ok());
  EXPECT_EQ(both->replays, 2);
  SimulateOptions onBaseline;
  onBaseline.baseline = &baseline.value();
  auto reused = simulateRun(*run, knobs, onBaseline);
  ASSERT_TRUE(reused.ok()) << reused.error().message;
  EXPECT_EQ(reused->replays, 1);
  EXPECT_EQ(reused->ranks[0].projection.simulatedNs, both->ranks[0].projection.simulatedNs);
  EXPECT_EQ(reused->ranks[0].baselineProjection.simulatedNs,
            both->ranks[0].baselineProjection.simulatedNs);
  // A what-if is no baseline.
  SimulateOptions onWhatIf;
  onWhatIf.baseline = &both.value();
  EXPECT_FALSE(simulateRun(*run, knobs, onWhatIf).ok());
}

TEST(Session, AnEtInTheDirectoryIsLinkedAndFeedsTheGraph) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto run = openRun({test::sharedTrace("hta/execution_trace")});
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->ranks.size(), 1u);
  const RankRun& rank = *run->ranks[0];
  ASSERT_FALSE(rank.etPath.empty());
  ASSERT_NE(rank.linked(), nullptr) << rank.linkNote();
  EXPECT_GT(rank.linked()->report.matchedEtOps, 0u);
  EXPECT_EQ(rank.linked()->kineto, rank.trace);
  // The run without the ET builds the same graph without the ET's inter-thread dependencies.
  RunOptions alone;
  alone.linkEt = false;
  auto kinetoOnly = openRun({test::sharedTrace("hta/execution_trace")}, alone);
  ASSERT_TRUE(kinetoOnly.ok());
  EXPECT_EQ(kinetoOnly->ranks[0]->linked(), nullptr);
  EXPECT_GE(rank.simulation->graph.edges.size(),
            kinetoOnly->ranks[0]->simulation->graph.edges.size());
  // Linking reads the events' args: a run that would leave them out keeps them for its ET.
  RunOptions lean = RunOptions::upTo(RunStage::Link);
  lean.syncDependencies = false;
  lean.eventArgs = false;
  auto linkedLean = openRun({test::sharedTrace("hta/execution_trace")}, lean);
  ASSERT_TRUE(linkedLean.ok()) << linkedLean.error().message;
  EXPECT_TRUE(linkedLean->ranks[0]->trace->eventArgsRead);
  ASSERT_NE(linkedLean->ranks[0]->linked(), nullptr);
  EXPECT_EQ(linkedLean->ranks[0]->linked()->report.matchedEtOps,
            rank.linked()->report.matchedEtOps);
}

TEST(Session, ChakraGraphsOpenAsSimulationOnlyRanksWhereAsked) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const std::string dir = test::sharedTrace("astra-sim/all_gather_4npus");
  RunOptions options;
  options.chakraGraphs = true;
  auto run = openRun({dir}, options);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->ranks.size(), 4u);
  for (const auto& rank : run->ranks) {
    EXPECT_EQ(rank->trace, nullptr);
    ASSERT_NE(rank->simulation, nullptr);
    EXPECT_TRUE(rank->simulation->chakra);
  }
  EXPECT_TRUE(simulateRun(*run).ok());
  // Without the option there is nothing a timeline can show, and the message says what there is.
  auto timeline = openRun({dir});
  ASSERT_FALSE(timeline.ok());
  EXPECT_NE(timeline.error().message.find("no Kineto trace"), std::string::npos);
}

// Runs sutra-cli and returns its standard error.
std::string cliError(const std::string& arguments) {
  return test::commandOutput(std::string(SUTRA_CLI) + " " + arguments + " 2>&1 >/dev/null");
}

TEST(Session, TheCliShowsCoresFailureMessageAsItIs) {
  const test::TempDir dir;
  const std::string notATrace = dir.file("notes.json");
  std::ofstream(notATrace) << "{\"hello\": 1}";
  auto run = openRun({notATrace});
  ASSERT_FALSE(run.ok());
  const std::string message = run.error().message;
  EXPECT_NE(message.find(notATrace), std::string::npos) << message;
  EXPECT_EQ(cliError("simulate " + notATrace), "sutra-cli simulate: " + message + "\n");
}

}  // namespace
}  // namespace sutra

namespace sutra {
namespace {

// The status line's words for how each rank's ET is paired. The sample's ET and Kineto trace were
// written together (tools/samplegen): every ET op has its record function id in the Kineto trace.
// Counted from the files: python3 -c "import gzip,json;
// d=json.load(gzip.open('tests/data/synthetic_samples/
//   transformer_two_streams/rank0.et.json.gz')); print(sum(1 for n in d['nodes'] if not
//   n['name'].startswith('[pytorch|profiler')))" gives 351.
TEST(Session, GlooRanksOfARealCpuRecordingMeetAtTheirAllReduces) {
  // resources/samples/allreduce_2ranks: two ranks recorded on the CPU with torch 2.13, each step
  // an all-reduce that gloo runs on its worker thread ("gloo:all_reduce", no kernel, no launch).
  auto run = openRun({std::string(SUTRA_SOURCE_DIR) + "/resources/samples/allreduce_2ranks"});
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto simulated = simulateRun(*run);
  ASSERT_TRUE(simulated.ok()) << simulated.error().message;
  ASSERT_EQ(simulated->ranks.size(), 2u);
  // One collective per gloo:all_reduce, each on both ranks (the recording has as many on each).
  EXPECT_GE(simulated->matching.collectives.size(), 3u);
  EXPECT_EQ(simulated->matching.unmatchedOps, 0u);
  for (const auto& c : simulated->matching.collectives) EXPECT_EQ(c.members.size(), 2u);
  for (const auto& rank : simulated->ranks)
    EXPECT_EQ(rank.projection.simulatedNs, rank.projection.measuredNs);
}

TEST(Session, DescribesHowEachRanksEtIsLinked) {
  auto run = openRun({sample("transformer_two_streams")}, RunOptions::upTo(RunStage::Link));
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->ranks.size(), 1u);
  EXPECT_EQ(describeEtLink(*run->ranks[0]),
            "linked with rank0.et.json.gz by record function id: 351 of 351 ET ops matched, "
            "123 of 123 device ops given their op");
  RankRun alone;
  EXPECT_EQ(describeEtLink(alone), "no execution trace");
  RankRun failed;
  failed.etPath = "/runs/a/rank0.et.json.gz";
  auto note = std::make_shared<LinkResult>();
  note->note = "an ET of another run";
  failed.link = note;
  EXPECT_EQ(describeEtLink(failed),
            "ET rank0.et.json.gz not linked (an ET of another run); the Kineto trace alone");
}

}  // namespace
}  // namespace sutra
