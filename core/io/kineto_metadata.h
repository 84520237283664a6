// SPDX-License-Identifier: MIT
#pragma once
// A Kineto trace's top-level members other than traceEvents (schemaVersion, baseTimeNanoseconds,
// traceName, deviceProperties, distributedInfo, ...): small, so read with nlohmann once the
// events are in, into the trace's TraceMeta. The device backend is then told by the categories.
#include <string>
#include <utility>
#include <vector>

#include "model/trace.h"

namespace sutra {

// `members`: each member's key and raw JSON text, in file order. Unknown members are kept in
// meta.other; one that is not valid JSON is a counted problem.
void applyKinetoMembers(const std::vector<std::pair<std::string, std::string>>& members,
                        Trace& trace);

}  // namespace sutra
