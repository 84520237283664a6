// SPDX-License-Identifier: MIT
// Analysis > Charts: the rank's operator table drawn (charts_view.h). The charts' data is computed
// here, off the GUI thread and kept with the rank's other results (view_results.h); the view only
// draws it.
#include <QMainWindow>
#include <QMessageBox>
#include <QObject>

#include "analysis_menus.h"
#include "analysis_window.h"
#include "charts_view.h"
#include "trace_session.h"
#include "view_results.h"

namespace sutra::gui {
namespace {

widgets::ChartsData chartsData(const Trace& trace, const OpTable& table) {
  return {view::deviceUtilisation(trace, 200), view::kernelDurationHistogram(trace),
          view::topOperatorsByDeviceTime(table, 15)};
}

void openCharts(const AnalysisContext& context) {
  const auto rank = context.rank();
  if (!rank) return;
  if (!rank->run->has(RunStage::Analyse)) {
    QMessageBox::information(context.window, QObject::tr("Charts"),
                             QObject::tr("The traces are still loading; try again when done."));
    return;
  }
  auto* charts = new widgets::ChartsView;
  showAnalysisWindow(context.window, charts, QObject::tr("Charts of %1").arg(rank->label));
  context.results->request<widgets::ChartsData>(
      rank, QStringLiteral("charts"), charts,
      [trace = rank->run->trace, table = rank->run->opTable()] {
        return chartsData(*trace, *table);
      },
      [charts](const widgets::ChartsData& data) { charts->showCharts(data); });
}

const RegisterAnalysisWindow registered(40, QT_TR_NOOP("&Charts"), "ChartsAction", openCharts);

}  // namespace
}  // namespace sutra::gui
