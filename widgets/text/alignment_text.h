// SPDX-License-Identifier: MIT
#pragma once
// The all-ranks alignment (view/rank_alignment.h) as the GUI shows it: QString wrappers over
// view's alignmentNoteText and alignmentTagText.
#include <QString>
#include <vector>

#include "view/rank_alignment.h"

namespace sutra::widgets {

// What the status bar says about it: "shared clock (as recorded)", "aligned on each rank's first
// ProfilerStep", with the ranks left as recorded named from `labels`.
QString alignmentNote(const view::RankOffsets& offsets, view::RankAlignment alignment,
                      const std::vector<QString>& labels);
// The same in a few words, for the ruler's corner: "shared clock", "aligned on first ProfilerStep".
QString alignmentTag(const view::RankOffsets& offsets, view::RankAlignment alignment);

}  // namespace sutra::widgets
