// SPDX-License-Identifier: MIT
#pragma once
// What the analysis subcommands (stats, compare, chain, critical-path) share: a Kineto trace loaded
// with its launch index and steps, the window options, and strict integer parsing.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli_args.h"
#include "link/steps.h"
#include "session/run.h"
#include "util/result.h"

namespace sutra::cli {

// One Kineto trace opened through the run API up to its analyses: the trace, its launch index,
// steps and sync dependencies, and its ET linked where one was given.
struct AnalysisInput {
  std::shared_ptr<const RankRun> run;
  std::shared_ptr<const Trace> trace;
  std::shared_ptr<const LaunchIndex> launches;
  std::vector<Step> steps;
  std::shared_ptr<const std::vector<SyncDependency>> syncs;
  std::shared_ptr<const LinkedTrace> linked;  // with an ET only
};

// What a command needs of the trace besides its launches and steps.
struct AnalysisNeeds {
  std::string etPath;            // an ET to link with it (chain --et)
  bool wholeTraceTable = false;  // the whole trace's operator table (run->opTable)
  bool syncs = true;             // its sync dependencies (chain, critical-path)
  bool eventArgs = true;         // the events' args text (input shapes, details)
};

// `path`: a Kineto trace, or a directory holding one.
Result<AnalysisInput> loadAnalysisInput(const std::string& path, const AnalysisNeeds& needs = {});

// A whole decimal number; `what` names the option in the error.
Result<std::int64_t> parseInteger(const std::string& text, const std::string& what);

// --step N, --start-ns T, --end-ns T into a WindowSpec.
Result<WindowSpec> windowSpecFrom(const Args& args);

}  // namespace sutra::cli
