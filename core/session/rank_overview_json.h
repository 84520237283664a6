// SPDX-License-Identifier: MIT
#pragma once
// The overview of many ranks as sutra-cli ranks --json prints it and the Python package returns
// it: {"ranks":[{"rank","steps","step_ns","compute_ns","comm_ns","idle_ns","wait_ns",
// "collectives","last_arrivals","clock_offset_ns","path"}],"stragglers":[{"rank","reason",
// "last_arrivals","collectives","delay_caused_ns","compute_ns","median_compute_ns","delayed":[
// {"process_group","collective","seq","step","delay_ns"}]}],"collectives","unmatched_comms",
// "median_step_ns","notes"}.
#include <nlohmann/json.hpp>

#include "analysis/rank_overview.h"
#include "session/rank_overview_load.h"

namespace sutra {

nlohmann::json rankOverviewJson(const RankOverview& overview, const RankLoadCounts& counts);

}  // namespace sutra
