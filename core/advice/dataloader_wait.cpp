// SPDX-License-Identifier: MIT
#include "advice/dataloader_wait.h"

#include <algorithm>
#include <cctype>

namespace sutra {
namespace {

bool namesDataLoader(std::string_view name) {
  constexpr std::string_view kWord = "dataloader";
  return std::search(name.begin(), name.end(), kWord.begin(), kWord.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         }) != name.end();
}

}  // namespace

std::vector<Finding> findDataLoaderWaits(const AdviceScope& scope) {
  const Trace& trace = scope.trace;
  Finding f = scope.newFinding(FindingKind::DataLoaderWait);
  TimeNs total = 0;
  for (const Step& step : scope.steps) {
    if (step.annotation == kNoEvent) continue;
    const LaneId lane = trace.events[step.annotation].lane;
    bool found = false;
    const Lane& l = trace.lanes[lane];
    for (EventId id = trace.lowerBound(lane, step.start); id < l.endEvent; ++id) {
      const Event& e = trace.events[id];
      if (e.start >= step.end) break;
      if (!isFramework(e.klass) || !namesDataLoader(trace.name(e))) continue;
      // The outermost: no data-loader event encloses it.
      bool nested = false;
      for (EventId p = e.parent; p != kNoEvent; p = trace.events[p].parent)
        if (namesDataLoader(trace.name(trace.events[p]))) nested = true;
      if (nested) continue;
      f.evidence.push_back(id);
      total += e.dur;
      ++f.occurrences;
      found = true;
      f.fix.hostCuts.push_back({scope.rankIndex, lane, e.start, e.end(), e.dur});
    }
    f.steps += found ? 1 : 0;
  }
  if (f.evidence.empty()) return {};
  f.measuredNs = scope.perStep(total);
  f.title = "data loader: " + formatDuration(f.measuredNs) + " per step fetching the batch (" +
            std::to_string(f.occurrences) + " fetches in " + std::to_string(f.steps) + " steps)";
  f.explanation = "the step's thread loads its batch itself (" + topNames(trace, f.evidence, 2) +
                  ") before it can launch any work; with DataLoader(num_workers > 0, "
                  "pin_memory=True) worker processes load the next batches while this one runs.";
  f.price.model = "the batch ready when asked: the data loader's time on the step's thread removed";
  return {std::move(f)};
}

}  // namespace sutra
