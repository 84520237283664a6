// SPDX-License-Identifier: MIT
// Analysis > Simulate: the whole run replayed as `sutra-cli simulate` replays it (ETs linked, ranks
// coupled), the rank the window follows shown.
#include <QMainWindow>
#include <QMessageBox>
#include <QObject>

#include "analysis_menus.h"
#include "analysis_window.h"
#include "simulation_runner.h"
#include "simulation_view.h"
#include "trace_session.h"

namespace sutra::gui {
namespace {

void openSimulation(const AnalysisContext& context) {
  const auto rank = context.rank();
  if (!rank) return;
  const auto run = context.session->run();
  if (!run) {
    QMessageBox::information(context.window, QObject::tr("Simulation"),
                             QObject::tr("The traces are still loading; try again when done."));
    return;
  }
  auto* sim = new widgets::SimulationView;
  QObject::connect(sim, &widgets::SimulationView::failed, sim, [sim](const QString& message) {
    QMessageBox::critical(sim, QObject::tr("Simulation"), message);
  });
  new SimulationRunner(sim);  // simulates on a worker what the view asks
  sim->simulate(run, context.rankIndex());
  showAnalysisWindow(context.window, sim, QObject::tr("Simulation of %1").arg(rank->label));
}

const RegisterAnalysisWindow registered(10, QT_TR_NOOP("&Simulate"), "SimulateAction",
                                        openSimulation);

}  // namespace
}  // namespace sutra::gui
