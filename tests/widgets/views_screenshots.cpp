// SPDX-License-Identifier: MIT
// sutra-views-screenshots OUTDIR TRACE [STEP]: renders the views of issue 19 on a Kineto trace to
// OUTDIR/screenshot-breakdown.png (every step, device side), OUTDIR/screenshot-flame-graph.png
// (the flame graph of step STEP, default the second step or the only one) and
// OUTDIR/screenshot-critical-path.png (the timeline of that step with its critical path outlined,
// the rest faded, above the path's list). Run under Xvfb (scripts/screenshot-views.sh).
#include <QApplication>
#include <QSplitter>
#include <cstdio>

#include "analysis/breakdown.h"
#include "analysis/call_tree.h"
#include "analysis/critical_path.h"
#include "breakdown_view.h"
#include "critical_path_view.h"
#include "flame_graph_view.h"
#include "io/readers.h"
#include "link/launch_index.h"
#include "link/sync_dependencies.h"
#include "theme.h"
#include "timeline_view.h"
#include "view/lane_layout.h"

using namespace sutra;
using namespace sutra::widgets;

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  if (argc != 3 && argc != 4) {
    std::fprintf(stderr, "usage: sutra-views-screenshots OUTDIR TRACE [STEP]\n");
    return 2;
  }
  applyTheme(ThemeChoice::Light);
  const QString out = argv[1];
  auto read = readKinetoTrace(argv[2]);
  if (!read.ok()) {
    std::fprintf(stderr, "%s\n", read.error().message.c_str());
    return 2;
  }
  auto trace = std::make_shared<const Trace>(std::move(*read));
  const LaunchIndex launches = LaunchIndex::build(*trace);
  const auto syncs = findSyncDependencies(*trace, launches);
  const auto steps = findSteps(*trace, launches);
  const Step* step = &steps[steps.size() > 1 ? 1 : 0];
  if (argc == 4) step = findStep(steps, std::atoll(argv[3]));
  if (!step) {
    std::fprintf(stderr, "no such step\n");
    return 2;
  }

  BreakdownView breakdown;
  breakdown.setWindowTitle("Sutra: step breakdown");
  breakdown.resize(1400, 900);
  const Breakdown b = buildBreakdown(*trace, steps);
  const Lane& host = trace->lanes[b.steps.front().host.lane];
  breakdown.setBreakdown(b, QString::fromStdString(host.pid + "/" + host.tid));
  breakdown.show();

  FlameGraphView flame;
  flame.setWindowTitle("Sutra: flame graph");
  flame.resize(1400, 700);
  flame.setCallTree(trace, buildCallTree(*trace, launches, {stepWindow(*step), false}));
  flame.setSearch("aten::");
  flame.show();

  QSplitter path(Qt::Vertical);
  path.setWindowTitle("Sutra: critical path");
  path.resize(1500, 1000);
  auto* timeline = new TimelineView;
  auto* list = new CriticalPathView;
  path.addWidget(timeline);
  path.addWidget(list);
  path.setSizes({620, 380});
  timeline->setTrace(trace, std::make_shared<const LaneLayout>(
                                LaneLayout::build(*trace, "rank0", LaneGrouping::Layers)));
  CriticalPath cp = criticalPath(*trace, launches, syncs, stepWindow(*step));
  cp.label = describeWindow(steps, WindowSpec{.step = step->number});
  list->setSteps({QString("%1 (%2)").arg(step->number).arg(QString::fromStdString(step->name))}, 0);
  list->setPath(trace, cp);
  timeline->setHighlighted(list->pathEvents());
  timeline->setPathEdges(list->pathEdges());
  path.show();
  timeline->setVisibleRange({step->start, step->deviceEnd});
  list->next();
  QApplication::processEvents();
  timeline->setVisibleRange({step->start, step->deviceEnd});
  QApplication::processEvents();

  bool ok = breakdown.grab().save(out + "/screenshot-breakdown.png");
  ok = flame.grab().save(out + "/screenshot-flame-graph.png") && ok;
  ok = path.grab().save(out + "/screenshot-critical-path.png") && ok;
  return ok ? 0 : 1;
}
