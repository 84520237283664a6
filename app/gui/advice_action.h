// SPDX-License-Identifier: MIT
#pragma once
// Analysis > Advice: core's adviseRun on the loaded run, off the GUI thread, shown as a list
// (widgets/advice_view.h). Choosing a finding shows its evidence on the window's timeline (on its
// rank's part where all ranks are shown) and the run replayed with its fix under the measured one.
#include <functional>

class QAction;
class QMainWindow;
class QMenu;

namespace sutra::widgets {
class AdviceView;
class TraceSession;
}  // namespace sutra::widgets

namespace sutra::gui {

// Adds the action to `analysis`; enabled once a run has loaded.
QAction* addAdviceAction(QMainWindow* window, QMenu* analysis, widgets::TraceSession* session);

// Analysis > Advice on the window's loaded run, choosing its top finding once the advice comes
// (sutra --advice); its view, whose settled() says when the finding's projection is shown. Null
// where the window has no run loaded.
widgets::AdviceView* openAdviceOnTopFinding(QMainWindow* window);

}  // namespace sutra::gui
