// SPDX-License-Identifier: MIT
// Analysis > Charts: the rank's operator table drawn (charts_view.h).
#include <QMainWindow>
#include <QMessageBox>
#include <QObject>

#include "analysis_menus.h"
#include "analysis_window.h"
#include "charts_view.h"
#include "trace_session.h"

namespace sutra::gui {
namespace {

void openCharts(const AnalysisContext& context) {
  const auto rank = context.rank();
  if (!rank) return;
  if (!rank->run->has(RunStage::Analyse)) {
    QMessageBox::information(context.window, QObject::tr("Charts"),
                             QObject::tr("The traces are still loading; try again when done."));
    return;
  }
  auto* charts = new widgets::ChartsView;
  charts->setRank(rank->run->trace, rank->run->opTable());
  showAnalysisWindow(context.window, charts, QObject::tr("Charts of %1").arg(rank->label));
}

const RegisterAnalysisWindow registered(40, QT_TR_NOOP("&Charts"), "ChartsAction", openCharts);

}  // namespace
}  // namespace sutra::gui
