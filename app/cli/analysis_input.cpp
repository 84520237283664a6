// SPDX-License-Identifier: MIT
#include "analysis_input.h"

#include <charconv>

#include "io/discover.h"

namespace sutra::cli {

Result<std::shared_ptr<const RankRun>> loadAnalysisInput(const std::string& path,
                                                         const AnalysisNeeds& needs) {
  RunOptions options = RunOptions::upTo(RunStage::Analyse);
  options.wholeTraceTable = needs.wholeTraceTable;
  options.syncDependencies = needs.syncs;
  options.eventArgs = needs.eventArgs;
  const std::string& etPath = needs.etPath;
  Result<std::shared_ptr<const RankRun>> rank = Error{};
  if (etPath.empty()) {
    rank = openTrace(path, options);
  } else {
    auto file = kinetoTraceAt(path);  // a directory: its one Kineto trace
    if (!file) return file.error();
    auto run = openRankFiles({{std::nullopt, *file, {}, etPath}}, options);
    if (!run) return run.error();
    rank = run->ranks.front();
    if (!(*rank)->linkNote().empty()) return Error{(*rank)->linkNote()};
  }
  return rank;
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
