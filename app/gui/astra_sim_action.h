// SPDX-License-Identifier: MIT
#pragma once
// Analysis > Simulate with ASTRA-sim...: every rank of the loaded run exported to Chakra (with the
// configurations fitted to it) in a temporary folder, ASTRA-sim run on it and each rank's finish
// time shown beside measured and Sutra's replay (core's compareWithAstraSim, as `sutra-cli
// simulate --engine astra-sim` shows it). All of it off the GUI thread, behind a progress dialog
// with Cancel. Kept apart from analysis_menus.cpp: finding the binary and asking for it is its own
// small dialogue with the user.
#include <QString>

class QAction;
class QMainWindow;
class QMenu;

namespace sutra::gui {

class TraceSession;

// The QSettings key of the binary the user chose, used where $ASTRA_SIM and PATH have none.
inline constexpr const char* kAstraSimSettingsKey = "astraSim/binary";

// The ASTRA-sim binary to run: core's findAstraSimBinary() ($ASTRA_SIM, else PATH), else the one
// chosen before (QSettings). Empty, with `whyNot` set to what core says and how to fix it, when
// there is none.
QString findAstraSimForGui(QString* whyNot = nullptr);

// Adds the action to `analysis`. It is enabled once a run has loaded; where ASTRA-sim is not found
// it still runs, to explain and offer "Choose binary..." (its tooltip says so), so that it never
// silently does nothing.
QAction* addAstraSimAction(QMainWindow* window, QMenu* analysis, TraceSession* session);

}  // namespace sutra::gui
