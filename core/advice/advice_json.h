// SPDX-License-Identifier: MIT
#pragma once
// The advice as one JSON document, the same for `sutra-cli advise --json` and the Python API's
// run.advise(): each finding with its evidence (event ids into its rank's trace, with their names
// and times) and its price, or why it has none.
#include <nlohmann/json.hpp>

#include "advice/advise.h"
#include "session/run.h"

namespace sutra {

// {"kind","rank","title","explanation","occurrences","steps","measured_ns",
//  "evidence":[{"event","name","start_ns","dur_ns"}],
//  "price":{"priced","model","not_priced"? | "step_ns","projected_step_ns","saving_ns",
//           "saving_fraction","other_bound_step_ns"?}}
nlohmann::json findingJson(const Run& run, const Finding& finding);
// {"step_ns","findings":[findingJson...]}
nlohmann::json adviceJson(const Run& run, const Advice& advice);

}  // namespace sutra
