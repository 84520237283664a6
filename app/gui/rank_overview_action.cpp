// SPDX-License-Identifier: MIT
#include "rank_overview_action.h"

#include <QFutureWatcher>
#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QtConcurrent>

#include "analysis_menus.h"
#include "rank_overview_view.h"
#include "session/rank_overview_load.h"
#include "session/run.h"

namespace sutra::gui {

void showRankOverview(QWidget* parent, const QStringList& paths,
                      std::function<void(const QStringList&)> openPaths) {
  std::vector<std::string> inputs;
  for (const auto& p : paths) inputs.push_back(p.toStdString());
  const CancelableProgress shown = showCancelableProgress(
      parent, QObject::tr("Reading the ranks' summaries..."), 1, "RankOverviewProgress");
  const QPointer<QProgressDialog> dialog(shown.dialog);
  CancelToken cancel;
  QObject::connect(shown.dialog, &QProgressDialog::canceled, shown.dialog,
                   [cancel] { cancel.cancel(); });
  RankOverviewCallbacks callbacks;
  callbacks.progress = [parent, dialog](std::size_t done, std::size_t total,
                                        const std::string& what) {
    QMetaObject::invokeMethod(
        parent,
        [dialog, done, total, what] {
          if (!dialog) return;
          dialog->setMaximum(int(total));
          dialog->setValue(int(done));
          dialog->setLabelText(QObject::tr("Rank %1 of %2: %3")
                                   .arg(done)
                                   .arg(total)
                                   .arg(QString::fromStdString(what)));
        },
        Qt::QueuedConnection);
  };
  auto* watcher = new QFutureWatcher<Result<LoadedRankOverview>>(parent);
  QObject::connect(
      watcher, &QFutureWatcher<Result<LoadedRankOverview>>::finished, parent,
      [parent, watcher, dialog, openPaths] {
        if (dialog) dialog->deleteLater();
        Result<LoadedRankOverview> loaded = watcher->result();
        watcher->deleteLater();
        if (!loaded) {
          if (loaded.error().message != kCanceled)
            QMessageBox::critical(parent, QObject::tr("Rank overview"),
                                  QString::fromStdString(loaded.error().message));
          return;
        }
        auto overview = std::make_shared<const RankOverview>(std::move(loaded->overview));
        auto* view = new widgets::RankOverviewView;
        view->setObjectName("RankOverviewView");
        view->setOverview(overview);
        QObject::connect(view, &widgets::RankOverviewView::openRanksRequested, view,
                         [overview, openPaths](const QList<int>& ranks) {
                           QStringList files;
                           for (const auto& r : overview->ranks)
                             if (ranks.contains(r.rank)) files << QString::fromStdString(r.path);
                           if (!files.isEmpty()) openPaths(files);
                         });
        showAnalysisWindow(parent, view,
                           QObject::tr("Rank overview: %1 ranks").arg(overview->ranks.size()));
      });
  watcher->setFuture(QtConcurrent::run(
      [inputs, callbacks, cancel] { return loadRankOverview(inputs, {}, callbacks, cancel); }));
}

}  // namespace sutra::gui
