// SPDX-License-Identifier: MIT
#include "astra_sim_action.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QPushButton>
#include <QSettings>
#include <QTemporaryDir>
#include <QtConcurrent>
#include <atomic>
#include <memory>

#include "analysis_menus.h"
#include "analysis_window.h"
#include "astra_sim_results_view.h"
#include "chakra/convert_files.h"
#include "session/astra_sim_comparison.h"
#include "session_updates.h"
#include "trace_session.h"

namespace sutra::gui {
namespace {

// What the worker hands back: the comparison, or why there is none (empty when cancelled).
struct AstraSimOutcome {
  bool canceled = false;
  std::string error;
  AstraSimComparison comparison;
};

bool isExecutableFile(const QString& path) {
  const QFileInfo info(path);
  return info.isFile() && info.isExecutable();
}

// The export's errors as one message: the ranks that failed, or the configurations not written.
std::string exportErrors(const chakra::ChakraExportSummary& summary) {
  std::string out;
  for (const auto& rank : summary.ranks)
    if (!rank.error.empty())
      out += (out.empty() ? "" : "\n") + ("rank " + std::to_string(rank.rank) + ": " + rank.error);
  if (!summary.astraSimError.empty())
    out += (out.empty() ? "" : "\n") + ("ASTRA-sim's configurations: " + summary.astraSimError);
  return out;
}

// Not found: says what core said and offers a file chooser; the chosen binary is remembered.
// Returns the binary to run, or empty when the user gave up.
QString askForAstraSim(QMainWindow* window, const QString& whyNot) {
  QMessageBox box(QMessageBox::Information, QObject::tr("Simulate with ASTRA-sim"),
                  QObject::tr("ASTRA-sim was not found."), QMessageBox::Cancel, window);
  box.setObjectName("AstraSimNotFound");
  box.setInformativeText(whyNot +
                         QObject::tr("\n\nOr choose the binary (%1) here; Sutra remembers it.")
                             .arg(QString::fromUtf8(kAstraSimBinaryName)));
  QPushButton* choose = box.addButton(QObject::tr("Choose binary..."), QMessageBox::AcceptRole);
  box.setDefaultButton(choose);
  box.exec();
  if (box.clickedButton() != choose) return {};
  const QString path = QFileDialog::getOpenFileName(
      window, QObject::tr("Choose ASTRA-sim's binary (%1)").arg(kAstraSimBinaryName));
  if (path.isEmpty()) return {};
  if (!isExecutableFile(path)) {
    QMessageBox::warning(window, QObject::tr("Simulate with ASTRA-sim"),
                         QObject::tr("%1 is not an executable file.").arg(path));
    return {};
  }
  QSettings().setValue(kAstraSimSettingsKey, path);
  return path;
}

void showError(QMainWindow* window, const QString& message) {
  auto* box = new QMessageBox(QMessageBox::Critical, QObject::tr("Simulate with ASTRA-sim"),
                              message, QMessageBox::Ok, window);
  box->setObjectName("AstraSimError");
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();  // window-modal, not blocking: the tests and a script go on
}

void simulateWithAstraSim(QMainWindow* window, TraceSession* session) {
  if (session->ranks().empty() || !session->run()) {
    QMessageBox::information(window, QObject::tr("Simulate with ASTRA-sim"),
                             QObject::tr("Open a trace and wait for it to load first."));
    return;
  }
  QString whyNot;
  QString binary = findAstraSimForGui(&whyNot);
  if (binary.isEmpty()) binary = askForAstraSim(window, whyNot);
  if (binary.isEmpty()) return;

  // What the session built, as File > Export > Chakra trace(s) exports it.
  std::vector<chakra::RankExportInput> inputs;
  for (const auto& rank : session->ranks())
    inputs.push_back({rank->rank, rank->run->trace, rank->run->et(), rank->etPath.toStdString(),
                      rank->run->linked()});
  auto folder = std::make_shared<QTemporaryDir>();
  if (!folder->isValid()) {
    showError(window,
              QObject::tr("Cannot create a temporary folder: %1").arg(folder->errorString()));
    return;
  }
  const std::string prefix =
      (folder->path() + '/' +
       QString::fromStdString(chakra::chakraStemFor(session->ranks().front()->path.toStdString())))
          .toStdString();
  const QString title =
      QObject::tr("ASTRA-sim on %1").arg(QFileInfo(session->ranks().front()->path).dir().dirName());

  // Every rank's export stages, then one step for Sutra's replay and ASTRA-sim.
  const int exportSteps = int(inputs.size()) * chakra::kExportStages;
  const CancelableProgress shownProgress = showCancelableProgress(
      window, QObject::tr("Exporting the run to Chakra..."), exportSteps + 1, "AstraSimProgress");
  QProgressDialog* progress = shownProgress.dialog;
  const auto canceled = shownProgress.canceled;
  const QPointer<QProgressDialog> shown(progress);
  auto tell = [window, shown](int value, const QString& label) {
    QMetaObject::invokeMethod(
        window,
        [shown, value, label] {
          if (!shown) return;
          shown->setValue(std::min(shown->maximum(), value));
          shown->setLabelText(label);
        },
        Qt::QueuedConnection);
  };
  auto onExport = [tell, canceled](int index, int count, chakra::ExportStage stage) {
    tell(index * chakra::kExportStages + int(stage),
         QObject::tr("Exporting rank %1 of %2 to Chakra: %3")
             .arg(index + 1)
             .arg(count)
             .arg(QString::fromStdString(chakra::exportStageName(stage))));
    return !canceled->load();
  };

  auto* watcher = new QFutureWatcher<AstraSimOutcome>(window);
  QObject::connect(watcher, &QFutureWatcher<AstraSimOutcome>::finished, window,
                   [window, watcher, progress, title] {
                     progress->deleteLater();
                     const AstraSimOutcome outcome = watcher->result();
                     watcher->deleteLater();
                     if (outcome.canceled) return;
                     if (!outcome.error.empty()) {
                       showError(window, QString::fromStdString(outcome.error));
                       return;
                     }
                     auto* view = new widgets::AstraSimResultsView;
                     view->setResults(outcome.comparison);
                     showAnalysisWindow(window, view, title)->resize(900, 360);
                   });
  const std::string binaryPath = binary.toStdString();
  watcher->setFuture(QtConcurrent::run(
      [inputs, prefix, folder, binaryPath, onExport, tell, canceled, exportSteps] {
        AstraSimOutcome out;
        // The graphs laid out as ASTRA-sim runs them (one host, compute and comm timeline).
        chakra::ConvertOptions convert;
        convert.astraSimTimelines = true;
        const chakra::ChakraExportSummary summary =
            chakra::exportChakraTraces(inputs, prefix, {}, onExport, convert);
        if (summary.canceled || canceled->load()) {
          out.canceled = true;
          return out;
        }
        if (const std::string errors = exportErrors(summary); !errors.empty()) {
          out.error = "The Chakra export for ASTRA-sim failed:\n" + errors;
          return out;
        }
        auto found = astraSimInputsForExport(prefix);
        if (!found) {
          out.error = found.error().message;
          return out;
        }
        tell(exportSteps, QObject::tr("Replaying in Sutra, then running %1...")
                              .arg(QFileInfo(QString::fromStdString(binaryPath)).fileName()));
        AstraSimRunOptions run;
        run.keepGoing = [canceled] { return !canceled->load(); };
        auto compared = compareWithAstraSim(binaryPath, *found, {}, run);
        if (canceled->load()) {
          out.canceled = true;
        } else if (!compared) {
          out.error = compared.error().message;
        } else {
          out.comparison = std::move(*compared);
        }
        return out;
      }));
}

}  // namespace

QString findAstraSimForGui(QString* whyNot) {
  auto found = findAstraSimBinary();
  if (found) return QString::fromStdString(*found);
  const QString chosen = QSettings().value(kAstraSimSettingsKey).toString();
  if (!chosen.isEmpty() && isExecutableFile(chosen)) return chosen;
  if (whyNot) *whyNot = QString::fromStdString(found.error().message);
  return {};
}

QAction* addAstraSimAction(QMainWindow* window, QMenu* analysis, TraceSession* session) {
  auto* action = new QAction(QObject::tr("Simulate with &ASTRA-sim..."), window);
  action->setObjectName("SimulateWithAstraSim");
  analysis->setToolTipsVisible(true);
  analysis->addAction(action);
  // Enabled once a run has loaded; the tooltip says what it will do, or what is missing.
  auto update = [action, session] {
    const bool loaded = !session->ranks().empty() && session->run();
    action->setEnabled(loaded);
    if (!loaded) {
      action->setToolTip(QObject::tr("Open a trace and wait for it to load first."));
      return;
    }
    const QString binary = findAstraSimForGui();
    action->setToolTip(
        binary.isEmpty()
            ? QObject::tr("ASTRA-sim not found: set ASTRA_SIM, put %1 on PATH, or choose the "
                          "binary here.")
                  .arg(kAstraSimBinaryName)
            : QObject::tr("Export every rank to Chakra and run %1 on it.").arg(binary));
  };
  updateOnLoadChanges(session, action, update);
  QObject::connect(analysis, &QMenu::aboutToShow, action, update);
  QObject::connect(action, &QAction::triggered, window,
                   [window, session] { simulateWithAstraSim(window, session); });
  return action;
}

namespace {
const RegisterAnalysisWindow registered{{20, [](QMenu* menu, const AnalysisContext& context) {
                                           addAstraSimAction(context.window, menu, context.session);
                                         }}};
}  // namespace

}  // namespace sutra::gui
