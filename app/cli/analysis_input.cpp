// SPDX-License-Identifier: MIT
#include "analysis_input.h"

#include <charconv>

#include "io/discover.h"
#include "io/readers.h"

namespace sutra::cli {

Result<AnalysisInput> loadAnalysisInput(const std::string& path, bool withSyncs) {
  auto file = kinetoTraceAt(path);  // a directory: its one Kineto trace
  if (!file.ok()) return file.error();
  auto trace = readKinetoTrace(*file);
  if (!trace.ok()) return trace.error();
  AnalysisInput input;
  input.trace = std::make_unique<Trace>(std::move(trace).value());
  input.launches = std::make_unique<LaunchIndex>(LaunchIndex::build(*input.trace));
  input.steps = findSteps(*input.trace, *input.launches);
  if (withSyncs) input.syncs = findSyncDependencies(*input.trace, *input.launches);
  return input;
}

Result<std::int64_t> parseInteger(const std::string& text, const std::string& what) {
  std::int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size())
    return Error{what + ": '" + text + "' is not a whole number"};
  return value;
}

Result<WindowSpec> windowSpecFrom(const Args& args) {
  WindowSpec spec;
  if (auto v = args.value("--step")) {
    auto n = parseInteger(*v, "--step");
    if (!n.ok()) return n.error();
    spec.step = *n;
  }
  if (auto v = args.value("--start-ns")) {
    auto n = parseInteger(*v, "--start-ns");
    if (!n.ok()) return n.error();
    spec.start = *n;
  }
  if (auto v = args.value("--end-ns")) {
    auto n = parseInteger(*v, "--end-ns");
    if (!n.ok()) return n.error();
    spec.end = *n;
  }
  return spec;
}

}  // namespace sutra::cli
