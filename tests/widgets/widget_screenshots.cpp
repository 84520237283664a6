// SPDX-License-Identifier: MIT
// sutra-widget-screenshots OUTDIR A B [THEME [SIMULATED]]: renders the compare view of A and B
// (trace files or run folders) and the simulation view of SIMULATED (a trace file; default A) with
// a what-if (copies 4x slower) to OUTDIR/screenshot-compare.png and
// OUTDIR/screenshot-simulation.png, in THEME (light, dark or system; default system). Run by
// scripts/screenshot-compare.sh under Xvfb.
#include <QApplication>
#include <QTimer>
#include <cstdio>

#include "compare_runner.h"
#include "compare_view.h"
#include "io/readers.h"
#include "simulation_runner.h"
#include "simulation_view.h"
#include "theme.h"

using namespace sutra;
using namespace sutra::widgets;

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  const auto theme =
      argc >= 5 ? parseThemeChoice(QString::fromLocal8Bit(argv[4])) : ThemeChoice::System;
  if (argc < 4 || argc > 6 || !theme) {
    std::fprintf(stderr,
                 "usage: sutra-widget-screenshots OUTDIR A B [light|dark|system [SIMULATED]]\n");
    return 2;
  }
  applyTheme(*theme);
  const QString out = argv[1];
  CompareView compare;
  compare.resize(1600, 1000);
  compare.setWindowTitle("Sutra: compare");
  SimulationView simulation;
  simulation.resize(1600, 1000);
  simulation.setWindowTitle("Sutra: simulation");
  int pending = 2;
  auto done = [&] {
    if (--pending == 0) QApplication::exit(0);
  };
  QObject::connect(&compare, &CompareView::failed, [](const QString& m) {
    std::fprintf(stderr, "%s\n", qPrintable(m));
    QApplication::exit(2);
  });
  QObject::connect(&compare, &CompareView::ready, [&] {
    QTimer::singleShot(300, [&] {
      if (!compare.grab().save(out + "/screenshot-compare.png")) QApplication::exit(1);
      done();
    });
  });
  bool whatIfApplied = false;
  QObject::connect(&simulation, &SimulationView::ready, [&] {
    if (!whatIfApplied) {
      whatIfApplied = true;
      SimKnobs knobs;
      knobs.scales.push_back({"Memcpy", 4.0});
      simulation.applyKnobs(knobs);
      return;
    }
    QTimer::singleShot(300, [&] {
      if (!simulation.grab().save(out + "/screenshot-simulation.png")) QApplication::exit(1);
      done();
    });
  });
  auto trace = readKinetoTrace(argc == 6 ? argv[5] : argv[2]);
  if (!trace) {
    std::fprintf(stderr, "%s\n", trace.error().message.c_str());
    return 2;
  }
  compare.show();
  simulation.show();
  // The app's side: the runners read, compare and simulate on workers what the views ask.
  (new sutra::gui::CompareRunner(&compare))->compare({argv[2], argv[3]});
  new sutra::gui::SimulationRunner(&simulation);
  auto run = runOfTrace(std::make_shared<const Trace>(std::move(trace).value()));
  if (!run) {
    std::fprintf(stderr, "%s\n", run.error().message.c_str());
    return 2;
  }
  simulation.simulate(std::make_shared<const Run>(std::move(run).value()), 0);
  return app.exec();
}
