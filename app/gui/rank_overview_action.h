// SPDX-License-Identifier: MIT
#pragma once
// File > Rank Overview...: the overview of a job's ranks (core's loadRankOverview, as `sutra-cli
// ranks` prints it) read off the GUI thread behind a progress dialog (a step per rank) with
// Cancel, then shown in a window of its own (widgets/rank_overview_view.h). Clicking a rank, or
// opening the table's selected ranks, opens those ranks' traces in the main window's timeline
// (all-ranks view for several), so a job of hundreds of ranks is looked at whole first, then a few
// ranks at a time.
#include <QStringList>
#include <functional>

class QWidget;

namespace sutra::gui {

// Reads the overview of `paths` (folders, traces, saved summaries) and shows it over `parent`;
// `openPaths` opens the trace files of the ranks the user picks. Errors show in a dialog.
void showRankOverview(QWidget* parent, const QStringList& paths,
                      std::function<void(const QStringList&)> openPaths);

}  // namespace sutra::gui
