// SPDX-License-Identifier: MIT
#pragma once
// What the views are given of a loaded run: each rank as core built it with its lanes' layout, and
// the problems counted in each file. Plain data; who loads it is the app's business.
#include <QString>
#include <memory>

#include "model/problems.h"
#include "session/run.h"
#include "view/lane_layout.h"

namespace sutra::widgets {

// One rank as the GUI shows it, read-only once published: core's RankRun (its stages' results,
// asked through it: run->has(RunStage::Analyse), run->steps() ...), its lanes' layout, and the Qt
// strings the views show.
struct RankData {
  std::shared_ptr<const RankRun> run;  // as core built it, up to the stage last announced
  std::shared_ptr<const LaneLayout> layout;
  int rank = 0;
  QString label;   // "rank0"
  QString path;    // the Kineto trace it was read from
  QString etPath;  // the execution trace discovery paired with it, empty when none
};

// A problem kind counted in one file, for the problems panel.
struct FileProblem {
  QString file;
  Problem problem;
};

}  // namespace sutra::widgets
