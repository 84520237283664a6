// SPDX-License-Identifier: MIT
// Analysis > Critical Path: the critical path of a step of the rank (the step in view when it
// opens, then the one chosen), its events standing out on the timeline with its hops as arrows
// while the view is open; Previous/Next select its parts on the rank.
#include <QMainWindow>
#include <QObject>
#include <QStringList>
#include <memory>

#include "analysis/critical_path.h"
#include "analysis_menus.h"
#include "analysis_window.h"
#include "critical_path_view.h"
#include "link/steps.h"
#include "trace_session.h"
#include "view_results.h"

namespace sutra::gui {
namespace {

// The step whose span holds the middle of the visible range (in the rank's times), else the first.
int stepInView(const std::vector<Step>& steps, view::TimeRange visible) {
  const TimeNs middle = visible.start + visible.span() / 2;
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (middle >= steps[i].start && middle < steps[i].deviceEnd) return int(i);
  return 0;
}

void openCriticalPath(const AnalysisContext& context) {
  const auto rank = context.analysedRank(QObject::tr("Critical Path"));
  if (!rank) return;
  const widgets::RankNavigation navigation = context.rankNavigation();
  auto* view = new widgets::CriticalPathView;
  view->setObjectName("CriticalPathView");
  view->setNavigation(navigation);
  QStringList labels;
  for (const Step& step : rank->run->steps())
    labels << QObject::tr("%1 (%2)").arg(step.number).arg(QString::fromStdString(step.name));
  const int first = stepInView(rank->run->steps(), navigation.visibleRange());
  view->setSteps(labels, first);
  showAnalysisWindow(context.window, view, QObject::tr("Critical path of %1").arg(rank->label));
  auto latest = std::make_shared<int>(-1);
  auto show = [view, rank, results = context.results, latest](int index) {
    if (index < 0 || std::size_t(index) >= rank->run->steps().size()) return;
    *latest = index;
    const Step step = rank->run->steps()[std::size_t(index)];
    results->request<CriticalPath>(
        rank, QStringLiteral("critical path %1").arg(step.number), view,
        [rank, step] {
          CriticalPath path = criticalPath(*rank->run->trace, *rank->run->launches(),
                                           *rank->run->syncs(), stepWindow(step));
          path.label = describeWindow(rank->run->steps(), WindowSpec{.step = step.number});
          return path;
        },
        [view, rank, latest, index](const CriticalPath& path) {
          if (*latest == index) view->setPath(rank->run->trace, path);
        });
  };
  show(first);
  QObject::connect(view, &widgets::CriticalPathView::stepChosen, view, show);
}

const RegisterAnalysisWindow registered(140, QT_TR_NOOP("Critical &Path"), "CriticalPathAction",
                                        openCriticalPath);

}  // namespace
}  // namespace sutra::gui
