// SPDX-License-Identifier: MIT
#include "trace_export.h"

#include "chakra/converter.h"
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

std::size_t ChakraExportSummary::written() const {
  std::size_t n = 0;
  for (const auto& r : ranks) n += r.path.empty() ? 0 : 1;
  return n;
}

std::string ChakraExportSummary::text() const {
  std::string out = std::to_string(written()) + " of " + std::to_string(ranks.size()) +
                    " rank(s) written\n";
  for (const auto& r : ranks) {
    if (r.path.empty())
      out += "rank " + std::to_string(r.rank) + ": not written: " + r.error + "\n";
    else
      out += "rank " + std::to_string(r.rank) + ": " + r.path + " (" + std::to_string(r.nodes) +
             " nodes, " + std::to_string(r.edges) + " dependencies, linked by " + r.matching +
             ")\n";
    for (const auto& p : r.problems) out += "  " + p + "\n";
  }
  return out;
}

ChakraExportSummary exportChakraTraces(const std::vector<RankExportInput>& ranks,
                                       const std::string& directory, const std::string& stem,
                                       const std::vector<std::string>& protectedPaths) {
  ChakraExportSummary summary;
  for (const RankExportInput& input : ranks) {
    RankExportResult r;
    r.rank = input.rank;
    LinkOptions options;
    options.rank = input.rank;
    auto linked = linkTraces(input.et, input.kineto, options);
    if (!linked) {
      r.error = linked.error().message;
      summary.ranks.push_back(std::move(r));
      continue;
    }
    r.matching = linked->report.matching;
    addProblems(linked->problems, r.problems);
    auto converted = chakra::convertToChakra(*linked);
    if (!converted) {
      r.error = converted.error().message;
      summary.ranks.push_back(std::move(r));
      continue;
    }
    addProblems(converted->trace.problems, r.problems);
    const std::string path = directory + "/" + stem + "." + std::to_string(input.rank) + ".et";
    chakra::ChakraWriteOptions write;
    write.protectedPaths = protectedPaths;
    if (auto status = chakra::writeChakraTrace(converted->trace, path, write); !status) {
      r.error = status.error().message;
    } else {
      r.path = path;
      r.nodes = converted->trace.nodes.size();
      r.edges = converted->stats.totalEdges();
    }
    summary.ranks.push_back(std::move(r));
  }
  return summary;
}

Status exportSimulatedTimeline(const Trace& trace, const std::string& path) {
  const LaunchIndex launches = LaunchIndex::build(trace);
  const SimGraph graph =
      buildSimGraph(trace, simInputsFromKineto(launches, findSyncDependencies(trace, launches)));
  auto run = simulate(graph);
  if (!run) return run.error();
  const SimulatedRank rank{trace.meta.rank.value_or(0), &graph, &*run};
  return writeSimulatedTimeline(path, std::span<const SimulatedRank>(&rank, 1));
}

}  // namespace sutra::widgets
