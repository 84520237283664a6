// SPDX-License-Identifier: MIT
#include "session/rank_overview_json.h"

namespace sutra {

nlohmann::json rankOverviewJson(const RankOverview& o, const RankLoadCounts& counts) {
  nlohmann::json ranks = nlohmann::json::array();
  for (std::size_t i = 0; i < o.ranks.size(); ++i) {
    const auto& r = o.ranks[i];
    const auto& st = o.stats[i];
    ranks.push_back({{"rank", r.rank},
                     {"steps", r.steps.size()},
                     {"step_ns", r.meanStep()},
                     {"compute_ns", r.meanCompute()},
                     {"comm_ns", r.meanExposedComm()},
                     {"idle_ns", r.meanIdle()},
                     {"wait_ns", st.waitNs},
                     {"collectives", st.collectives},
                     {"last_arrivals", st.lastArrivals},
                     {"clock_offset_ns", o.clockOffsets[i]},
                     {"path", r.path}});
  }
  nlohmann::json stragglers = nlohmann::json::array();
  for (const auto& s : o.stragglers) {
    const auto& r = o.ranks[s.rank];
    nlohmann::json delayed = nlohmann::json::array();
    for (const auto& d : s.worst) {
      const auto& c = o.collectives[d.collective];
      delayed.push_back({{"process_group", c.processGroup},
                         {"collective", c.collective},
                         {"seq", c.seq ? nlohmann::json(*c.seq) : nlohmann::json(nullptr)},
                         {"step", c.step >= 0 && static_cast<std::size_t>(c.step) <
                                                     o.ranks[c.members.front().rank].steps.size()
                                      ? nlohmann::json(o.ranks[c.members.front().rank]
                                                           .steps[static_cast<std::size_t>(c.step)]
                                                           .number)
                                      : nlohmann::json(nullptr)},
                         {"delay_ns", d.delay}});
    }
    stragglers.push_back({{"rank", r.rank},
                          {"reason", s.reason},
                          {"last_arrivals", o.stats[s.rank].lastArrivals},
                          {"collectives", o.stats[s.rank].collectives},
                          {"delay_caused_ns", o.stats[s.rank].delayCausedNs},
                          {"compute_ns", r.meanCompute()},
                          {"median_compute_ns", o.medianCompute},
                          {"delayed", std::move(delayed)}});
  }
  nlohmann::json notes = counts.notes;
  for (const auto& n : o.notes) notes.push_back(n);
  return {{"ranks", std::move(ranks)},           {"stragglers", std::move(stragglers)},
          {"collectives", o.collectives.size()}, {"unmatched_comms", o.unmatchedComms},
          {"median_step_ns", o.medianStep},      {"notes", std::move(notes)}};
}

}  // namespace sutra
