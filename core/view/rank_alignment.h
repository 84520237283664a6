// SPDX-License-Identifier: MIT
#pragma once
// How the ranks of a run share one time axis in the all-ranks view. Ranks recorded on one host
// share its clock (Kineto timestamps are wall-clock microseconds), so they are shown as recorded.
// Where clocks differ (ranks on several hosts), lining up each rank's first ProfilerStep#N with
// the reference rank's shows the iterations side by side; a rank without one stays as recorded.
// Aligning on collectives instead moves each rank so that its collectives end when the other
// ranks' do (they end together in truth): a rank that arrives late keeps its lateness.
#include <optional>
#include <string>
#include <vector>

#include "model/trace.h"
#include "view/widgets_names.h"

namespace sutra::view {

enum class RankAlignment { SharedClock, FirstProfilerStep, Collectives };

// The start of the earliest ProfilerStep#N annotation of `trace`, or nullopt when it has none.
std::optional<TimeNs> firstProfilerStepStart(const Trace& trace);

struct RankOffsets {
  std::vector<TimeNs> offsets;  // one per trace, added to its times on the shared axis
  std::vector<int> unaligned;   // traces left as recorded: no ProfilerStep to align on
  int reference = -1;           // the trace the others are aligned to; -1 with the shared clock
  bool operator==(const RankOffsets&) const = default;
};

// Offsets for `traces` (ranks in order). With FirstProfilerStep the reference is the first trace
// that has a ProfilerStep; every other trace with one moves so that its first step starts with
// the reference's. With Collectives the offsets are `collectiveOffsets` (RankCollectives'
// clockOffsets), or none (shared clock, reference -1) while they are not known.
RankOffsets rankOffsets(const std::vector<const Trace*>& traces, RankAlignment alignment,
                        const std::vector<TimeNs>& collectiveOffsets = {});

// What the status bar says about it: "shared clock (as recorded)", "aligned on each rank's first
// ProfilerStep", with the ranks left as recorded named from `labels`. (The widgets' QString
// alignmentNote and alignmentTag, widgets/text/alignment_text.h, wrap these two.)
std::string alignmentNoteText(const RankOffsets& offsets, RankAlignment alignment,
                              const std::vector<std::string>& labels);
// The same in a few words, for the ruler's corner: "shared clock", "aligned on first ProfilerStep".
std::string alignmentTagText(const RankOffsets& offsets, RankAlignment alignment);

}  // namespace sutra::view
