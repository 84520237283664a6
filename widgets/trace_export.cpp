// SPDX-License-Identifier: MIT
#include "trace_export.h"

#include <filesystem>
#include <regex>

#include "chakra/converter.h"
#include "io/kineto_writer.h"
#include "io/readers.h"
#include "link/et_plus_writer.h"
#include "link/launch_index.h"
#include "link/linked_trace.h"
#include "link/sync_dependencies.h"
#include "simulate/sim_inputs.h"
#include "simulate/timeline_export.h"

namespace sutra::widgets {
namespace {

void addProblems(const ProblemLog& log, std::vector<std::string>& out) {
  for (const Problem& p : log.all()) out.push_back(std::to_string(p.count) + " x " + p.what);
}

}  // namespace

std::string exportStageName(ExportStage stage) {
  switch (stage) {
    case ExportStage::ReadingEt:
      return "reading the execution trace";
    case ExportStage::Linking:
      return "linking";
    case ExportStage::Converting:
      return "converting";
    case ExportStage::Writing:
      return "writing";
    case ExportStage::Done:
      return "done";
  }
  return {};
}

std::size_t ChakraExportSummary::written() const {
  std::size_t n = 0;
  for (const auto& r : ranks) n += r.path.empty() ? 0 : 1;
  return n;
}

std::size_t ChakraExportSummary::problemCount() const {
  std::size_t n = 0;
  for (const auto& r : ranks) n += r.problems.size();
  return n;
}

std::string ChakraExportSummary::text() const {
  std::string out = std::to_string(written()) + " of " + std::to_string(ranks.size()) +
                    " rank(s) written" + (canceled ? " (cancelled)" : "") + "\n";
  for (const auto& r : ranks) {
    if (r.path.empty())
      out += "rank " + std::to_string(r.rank) + ": not written: " + r.error + "\n";
    else
      out += "rank " + std::to_string(r.rank) + ": " + r.path + " (" + std::to_string(r.nodes) +
             " nodes, " + std::to_string(r.edges) + " dependencies, linked by " + r.matching +
             (r.etPath.empty() ? "" : " with " + r.etPath) + ")\n";
    for (const auto& p : r.problems) out += "  " + p + "\n";
  }
  return out;
}

namespace {

// The rank's ET: as given, else read from its path, else none (Kineto alone).
Result<std::shared_ptr<const EtTrace>> etOf(const RankExportInput& input) {
  if (input.et || input.etPath.empty()) return input.et;
  auto et = readPytorchEt(input.etPath);
  if (!et) return et.error();
  return std::shared_ptr<const EtTrace>(std::make_shared<const EtTrace>(std::move(*et)));
}

}  // namespace

ChakraExportSummary exportChakraTraces(const std::vector<RankExportInput>& ranks,
                                       const std::string& directory, const std::string& stem,
                                       const std::vector<std::string>& protectedPaths,
                                       const ExportProgress& progress) {
  ChakraExportSummary summary;
  const int count = static_cast<int>(ranks.size());
  auto go = [&](int index, ExportStage stage) {
    if (summary.canceled || !progress || progress(index, count, stage)) return !summary.canceled;
    summary.canceled = true;
    return false;
  };
  for (int index = 0; index < count; ++index) {
    const RankExportInput& input = ranks[static_cast<std::size_t>(index)];
    RankExportResult r;
    r.rank = input.rank;
    auto finish = [&](std::string error) {
      r.error = std::move(error);
      summary.ranks.push_back(std::move(r));
    };
    if (!go(index, ExportStage::ReadingEt)) {
      finish("cancelled");
      continue;
    }
    auto et = etOf(input);
    if (!et) {
      finish(et.error().message);
      continue;
    }
    if (*et) r.etPath = input.etPath;
    if (!go(index, ExportStage::Linking)) {
      finish("cancelled");
      continue;
    }
    LinkOptions options;
    options.rank = input.rank;
    auto linked = linkTraces(*et, input.kineto, options);
    if (!linked) {
      finish(linked.error().message);
      continue;
    }
    r.matching = linked->report.matching;
    addProblems(linked->problems, r.problems);
    if (!go(index, ExportStage::Converting)) {
      finish("cancelled");
      continue;
    }
    auto converted = chakra::convertToChakra(*linked);
    if (!converted) {
      finish(converted.error().message);
      continue;
    }
    addProblems(converted->trace.problems, r.problems);
    if (!go(index, ExportStage::Writing)) {
      finish("cancelled");
      continue;
    }
    const std::string path = directory + "/" + stem + "." + std::to_string(input.rank) + ".et";
    chakra::ChakraWriteOptions write;
    write.protectedPaths = protectedPaths;
    if (auto status = chakra::writeChakraTrace(converted->trace, path, write); !status) {
      finish(status.error().message);
      continue;
    }
    r.path = path;
    r.nodes = converted->trace.nodes.size();
    r.edges = converted->stats.totalEdges();
    summary.ranks.push_back(std::move(r));
  }
  if (progress && !summary.canceled) progress(count, count, ExportStage::Done);
  return summary;
}

Status exportLinkedEtPlus(const RankExportInput& input, const std::string& path,
                          const std::vector<std::string>& protectedPaths, std::string* matching) {
  auto et = etOf(input);
  if (!et) return et.error();
  LinkOptions options;
  options.rank = input.rank;
  auto linked = linkTraces(*et, input.kineto, options);
  if (!linked) return linked.error();
  if (matching) *matching = linked->report.matching;
  return writeEtPlus(*linked, path, protectedPaths);
}

Status exportMeasuredTimeline(const Trace& trace, const std::string& path,
                              const std::vector<std::string>& protectedPaths) {
  KinetoWriteOptions options;
  options.protectedPaths = protectedPaths;
  return writeKinetoTrace(trace, path, options);
}

std::string chakraStemFor(const std::string& tracePath) {
  const std::filesystem::path path(tracePath);
  std::string name = path.filename().string();
  name = name.substr(0, name.find('.'));  // "rank0.kineto.json.gz" -> "rank0"
  static const std::regex rank(R"([._-]?rank[._-]?[0-9]+$)", std::regex::icase);
  name = std::regex_replace(name, rank, "");
  if (name.empty()) name = path.parent_path().filename().string();
  return name.empty() ? "trace" : name;
}

Status exportSimulatedTimeline(const Trace& trace, const std::string& path) {
  const LaunchIndex launches = LaunchIndex::build(trace);
  const SimGraph graph =
      buildSimGraph(trace, simInputsFromKineto(launches, findSyncDependencies(trace, launches)));
  auto run = simulate(graph);
  if (!run) return run.error();
  return exportSimulatedTimeline(graph, *run, trace.meta.rank.value_or(0), path);
}

Status exportSimulatedTimeline(const SimGraph& graph, const SimRun& run, int rank,
                               const std::string& path) {
  const SimulatedRank simulated{rank, &graph, &run};
  return writeSimulatedTimeline(path, std::span<const SimulatedRank>(&simulated, 1));
}

}  // namespace sutra::widgets
