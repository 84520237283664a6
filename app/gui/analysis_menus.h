// SPDX-License-Identifier: MIT
#pragma once
// The analysis menus of the main window: File > Compare..., File > Export > (Chakra traces,
// simulated timeline, table as CSV, chart as PNG/SVG/PDF) and the Analysis menu, whose windows
// (Simulate, Advice, Charts, Step Breakdown, Flame Graph, ...) each register themselves in a file
// of their own (analysis_window.h). Installed by one call, so the window's own code stays about
// exploring one trace.
#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <memory>

class QMainWindow;
class QProgressDialog;
class QWidget;

namespace sutra::widgets {
class Navigation;
}  // namespace sutra::widgets

namespace sutra::gui {

class TraceSession;

// Adds the menus to `window`'s menu bar (into its File and View menus where they exist).
// `currentRank` says which loaded rank the exports and the analysis windows open on; the windows
// reach the timeline through `navigation`, the window's.
void installAnalysisMenus(QMainWindow* window, TraceSession* session,
                          widgets::Navigation* navigation, std::function<int()> currentRank = {});

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
