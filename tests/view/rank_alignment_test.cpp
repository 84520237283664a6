// SPDX-License-Identifier: MIT
// How the ranks of a run share one time axis, and what is said about it, without Qt (the GUI's
// QString wrappers and the all-ranks view: tests/widgets/all_ranks_test.cpp).
#include "view/rank_alignment.h"

#include <gtest/gtest.h>

#include "io/readers.h"
#include "test_support.h"

namespace sutra::view {
namespace {

constexpr TimeNs kUs = 1000;

Trace read(const std::string& relative) {
  auto trace = readKinetoTrace(test::fixture(relative));
  EXPECT_TRUE(static_cast<bool>(trace)) << relative;
  return std::move(trace).value();
}

TEST(RankAlignment, FirstProfilerStepLinesUpTheRanksThatHaveOne) {
  const Trace rank0 = read("all_ranks/three_ranks/rank0.json");
  const Trace noSteps = read("discover/rank_dirs/rank1/trace.json");  // aten::add and a kernel only
  const Trace rank2 = read("all_ranks/three_ranks/rank2.json");
  EXPECT_EQ(firstProfilerStepStart(rank2), 1000400 * kUs);
  EXPECT_EQ(firstProfilerStepStart(noSteps), std::nullopt);
  const RankOffsets offsets =
      rankOffsets({&noSteps, &rank0, &rank2}, RankAlignment::FirstProfilerStep);
  EXPECT_EQ(offsets.reference, 1);  // the first rank with a step
  EXPECT_EQ(offsets.offsets, (std::vector<TimeNs>{0, 0, -400 * kUs}));
  EXPECT_EQ(offsets.unaligned, std::vector<int>{0});
  EXPECT_EQ(alignmentNoteText(offsets, RankAlignment::FirstProfilerStep, {"r0", "r1", "r2"}),
            "aligned on each rank's first ProfilerStep; as recorded (no ProfilerStep): r0");
  // A rank without a label is named by its index.
  EXPECT_EQ(alignmentNoteText(offsets, RankAlignment::FirstProfilerStep, {}),
            "aligned on each rank's first ProfilerStep; as recorded (no ProfilerStep): 0");
  EXPECT_EQ(alignmentTagText(offsets, RankAlignment::FirstProfilerStep),
            "aligned on first ProfilerStep (not all)");
  const RankOffsets all = rankOffsets({&rank0, &rank2}, RankAlignment::FirstProfilerStep);
  EXPECT_EQ(all.offsets, (std::vector<TimeNs>{0, -400 * kUs}));
  EXPECT_EQ(alignmentTagText(all, RankAlignment::FirstProfilerStep),
            "aligned on first ProfilerStep");
}

TEST(RankAlignment, SharedClockAndNoStepLeaveEveryRankAsRecorded) {
  const Trace noSteps = read("discover/rank_dirs/rank1/trace.json");
  const RankOffsets shared = rankOffsets({&noSteps, &noSteps}, RankAlignment::SharedClock);
  EXPECT_EQ(shared, (RankOffsets{{0, 0}, {}, -1}));
  EXPECT_EQ(alignmentNoteText(shared, RankAlignment::SharedClock, {}),
            "shared clock (as recorded)");
  EXPECT_EQ(alignmentTagText(shared, RankAlignment::SharedClock), "shared clock");
  const RankOffsets none = rankOffsets({&noSteps, &noSteps}, RankAlignment::FirstProfilerStep);
  EXPECT_EQ(none.reference, -1);
  EXPECT_EQ(none.unaligned, (std::vector<int>{0, 1}));
  EXPECT_EQ(alignmentNoteText(none, RankAlignment::FirstProfilerStep, {}),
            "no ProfilerStep to align on: shared clock (as recorded)");
  EXPECT_EQ(alignmentTagText(none, RankAlignment::FirstProfilerStep), "shared clock");
}

TEST(RankAlignment, CollectivesTakeTheMatchedOffsetsOnceKnown) {
  const Trace noSteps = read("discover/rank_dirs/rank1/trace.json");
  const RankOffsets unknown = rankOffsets({&noSteps, &noSteps}, RankAlignment::Collectives);
  EXPECT_EQ(unknown, (RankOffsets{{0, 0}, {}, -1}));
  EXPECT_EQ(alignmentNoteText(unknown, RankAlignment::Collectives, {}),
            "collectives not matched yet: shared clock (as recorded)");
  EXPECT_EQ(alignmentTagText(unknown, RankAlignment::Collectives), "shared clock");
  // Offsets of the wrong length are not used.
  EXPECT_EQ(rankOffsets({&noSteps, &noSteps}, RankAlignment::Collectives, {5}), unknown);
  const RankOffsets matched =
      rankOffsets({&noSteps, &noSteps}, RankAlignment::Collectives, {0, -7 * kUs});
  EXPECT_EQ(matched, (RankOffsets{{0, -7 * kUs}, {}, 0}));
  EXPECT_EQ(alignmentNoteText(matched, RankAlignment::Collectives, {}),
            "aligned on collectives (each rank's collectives end together)");
  EXPECT_EQ(alignmentTagText(matched, RankAlignment::Collectives), "aligned on collectives");
}

}  // namespace
}  // namespace sutra::view
