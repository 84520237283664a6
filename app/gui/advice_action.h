// SPDX-License-Identifier: MIT
#pragma once
// Analysis > Advice (it registers itself, analysis_window.h): core's adviseRun on the loaded run,
// off the GUI thread, shown as a list (widgets/advice_view.h). Choosing a finding selects its
// evidence on its own rank through the window's navigation, whichever rank the timeline shows, and
// replays the run with its fix under the measured one.
class QMainWindow;

namespace sutra::widgets {
class AdviceView;
}  // namespace sutra::widgets

namespace sutra::gui {

// Analysis > Advice on the window's loaded run, choosing its top finding once the advice comes
// (sutra --advice); its view, whose settled() says when the finding's projection is shown. Null
// where the window has no run loaded.
widgets::AdviceView* openAdviceOnTopFinding(QMainWindow* window);

}  // namespace sutra::gui
