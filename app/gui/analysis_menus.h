// SPDX-License-Identifier: MIT
#pragma once
// The analysis menus of the main window: File > Compare..., File > Export > (Chakra traces,
// simulated timeline, table as CSV, chart as PNG/SVG/PDF), Analysis > Simulate, Analysis > Simulate
// with ASTRA-sim... (astra_sim_action.h), Analysis > Charts. Installed by one call, so the window's
// own code stays about exploring one trace. Analysis > Step Breakdown, Flame Graph, Critical Path
// and Memory open the views of issue 19, linked to the window's timeline.
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>

class QMainWindow;
class QProgressDialog;
class QWidget;

namespace sutra::widgets {
class TraceSession;
}

namespace sutra::gui {

// Adds the menus to `window`'s menu bar (into its File and View menus where they exist).
// `currentRank` says which loaded rank the simulation, the charts and the simulated export use.
void installAnalysisMenus(QMainWindow* window, widgets::TraceSession* session,
                          std::function<int()> currentRank = {});

// Opens a compare window for two or three trace files (File > Compare..., `sutra --compare A B
// [C]`); a null parent makes it a top-level window of its own.
QWidget* openCompareWindow(QWidget* parent, const QStringList& paths);
inline QWidget* openCompareWindow(QWidget* parent, const QString& pathA, const QString& pathB) {
  return openCompareWindow(parent, QStringList{pathA, pathB});
}

// Shows `content` as a window of its own over `parent` (deleted on close), as every analysis view
// opens.
QWidget* showAnalysisWindow(QWidget* parent, QWidget* content, const QString& title);

// A window-modal progress dialog for work on a worker thread (Chakra export, ASTRA-sim): shown at
// once, kept until the caller deletes it; Cancel sets `canceled`, which the worker reads.
struct CancelableProgress {
  QProgressDialog* dialog = nullptr;
  std::shared_ptr<std::atomic<bool>> canceled;
};
CancelableProgress showCancelableProgress(QWidget* parent, const QString& label, int maximum,
                                          const char* objectName);

// Asks before replacing an existing file and refuses an input; true when writing may go on.
bool confirmExportTarget(QWidget* parent, const QString& target, const QStringList& inputs);

}  // namespace sutra::gui
