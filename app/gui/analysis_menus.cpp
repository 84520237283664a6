// SPDX-License-Identifier: MIT
#include "analysis_menus.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressDialog>
#include <QTableView>
#include <QtConcurrent>
#include <atomic>

#include "analysis_window.h"
#include "chakra/convert_files.h"
#include "charts_view.h"
#include "compare_runner.h"
#include "compare_view.h"
#include "io/kineto_writer.h"
#include "run_naming.h"
#include "session/rank_exports.h"
#include "simulation_view.h"
#include "table_export.h"
#include "trace_actions.h"
#include "trace_session.h"
#include "view_results.h"

namespace sutra::gui {
namespace {

QMenu* findExistingMenu(QMainWindow* window, const QString& title) {
  for (QAction* action : window->menuBar()->actions())
    if (action->menu() && action->text().remove('&') == title) return action->menu();
  return nullptr;
}

QMenu* findMenu(QMainWindow* window, const QString& title) {
  if (QMenu* menu = findExistingMenu(window, title)) return menu;
  return window->menuBar()->addMenu('&' + title);
}

// The menu's last action (File's Quit), to insert before; null (append) for an empty menu.
QAction* lastAction(QMenu* menu) {
  const auto actions = menu->actions();
  return actions.isEmpty() ? nullptr : actions.back();
}

QStringList loadedInputs(TraceSession* session) {
  QStringList inputs = session->paths();
  for (const auto& rank : session->ranks()) inputs << rank->path;
  return inputs;
}

std::shared_ptr<const widgets::RankData> currentRankData(TraceSession* session,
                                                         const std::function<int()>& currentRank) {
  const auto& ranks = session->ranks();
  if (ranks.empty()) return nullptr;
  const int index = currentRank ? currentRank() : 0;
  return ranks[std::size_t(index >= 0 && std::size_t(index) < ranks.size() ? index : 0)];
}

// The table to export: the focused one, else the first table of the active window.
QAbstractItemView* tableToExport(QMainWindow* window) {
  if (auto* view = qobject_cast<QAbstractItemView*>(QApplication::focusWidget())) return view;
  QWidget* active = QApplication::activeWindow() ? QApplication::activeWindow() : window;
  return active->findChild<QTableView*>();
}

widgets::ChartView* chartToExport(QMainWindow* window) {
  QWidget* active = QApplication::activeWindow() ? QApplication::activeWindow() : window;
  if (auto* charts = active->findChild<widgets::ChartsView*>()) return charts->currentChart();
  return active->findChild<widgets::ChartView*>();
}

// The simulation to export for `trace`: the one the active window shows, else the newest open
// simulation window of that trace (what-if knobs included), else none.
const widgets::SimulationResult* shownSimulation(QMainWindow* window, const Trace* trace) {
  auto ofTrace = [trace](const widgets::SimulationView* view) -> const widgets::SimulationResult* {
    const widgets::SimulationResult* result = view ? view->result() : nullptr;
    return result && result->graph && result->trace.get() == trace ? result : nullptr;
  };
  if (QWidget* active = QApplication::activeWindow())
    if (const auto* result = ofTrace(qobject_cast<widgets::SimulationView*>(active))) return result;
  const auto views = window->findChildren<widgets::SimulationView*>();
  for (auto it = views.rbegin(); it != views.rend(); ++it)
    if (const auto* result = ofTrace(*it)) return result;
  return nullptr;
}

std::vector<std::string> protectedInputs(TraceSession* session) {
  std::vector<std::string> out;
  for (const QString& p : loadedInputs(session)) out.push_back(p.toStdString());
  for (const auto& rank : session->ranks())
    if (!rank->etPath.isEmpty()) out.push_back(rank->etPath.toStdString());
  return out;
}

// The name proposed for an export of the run: "<run>.<what>", "<run>.rank1.<what>" where the run
// has several ranks and `rank` is one of them.
QString proposedName(TraceSession* session, const widgets::RankData* rank, const QString& what) {
  QString name = runStem(session->paths());
  if (name.isEmpty()) name = QStringLiteral("sutra");
  if (rank && session->ranks().size() > 1) name += '.' + rank->label;
  return name + '.' + what;
}

// Where a save dialog starts: in the run's folder, on the proposed name.
QString startPath(TraceSession* session, const QString& proposed) {
  const QString folder = runFolder(session->paths());
  return folder.isEmpty() ? proposed : QDir(folder).filePath(proposed);
}

// A file to write: asked for (from the run's folder, `proposed` filled in), refused when it is an
// input, confirmed when it exists.
QString askTarget(QMainWindow* window, TraceSession* session, const QString& title,
                  const QString& filter, const QString& proposed) {
  const QString path =
      QFileDialog::getSaveFileName(window, title, startPath(session, proposed), filter, nullptr,
                                   QFileDialog::DontConfirmOverwrite);
  if (path.isEmpty() || !confirmExportTarget(window, path, loadedInputs(session))) return {};
  return path;
}

// Runs `job` off the GUI thread behind a busy progress dialog, then says what it wrote or why not.
void runExport(QMainWindow* window, const QString& label, const QString& path,
               std::function<Status()> job) {
  auto* progress = new QProgressDialog(label, QString(), 0, 0, window);
  progress->setWindowModality(Qt::WindowModal);
  progress->setMinimumDuration(300);
  auto* watcher = new QFutureWatcher<Status>(window);
  QObject::connect(
      watcher, &QFutureWatcher<Status>::finished, window, [window, watcher, progress, path] {
        progress->deleteLater();
        const Status status = watcher->result();
        watcher->deleteLater();
        auto* box = status.ok() ? new QMessageBox(QMessageBox::Information, QObject::tr("Export"),
                                                  QObject::tr("Wrote %1").arg(path),
                                                  QMessageBox::Ok, window)
                                : new QMessageBox(QMessageBox::Critical, QObject::tr("Export"),
                                                  QString::fromStdString(status.error().message),
                                                  QMessageBox::Ok, window);
        box->setObjectName("ExportResult");
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
      });
  watcher->setFuture(QtConcurrent::run(std::move(job)));
}

// File > Export > Chakra trace(s): one .et per rank, linked with the rank's execution trace where
// the directory has one; a progress bar per rank and stage with Cancel; then a summary of what was
// written and the problems.
void exportChakra(QMainWindow* window, TraceSession* session) {
  if (session->ranks().empty()) return;
  const QString dir = QFileDialog::getExistingDirectory(
      window, QObject::tr("Export Chakra traces (one .et per rank) into folder"),
      runFolder(session->paths()));
  if (dir.isEmpty()) return;
  // What the session built: each rank's ET read and linked already where it has one.
  std::vector<chakra::RankExportInput> inputs;
  for (const auto& rank : session->ranks())
    inputs.push_back({rank->rank, rank->run->trace, rank->run->et(), rank->etPath.toStdString(),
                      rank->run->linked()});
  const QString stem =
      QString::fromStdString(chakra::chakraStemFor(session->ranks().front()->path.toStdString()));
  for (const auto& in : inputs) {
    const QString target =
        QString::fromStdString(chakra::rankFileName((dir + '/' + stem).toStdString(), in.rank));
    if (!confirmExportTarget(window, target, loadedInputs(session))) return;
  }
  const std::vector<std::string> protectedPaths = protectedInputs(session);
  const int steps = int(inputs.size()) * chakra::kExportStages;
  const CancelableProgress shownProgress = showCancelableProgress(
      window, QObject::tr("Writing Chakra traces..."), steps, "ChakraExportProgress");
  QProgressDialog* progress = shownProgress.dialog;
  const auto canceled = shownProgress.canceled;
  const QPointer<QProgressDialog> shown(progress);
  std::vector<int> rankNumbers;
  for (const auto& in : inputs) rankNumbers.push_back(in.rank);
  auto onProgress = [window, shown, canceled, rankNumbers](int index, int count,
                                                           chakra::ExportStage stage) {
    QMetaObject::invokeMethod(
        window,
        [shown, index, count, stage, rankNumbers] {
          if (!shown) return;
          shown->setValue(std::min(shown->maximum(), index * chakra::kExportStages + int(stage)));
          if (stage != chakra::ExportStage::Done)
            shown->setLabelText(QObject::tr("Rank %1 (%2 of %3): %4")
                                    .arg(rankNumbers[std::size_t(index)])
                                    .arg(index + 1)
                                    .arg(count)
                                    .arg(QString::fromStdString(chakra::exportStageName(stage))));
        },
        Qt::QueuedConnection);
    return !canceled->load();
  };
  auto* watcher = new QFutureWatcher<chakra::ChakraExportSummary>(window);
  QObject::connect(
      watcher, &QFutureWatcher<chakra::ChakraExportSummary>::finished, window,
      [window, watcher, progress] {
        progress->deleteLater();
        const chakra::ChakraExportSummary summary = watcher->result();
        watcher->deleteLater();
        const bool clean = summary.written() == summary.ranks.size() && summary.problemCount() == 0;
        const QString text = QString::fromStdString(summary.text());
        QStringList lines = text.split('\n', Qt::SkipEmptyParts);
        QStringList head;
        for (const QString& line : lines)
          if (!line.startsWith(QStringLiteral("  "))) head << line;
        auto* box =
            new QMessageBox(clean ? QMessageBox::Information : QMessageBox::Warning,
                            QObject::tr("Chakra export"), head.join('\n'), QMessageBox::Ok, window);
        box->setObjectName("ChakraExportSummary");
        if (summary.problemCount() > 0) {
          box->setInformativeText(
              QObject::tr("%1 kind(s) of problem: see the details.").arg(summary.problemCount()));
          box->setDetailedText(text);
        }
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
      });
  chakra::ChakraWriteOptions write;
  write.protectedPaths = protectedPaths;
  const std::string prefix = (dir + '/' + stem).toStdString();
  watcher->setFuture(QtConcurrent::run([inputs, prefix, write, onProgress] {
    return chakra::exportChakraTraces(inputs, prefix, write, onProgress);
  }));
}

}  // namespace

QWidget* showAnalysisWindow(QWidget* parent, QWidget* content, const QString& title) {
  if (parent) content->setParent(parent, Qt::Window);
  content->setAttribute(Qt::WA_DeleteOnClose);
  content->setWindowTitle(title);
  content->resize(1200, 800);
  content->show();
  return content;
}

CancelableProgress showCancelableProgress(QWidget* parent, const QString& label, int maximum,
                                          const char* objectName) {
  auto* dialog = new QProgressDialog(label, QObject::tr("Cancel"), 0, maximum, parent);
  dialog->setObjectName(objectName);
  dialog->setWindowModality(Qt::WindowModal);
  dialog->setMinimumDuration(0);
  dialog->setAutoClose(false);
  dialog->setAutoReset(false);
  dialog->setValue(0);
  auto canceled = std::make_shared<std::atomic<bool>>(false);
  QObject::connect(dialog, &QProgressDialog::canceled, dialog, [canceled] { *canceled = true; });
  return {dialog, canceled};
}

bool confirmExportTarget(QWidget* parent, const QString& target, const QStringList& inputs) {
  switch (widgets::checkExportTarget(target, inputs)) {
    case widgets::ExportTarget::New:
      return true;
    case widgets::ExportTarget::IsInput:
      QMessageBox::warning(parent, QObject::tr("Export"),
                           QObject::tr("%1 is a loaded input; choose another file.").arg(target));
      return false;
    case widgets::ExportTarget::Exists:
      return QMessageBox::question(parent, QObject::tr("Export"),
                                   QObject::tr("%1 exists. Replace it?").arg(target)) ==
             QMessageBox::Yes;
  }
  return false;
}

QWidget* openCompareWindow(QWidget* parent, const QStringList& paths) {
  auto* view = new widgets::CompareView;
  QObject::connect(view, &widgets::CompareView::failed, view, [view](const QString& message) {
    // Window-modal and non-blocking, so a script (sutra --compare --screenshot) can go on.
    auto* box = new QMessageBox(QMessageBox::Critical, QObject::tr("Compare"), message,
                                QMessageBox::Ok, view);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
  });
  (new CompareRunner(view))->compare(paths);  // read and compared on a worker
  QStringList names;
  for (const QString& path : paths) names << QFileInfo(path).fileName();
  return showAnalysisWindow(parent, view,
                            QObject::tr("Compare %1").arg(names.join(QStringLiteral(", "))));
}

void installAnalysisMenus(QMainWindow* window, TraceSession* session,
                          widgets::Navigation* navigation, std::function<int()> currentRank) {
  QMenu* file = findMenu(window, QObject::tr("File"));

  auto* compare = new QAction(QObject::tr("&Compare..."), window);
  QObject::connect(compare, &QAction::triggered, window, [window] {
    const QStringList paths = QFileDialog::getOpenFileNames(
        window,
        QObject::tr("Compare traces (choose two or three files; the first is the baseline)"),
        QString(), QObject::tr("Kineto traces (*.json *.json.gz *.pt.trace.json);;All files (*)"));
    if (paths.size() < 2 || paths.size() > 3) {
      if (!paths.isEmpty())
        QMessageBox::information(window, QObject::tr("Compare"),
                                 QObject::tr("Choose two or three trace files."));
      return;
    }
    openCompareWindow(window, paths);
  });
  QAction* quit = lastAction(file);
  file->insertAction(quit, compare);
  QMenu* exportMenu = new QMenu(QObject::tr("&Export"), window);
  file->insertMenu(quit, exportMenu);
  if (quit) file->insertSeparator(quit);

  exportMenu->addAction(QObject::tr("&Chakra trace(s)..."), window,
                        [window, session] { exportChakra(window, session); });
  enableWithTrace(exportMenu->actions().back(), session);

  exportMenu->addAction(QObject::tr("&Linked ET+ JSON..."), window, [window, session, currentRank] {
    const auto rank = currentRankData(session, currentRank);
    if (!rank) return;
    const QString path = askTarget(
        window, session, QObject::tr("Export the linked trace (ET+) of %1").arg(rank->label),
        QObject::tr("ET+ JSON (*.json);;gzipped (*.json.gz)"),
        proposedName(session, rank.get(), QStringLiteral("et+.json")));
    if (path.isEmpty()) return;
    const auto run = rank->run;
    const auto inputs = protectedInputs(session);
    const QString with = rank->etPath.isEmpty()
                             ? QObject::tr("the Kineto trace alone (no execution trace found)")
                             : QFileInfo(rank->etPath).fileName();
    runExport(window, QObject::tr("Linking %1 with %2...").arg(rank->label, with), path,
              [run, path, inputs] { return writeRankEtPlus(*run, path.toStdString(), inputs); });
  });
  enableWithTrace(exportMenu->actions().back(), session);

  exportMenu->addAction(
      QObject::tr("&Measured timeline (Chrome/Perfetto JSON)..."), window,
      [window, session, currentRank] {
        const auto rank = currentRankData(session, currentRank);
        if (!rank) return;
        const QString path = askTarget(
            window, session, QObject::tr("Export the measured timeline of %1").arg(rank->label),
            QObject::tr("Chrome trace (*.json);;gzipped (*.json.gz)"),
            proposedName(session, rank.get(), QStringLiteral("measured.json")));
        if (path.isEmpty()) return;
        const auto trace = rank->run->trace;
        const auto inputs = protectedInputs(session);
        runExport(window, QObject::tr("Writing the timeline of %1...").arg(rank->label), path,
                  [trace, path, inputs] {
                    KinetoWriteOptions options;
                    options.protectedPaths = inputs;
                    return writeKinetoTrace(*trace, path.toStdString(), options);
                  });
      });
  enableWithTrace(exportMenu->actions().back(), session);

  exportMenu->addAction(
      QObject::tr("&Simulated timeline (Chrome/Perfetto JSON)..."), window,
      [window, session, currentRank] {
        const auto rank = currentRankData(session, currentRank);
        if (!rank) return;
        const QString path = askTarget(
            window, session, QObject::tr("Export the simulated timeline of %1").arg(rank->label),
            QObject::tr("Chrome trace (*.json);;gzipped (*.json.gz)"),
            proposedName(session, rank.get(), QStringLiteral("simulated.json")));
        if (path.isEmpty()) return;
        // What the simulation window shows (what-if included) where one is open, else a plain
        // replay.
        if (const auto* shown = shownSimulation(window, rank->run->trace.get())) {
          const auto graph = shown->graph;
          const SimRun run = shown->variant ? *shown->variant : shown->baseline;
          const int rankNumber = rank->rank;
          const QString what = shown->variant ? QObject::tr("the what-if simulation")
                                              : QObject::tr("the simulation");
          runExport(window, QObject::tr("Writing %1 of %2...").arg(what, rank->label), path,
                    [graph, run, rankNumber, path] {
                      return writeSimulatedRank(*graph, run, rankNumber, path.toStdString());
                    });
          return;
        }
        const auto run = session->run();
        if (!run) {
          QMessageBox::information(
              window, QObject::tr("Export"),
              QObject::tr("The traces are still loading; try again when done."));
          return;
        }
        const int index = currentRank ? std::max(0, currentRank()) : 0;
        runExport(
            window, QObject::tr("Simulating %1...").arg(rank->label), path,
            [run, index, path] { return writeSimulatedRank(*run, index, path.toStdString()); });
      });
  enableWithTrace(exportMenu->actions().back(), session);

  exportMenu->addAction(QObject::tr("Table as C&SV..."), window, [window, session] {
    QAbstractItemView* table = tableToExport(window);
    if (!table || !table->model()) {
      QMessageBox::information(window, QObject::tr("Export"),
                               QObject::tr("Click into a table first."));
      return;
    }
    const QString path = QFileDialog::getSaveFileName(
        window, QObject::tr("Export the table as CSV"),
        startPath(session, proposedName(session, nullptr, QStringLiteral("table.csv"))),
        QObject::tr("CSV (*.csv)"), nullptr, QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty() || !confirmExportTarget(window, path, loadedInputs(session))) return;
    QString error;
    if (!widgets::writeModelCsv(*table->model(), path, &error))
      QMessageBox::critical(window, QObject::tr("Export"), error);
  });

  exportMenu->addAction(QObject::tr("C&hart (PNG, SVG, PDF)..."), window, [window, session] {
    widgets::ChartView* chart = chartToExport(window);
    if (!chart) {
      QMessageBox::information(
          window, QObject::tr("Export"),
          QObject::tr("Open View > Charts, Simulation or a comparison first."));
      return;
    }
    const QString path = QFileDialog::getSaveFileName(
        window, QObject::tr("Export the chart as PNG, SVG or PDF"),
        startPath(session, proposedName(session, nullptr, QStringLiteral("chart.png"))),
        QObject::tr("PNG (*.png);;SVG (*.svg);;PDF (*.pdf)"), nullptr,
        QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty() || !confirmExportTarget(window, path, loadedInputs(session))) return;
    QString error;
    if (!chart->save(path, &error)) QMessageBox::critical(window, QObject::tr("Export"), error);
  });

  QMenu* analysis = findMenu(window, QObject::tr("Analysis"));
  // Between View and Help, where a menu bar's analysis menu is looked for.
  if (QMenu* help = findExistingMenu(window, QObject::tr("Help")))
    window->menuBar()->insertMenu(help->menuAction(), analysis);
  // Each window registers itself (analysis_window.h); they open on the rank the tables follow and
  // reach the timeline through the window's navigation. Their results are kept (view_results.h).
  auto* results = new ViewResults(window);
  results->setObjectName("ViewResults");
  installAnalysisWindows(analysis, {window, session, navigation, results, std::move(currentRank)});
}

}  // namespace sutra::gui
