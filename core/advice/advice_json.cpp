// SPDX-License-Identifier: MIT
#include "advice/advice_json.h"

namespace sutra {

nlohmann::json findingJson(const Run& run, const Finding& f) {
  const Trace& trace = *run.ranks[f.rankIndex]->trace;
  nlohmann::json evidence = nlohmann::json::array();
  for (EventId id : f.evidence) {
    const Event& e = trace.events[id];
    evidence.push_back(
        {{"event", id}, {"name", trace.name(e)}, {"start_ns", e.start}, {"dur_ns", e.dur}});
  }
  const FindingPrice& p = f.price;
  nlohmann::json price = {{"priced", p.priced}, {"model", p.model}};
  if (p.priced) {
    price["step_ns"] = p.stepNs;
    price["projected_step_ns"] = p.projectedStepNs;
    price["saving_ns"] = p.savingNs();
    price["saving_fraction"] = p.savingFraction();
    if (p.otherBoundStepNs >= 0) price["other_bound_step_ns"] = p.otherBoundStepNs;
  } else {
    price["not_priced"] = p.notPriced;
  }
  return {{"kind", findingKindName(f.kind)},
          {"rank", f.rank},
          {"title", f.title},
          {"explanation", f.explanation},
          {"occurrences", f.occurrences},
          {"steps", f.steps},
          {"measured_ns", f.measuredNs},
          {"evidence", std::move(evidence)},
          {"price", std::move(price)}};
}

nlohmann::json adviceJson(const Run& run, const Advice& advice) {
  nlohmann::json findings = nlohmann::json::array();
  for (const Finding& f : advice.findings) findings.push_back(findingJson(run, f));
  return {{"step_ns", advice.stepNs}, {"findings", std::move(findings)}};
}

}  // namespace sutra
