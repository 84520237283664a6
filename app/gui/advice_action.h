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
class TraceSession;
}

namespace sutra::gui {

// Adds the action to `analysis`; enabled once a run has loaded.
QAction* addAdviceAction(QMainWindow* window, QMenu* analysis, widgets::TraceSession* session);

}  // namespace sutra::gui
