// SPDX-License-Identifier: MIT
// The timeline's colour slots: a name keeps its slot across runs of the program, and the slot
// ranges do not overlap.
#include "view/timeline_palette.h"

#include <gtest/gtest.h>

namespace sutra::view {
namespace {

TEST(TimelinePalette, ANameKeepsItsSlotAcrossRuns) {
  // FNV-1a of the text modulo kNameColours, worked out once by hand (Python): stable values.
  EXPECT_EQ(nameColourIndex("aten::mm"), 17);
  EXPECT_EQ(nameColourIndex("cudaLaunchKernel"), 16);
  EXPECT_EQ(nameColourIndex("ampere_sgemm_128x64_tn"), 18);
  EXPECT_EQ(nameColourIndex(""), 1);
  for (const char* name : {"a", "ProfilerStep#3", "nccl:all_reduce"})
    EXPECT_LT(nameColourIndex(name), kNameColours);
}

TEST(TimelinePalette, RunSlotsFollowTheNameSlotsAndEachHasAFadedTwin) {
  EXPECT_EQ(runColourIndex(Band::Framework), kNameColours);
  EXPECT_EQ(runColourIndex(Band::Other), kBaseColours - 1);
  EXPECT_EQ(kFadedOffset, kBaseColours);
  EXPECT_EQ(kColourCount, kFadedOffset + kBaseColours);
}

}  // namespace
}  // namespace sutra::view
