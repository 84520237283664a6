// SPDX-License-Identifier: MIT
// Analysis > Memory: the rank's allocations over time per device; the peak's op is selected on the
// rank.
#include <QMainWindow>
#include <QObject>

#include "analysis/memory.h"
#include "analysis_menus.h"
#include "analysis_window.h"
#include "memory_view.h"
#include "trace_session.h"
#include "view_results.h"

namespace sutra::gui {
namespace {

void openMemory(const AnalysisContext& context) {
  const auto rank = context.rank();
  if (!rank) return;
  auto* view = new widgets::MemoryView;
  view->setObjectName("MemoryView");
  view->setNavigation(context.rankNavigation());
  showAnalysisWindow(context.window, view, QObject::tr("Memory of %1").arg(rank->label));
  context.results->request<MemoryReport>(
      rank, QStringLiteral("memory"), view, [rank] { return buildMemoryReport(*rank->run->trace); },
      [view, rank](const MemoryReport& report) { view->setReport(rank->run->trace, report); });
}

const RegisterAnalysisWindow registered(150, QT_TR_NOOP("&Memory"), "MemoryAction", openMemory);

}  // namespace
}  // namespace sutra::gui
