// SPDX-License-Identifier: MIT
#include "session/rank_exports.h"

#include "link/et_plus_writer.h"
#include "session/run_simulation.h"
#include "simulate/timeline_export.h"

namespace sutra {

Status writeRankEtPlus(const RankRun& rank, const std::string& path,
                       const std::vector<std::string>& protectedPaths, std::string* matching) {
  std::shared_ptr<const LinkedTrace> linked = rank.linked();
  if (!linked) {
    if (!rank.trace) return Error{rank.path() + ": no Kineto trace to link"};
    LinkOptions options;
    options.rank = rank.rank;
    options.launches = rank.launches().get();
    auto alone = linkTraces(nullptr, rank.trace, options);
    if (!alone) return alone.error();
    linked = std::make_shared<const LinkedTrace>(std::move(alone).value());
  }
  if (matching) *matching = linked->report.matching;
  return writeEtPlus(*linked, path, protectedPaths);
}

Status writeSimulatedRank(const SimGraph& graph, const SimRun& run, int rank,
                          const std::string& path) {
  const SimulatedRank simulated{rank, &graph, &run};
  return writeSimulatedTimeline(path, std::span<const SimulatedRank>(&simulated, 1));
}

Status writeSimulatedRank(const Run& run, int rankIndex, const std::string& path) {
  auto simulated = simulateRun(run);
  if (!simulated) return simulated.error();
  if (rankIndex < 0 || static_cast<std::size_t>(rankIndex) >= simulated->ranks.size())
    return Error{"no rank " + std::to_string(rankIndex) + " in the run"};
  const RankSimulationResult& r = simulated->ranks[static_cast<std::size_t>(rankIndex)];
  return writeSimulatedRank(r.rank->simulation->graph, r.run, r.rank->rank, path);
}

}  // namespace sutra
