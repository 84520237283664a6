// SPDX-License-Identifier: MIT
#pragma once
// Actions that work on the loaded trace (exports, simulation, charts, the timeline's fits) are
// disabled while nothing is loaded, their tooltip saying why, instead of doing nothing when chosen.
class QAction;

namespace sutra::gui {

class TraceSession;

// The tooltip of such an action while no trace is loaded.
inline constexpr const char* kNeedsTraceTip = "Open a trace first";

// Enables `action` while `session` holds a trace, and keeps it so as traces come and go.
void enableWithTrace(QAction* action, TraceSession* session);

}  // namespace sutra::gui
