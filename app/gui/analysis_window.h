// SPDX-License-Identifier: MIT
#pragma once
// The windows of the Analysis menu. Each lives in a file of its own, <name>_action.cpp, and
// registers itself here (as the CLI's subcommands do, app/cli/command.h), so that adding one
// touches no shared list: its view in widgets/, its action in app/gui/. A view gets the window's
// navigation on the rank it opens on (widgets/navigation.h) and never looks for the timeline.
#include <QString>
#include <functional>
#include <memory>
#include <vector>

#include "model/time.h"
#include "navigation.h"

class QAction;
class QMainWindow;
class QMenu;

namespace sutra::widgets {
struct RankData;
}  // namespace sutra::widgets

namespace sutra::gui {

class TraceSession;
class ViewResults;

// What an analysis window opens on: the main window, its loaded run and its navigation.
struct AnalysisContext {
  QMainWindow* window = nullptr;
  TraceSession* session = nullptr;
  widgets::Navigation* navigation = nullptr;
  ViewResults* results = nullptr;  // the views' results, computed off the GUI thread and kept
  std::function<int()> currentRank;

  // The rank the window's tables follow (its index in the run), 0 where that is none.
  int rankIndex() const;
  std::shared_ptr<const widgets::RankData> rank() const;  // null where nothing is loaded
  // The same where it has finished its analysis stage (steps, launches, syncs); else null, having
  // told the user, under `title`, that the traces are still loading.
  std::shared_ptr<const widgets::RankData> analysedRank(const QString& title) const;
  // Where a view of rank rankIndex() sends its clicks, from now on.
  widgets::RankNavigation rankNavigation() const;
};

struct AnalysisWindow {
  int order;  // its place in the Analysis menu; a separator between the hundreds
  // Adds its action to `menu`, enabling it as it needs (addAnalysisAction for the usual case).
  std::function<void(QMenu* menu, const AnalysisContext& context)> install;
};

std::vector<AnalysisWindow>& analysisWindows();

struct RegisterAnalysisWindow {
  explicit RegisterAnalysisWindow(AnalysisWindow window);
  // The usual window: `text` in the menu (marked QT_TR_NOOP, translated as the menu is built),
  // objectName `name`, enabled while a trace is loaded, calling `open`.
  RegisterAnalysisWindow(int order, const char* text, const char* name,
                         std::function<void(const AnalysisContext&)> open);
};

// The usual window's action (what the second constructor above registers).
QAction* addAnalysisAction(QMenu* menu, const AnalysisContext& context, const QString& text,
                           const QString& name, std::function<void(const AnalysisContext&)> open);

// Adds every registered window's action to `menu`, in order.
void installAnalysisWindows(QMenu* menu, const AnalysisContext& context);

// The range chosen on the timeline's ruler in the rank's own times, else its whole trace: what the
// flame graph and the call tree show.
TimeWindow selectedWindow(const Trace& trace, const widgets::RankNavigation& navigation);

}  // namespace sutra::gui
