// SPDX-License-Identifier: MIT
#pragma once
// Writes a Trace back as a Kineto (Chrome-trace) JSON file: what File > Export > Chrome/Perfetto
// JSON and `sutra-cli export --to chrome` write, whole or cut to a time window (one step, say), so
// a big trace can be shared as the part that matters. Everything the reader kept comes back:
// lanes with their names and sort order, complete events with their raw args, flows, instants,
// counters, and the top-level members (deviceProperties, distributedInfo, baseTimeNanoseconds...).
// Reading the file again gives the same events at the same nanoseconds. A path ending in .gz is
// gzipped.
#include <optional>
#include <string>
#include <vector>

#include "model/trace.h"
#include "util/result.h"

namespace sutra {

struct KinetoWriteOptions {
  // Only events that overlap the window, flows with both ends kept, instants and counter samples
  // inside it. No window: all of the trace.
  std::optional<TimeWindow> window;
  std::vector<std::string> protectedPaths;  // the inputs: never overwritten
};

// Whether the window keeps `event`: it overlaps the window (an instant event, its start inside it).
bool keptByWindow(const Event& event, const TimeWindow& window);

Status writeKinetoTrace(const Trace& trace, const std::string& path,
                        const KinetoWriteOptions& options = {});

}  // namespace sutra
