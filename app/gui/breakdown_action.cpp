// SPDX-License-Identifier: MIT
// Analysis > Step Breakdown: each step of the rank split into its parts, or of every rank behind a
// rank selector where the all-ranks view has them all; a step asked for is chosen on the ruler and
// shown, on its own rank.
#include <QMainWindow>
#include <QObject>
#include <QStringList>
#include <memory>
#include <vector>

#include "analysis/breakdown.h"
#include "analysis/rank_breakdown.h"
#include "analysis_menus.h"
#include "analysis_window.h"
#include "breakdown_view.h"
#include "trace_session.h"
#include "view_results.h"

namespace sutra::gui {
namespace {

// "pid/tid" of the thread whose steps the breakdown's host side covers.
QString hostThreadOf(const Trace& trace, const Breakdown& breakdown) {
  if (breakdown.steps.empty() || breakdown.steps.front().host.lane >= trace.lanes.size()) return {};
  const Lane& lane = trace.lanes[breakdown.steps.front().host.lane];
  return QString::fromStdString(lane.pid + "/" + lane.tid);
}

void openBreakdown(const AnalysisContext& context) {
  const auto rank = context.analysedRank(QObject::tr("Step Breakdown"));
  if (!rank) return;
  // Every rank where all have their steps and several are loaded, else the current one.
  const auto& loaded = context.session->ranks();
  std::vector<std::shared_ptr<const widgets::RankData>> ranks;
  for (const auto& r : loaded)
    if (r->run->has(RunStage::Analyse) && !r->run->steps().empty()) ranks.push_back(r);
  const bool several = ranks.size() > 1 && ranks.size() == loaded.size();
  if (!several) ranks = {rank};
  QStringList labels;
  int current = 0;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    labels << ranks[i]->label;
    if (ranks[i] == rank) current = int(i);
  }
  auto* view = new widgets::BreakdownView;
  view->setObjectName("BreakdownView");
  // With every rank, the view's rank index is the rank's index in the run.
  const widgets::RankNavigation navigation = context.rankNavigation();
  QObject::connect(view, &widgets::BreakdownView::stepActivated, view,
                   [navigation, ranks, several, view](std::int64_t number) {
                     const int index = several ? view->rankIndex() : 0;
                     if (index < 0 || std::size_t(index) >= ranks.size()) return;
                     const Step* step = findStep(ranks[std::size_t(index)]->run->steps(), number);
                     if (!step) return;
                     (several ? navigation.withRank(index) : navigation)
                         .showRange({step->start, step->deviceEnd});
                   });
  showAnalysisWindow(context.window, view,
                     several ? QObject::tr("Step breakdown of %1 ranks").arg(ranks.size())
                             : QObject::tr("Step breakdown of %1").arg(rank->label));
  struct Breakdowns {
    std::vector<RankBreakdown> ranks;
    QStringList hosts;
  };
  context.results->request<Breakdowns>(
      ranks.front(),
      several ? QStringLiteral("breakdown of all ranks") : QStringLiteral("breakdown"), view,
      [ranks] {
        Breakdowns out;
        for (const auto& r : ranks) {
          out.ranks.push_back({r->rank, buildBreakdown(*r->run->trace, r->run->steps())});
          out.hosts << hostThreadOf(*r->run->trace, out.ranks.back().breakdown);
        }
        return out;
      },
      [view, several, labels, current](const Breakdowns& b) {
        if (several)
          view->setRanks(b.ranks, b.hosts, labels, current);
        else
          view->setBreakdown(b.ranks.front().breakdown, b.hosts.front());
      });
}

const RegisterAnalysisWindow registered(110, QT_TR_NOOP("Step &Breakdown"), "StepBreakdownAction",
                                        openBreakdown);

}  // namespace
}  // namespace sutra::gui
