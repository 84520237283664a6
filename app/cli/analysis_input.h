// SPDX-License-Identifier: MIT
#pragma once
// What the analysis subcommands (stats, compare, chain, critical-path) share: a Kineto trace loaded
// with its launch index and steps, the window options, and strict integer parsing.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/steps.h"
#include "cli_args.h"
#include "link/launch_index.h"
#include "link/sync_dependencies.h"
#include "model/trace.h"
#include "util/result.h"

namespace sutra::cli {

struct AnalysisInput {
  std::unique_ptr<Trace> trace;  // behind a pointer: the launch index refers to it
  std::unique_ptr<LaunchIndex> launches;
  std::vector<Step> steps;
  std::vector<SyncDependency> syncs;  // filled by loadAnalysisInput(path, true)
};

Result<AnalysisInput> loadAnalysisInput(const std::string& path, bool withSyncs = false);

// A whole decimal number; `what` names the option in the error.
Result<std::int64_t> parseInteger(const std::string& text, const std::string& what);

// --step N, --start-ns T, --end-ns T into a WindowSpec.
Result<WindowSpec> windowSpecFrom(const Args& args);

}  // namespace sutra::cli
