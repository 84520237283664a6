// SPDX-License-Identifier: MIT
// Analysis > Flame Graph: the top-down call tree of the rank over the range chosen on the ruler
// (else the whole trace), following a new range; a click selects the box's first call on the rank.
#include <QMainWindow>
#include <QObject>
#include <memory>

#include "analysis/call_tree.h"
#include "analysis_menus.h"
#include "analysis_window.h"
#include "flame_graph_view.h"
#include "trace_session.h"
#include "view_results.h"

namespace sutra::gui {
namespace {

void openFlameGraph(const AnalysisContext& context) {
  const auto rank = context.analysedRank(QObject::tr("Flame Graph"));
  if (!rank) return;
  const widgets::RankNavigation navigation = context.rankNavigation();
  auto* view = new widgets::FlameGraphView;
  view->setObjectName("FlameGraphView");
  view->setNavigation(navigation);
  showAnalysisWindow(context.window, view, QObject::tr("Flame graph of %1").arg(rank->label));
  // The latest range asked for is the one shown.
  auto latest = std::make_shared<QString>();
  auto show = [view, rank, navigation, results = context.results, latest] {
    if (!navigation.current()) return;  // its run was replaced: the view keeps what it shows
    const TimeWindow range = selectedWindow(*rank->run->trace, navigation);
    *latest = QStringLiteral("call tree %1 %2").arg(range.start).arg(range.end);
    results->request<CallTree>(
        rank, *latest, view,
        [rank, range] {
          return buildCallTree(*rank->run->trace, *rank->run->launches(), {range, false});
        },
        [view, rank, latest, key = *latest](const CallTree& tree) {
          if (*latest == key) view->setCallTree(rank->run->trace, tree);
        });
  };
  show();
  QObject::connect(context.navigation, &widgets::Navigation::selectedRangeChanged, view,
                   [show](view::TimeRange) { show(); });
}

const RegisterAnalysisWindow registered(120, QT_TR_NOOP("&Flame Graph"), "FlameGraphAction",
                                        openFlameGraph);

}  // namespace
}  // namespace sutra::gui
