// SPDX-License-Identifier: MIT
#pragma once
// What the analysis subcommands (stats, compare, chain, critical-path) share: a Kineto trace opened
// as a run up to its analyses, the window options, and strict integer parsing.
#include <cstdint>
#include <memory>
#include <string>

#include "cli_args.h"
#include "link/steps.h"
#include "session/run.h"
#include "util/result.h"

namespace sutra::cli {

// What a command needs of the trace besides its launches and steps.
struct AnalysisNeeds {
  std::string etPath;            // an ET to link with it (chain --et)
  bool wholeTraceTable = false;  // the whole trace's operator table (run->opTable)
  bool syncs = true;             // its sync dependencies (chain, critical-path)
  bool eventArgs = true;         // the events' args text (input shapes, details)
};

// `path` (a Kineto trace, or a directory holding one) opened through the run API up to its
// analyses: the commands read its trace, launch index, steps, sync dependencies and linked ET
// (where one was given) from the run itself.
Result<std::shared_ptr<const RankRun>> loadAnalysisInput(const std::string& path,
                                                         const AnalysisNeeds& needs = {});

// A whole decimal number; `what` names the option in the error.
Result<std::int64_t> parseInteger(const std::string& text, const std::string& what);

// --step N, --start-ns T, --end-ns T into a WindowSpec.
Result<WindowSpec> windowSpecFrom(const Args& args);

}  // namespace sutra::cli
