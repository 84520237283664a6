// SPDX-License-Identifier: MIT
#include "advice/advise.h"

#include <algorithm>
#include <optional>
#include <unordered_set>

#include "advice/advice_scope.h"
#include "advice/blocking_syncs.h"
#include "advice/cpu_op_overhead.h"
#include "advice/dataloader_wait.h"
#include "advice/exposed_communication.h"
#include "advice/fusion_candidates.h"
#include "advice/host_bound.h"
#include "advice/memory_copies.h"
#include "advice/optimizer_loop.h"
#include "advice/price.h"
#include "advice/runtime_setup.h"
#include "advice/stragglers.h"

namespace sutra {

Result<Advice> adviseRun(const Run& run, const AdviceOptions& options, const CancelToken& cancel) {
  if (run.ranks.empty()) return Error{"advise: the run has no rank"};
  Advice advice;
  for (std::uint32_t i = 0; i < run.ranks.size(); ++i) {
    const RankRun& rank = *run.ranks[i];
    if (!rank.trace || !rank.has(RunStage::Simulate))
      return Error{rank.path() + ": advise needs the rank read, linked, analysed and simulated"};
    const AdviceScope scope{rank, i, *rank.trace, rank.steps()};
    auto fusion = findFusionCandidates(scope);
    if (fusion.size() > options.maxFusionCandidates) fusion.resize(options.maxFusionCandidates);
    for (auto& found :
         {fusion, findHostBoundSteps(scope), findBlockingSyncs(scope), findMemoryCopies(scope),
          findDataLoaderWaits(scope), findCpuOpOverhead(scope), findRuntimeSetup(scope),
          findExposedCommunication(scope), findOptimizerLoops(scope)})
      advice.findings.insert(advice.findings.end(), found.begin(), found.end());
  }
  // A fused optimizer is a change to the program, made on every rank: one finding per optimizer,
  // shown on the first rank that runs it, its fix applied on each (priced on one rank alone, the
  // others' loops would still hold the collectives).
  std::vector<Finding*> optimizerFirst;
  for (auto& f : advice.findings) {
    if (f.kind != FindingKind::OptimizerLoop) continue;
    const auto key = f.title.substr(0, f.title.find(':'));
    auto it = std::find_if(optimizerFirst.begin(), optimizerFirst.end(), [&](const Finding* g) {
      return g->title.substr(0, g->title.find(':')) == key;
    });
    if (it == optimizerFirst.end()) {
      optimizerFirst.push_back(&f);
      continue;
    }
    (*it)->fix.hostCuts.insert((*it)->fix.hostCuts.end(), f.fix.hostCuts.begin(),
                               f.fix.hostCuts.end());
    f.evidence.clear();  // dropped below, with the findings that have no evidence
  }
  for (Finding* f : optimizerFirst)
    if (f->fix.hostCuts.size() > f->occurrences) f->price.model += ", on every rank that runs it";
  const auto stragglers = findStragglers(run);
  advice.findings.insert(advice.findings.end(), stragglers.begin(), stragglers.end());
  // No finding without evidence.
  std::erase_if(advice.findings, [](const Finding& f) { return f.evidence.empty(); });
  // The run as measured, replayed once for all the prices (where one has a fix to price).
  std::optional<Result<RunSimulation>> baseline;
  const Result<RunSimulation> noBaseline{Error{"not replayed"}};  // for findings with no fix
  for (auto& f : advice.findings) {
    if (cancel.canceled()) return Error{kCanceled};
    // Each event once, in the order the finder gave (the first is the one to show).
    std::unordered_set<EventId> seen;
    std::erase_if(f.evidence, [&](EventId id) { return !seen.insert(id).second; });
    if (!options.price) continue;
    if (!baseline && f.fix.any()) {
      SimulateOptions measured;
      measured.causes = false;  // the prices read the projections alone
      baseline.emplace(simulateRun(run, {}, measured));
      if (*baseline) advice.replays += (*baseline)->replays;
    }
    advice.replays += priceFinding(run, baseline ? *baseline : noBaseline, f);
    if (f.price.priced) advice.stepNs = f.price.stepNs;
  }
  std::stable_sort(advice.findings.begin(), advice.findings.end(),
                   [](const Finding& a, const Finding& b) {
                     if (a.price.priced != b.price.priced) return a.price.priced;
                     if (a.price.priced) return a.price.savingNs() > b.price.savingNs();
                     return a.measuredNs > b.measuredNs;
                   });
  return advice;
}

}  // namespace sutra
