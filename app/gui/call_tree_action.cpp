// SPDX-License-Identifier: MIT
// Analysis > Call Tree: the rank's top-down and bottom-up call trees over the range chosen on the
// ruler (else the whole trace), following a new range; a double-click selects the row's first call
// on the rank.
#include <QMainWindow>
#include <QObject>
#include <memory>
#include <utility>

#include "analysis/call_tree.h"
#include "analysis_menus.h"
#include "analysis_window.h"
#include "call_tree_view.h"
#include "trace_session.h"
#include "view_results.h"

namespace sutra::gui {
namespace {

void openCallTree(const AnalysisContext& context) {
  const auto rank = context.analysedRank(QObject::tr("Call Tree"));
  if (!rank) return;
  const widgets::RankNavigation navigation = context.rankNavigation();
  auto* view = new widgets::CallTreeView;
  view->setObjectName("CallTreeView");
  view->setNavigation(navigation);
  showAnalysisWindow(context.window, view, QObject::tr("Call tree of %1").arg(rank->label));
  auto latest = std::make_shared<QString>();
  auto show = [view, rank, navigation, results = context.results, latest] {
    if (!navigation.current()) return;  // its run was replaced: the view keeps what it shows
    const TimeWindow range = selectedWindow(*rank->run->trace, navigation);
    *latest = QStringLiteral("call trees %1 %2").arg(range.start).arg(range.end);
    results->request<std::pair<CallTree, CallTree>>(
        rank, *latest, view,
        [rank, range] {
          return std::pair{buildCallTree(*rank->run->trace, *rank->run->launches(), {range, false}),
                           buildCallTree(*rank->run->trace, *rank->run->launches(), {range, true})};
        },
        [view, rank, latest, key = *latest](const std::pair<CallTree, CallTree>& trees) {
          if (*latest == key) view->setCallTrees(rank->run->trace, trees.first, trees.second);
        });
  };
  show();
  QObject::connect(context.navigation, &widgets::Navigation::selectedRangeChanged, view,
                   [show](view::TimeRange) { show(); });
}

const RegisterAnalysisWindow registered(130, QT_TR_NOOP("Call &Tree"), "CallTreeAction",
                                        openCallTree);

}  // namespace
}  // namespace sutra::gui
