// SPDX-License-Identifier: MIT
#pragma once
// The event-driven replay of a SimGraph: a node is scheduled when its last predecessor resolves,
// at the latest of its constraints, and nodes are processed in time order from a priority queue.
// Integer nanoseconds throughout; the knobs change edge weights and durations, never the graph.
#include <optional>
#include <utility>
#include <vector>

#include "simulate/sim_graph.h"
#include "simulate/sim_knobs.h"
#include "util/result.h"

namespace sutra {

struct SimRun {
  std::vector<TimeNs> start;  // per node: its simulated value (host point: the moment)
  std::vector<TimeNs> end;    // per node: start + simulated span
  double cpuSpeed = 1.0;      // to map host times between points
  TimeNs begin = 0;           // earliest simulated start of any node
  TimeNs finish = 0;          // latest simulated end of any node or host event
  // Nodes released without all their predecessors, to break a dependency cycle (inconsistent
  // dependencies in the input); 0 on a consistent graph.
  std::uint64_t forcedNodes = 0;
};

// Fails only on invalid knobs (a bad pattern, a non-positive factor).
Result<SimRun> simulate(const SimGraph& graph, const SimKnobs& knobs = {});

// The simulated start and end of any event the graph models: device ops from their nodes, host
// events by mapping their measured times between the points of their thread. nullopt for events
// on lanes the simulator does not replay (annotations on device lanes, sync records, spans).
std::optional<std::pair<TimeNs, TimeNs>> simulatedTimes(const SimGraph& graph, const SimRun& run,
                                                        EventId event);

// The simulated moment of measured time `t` on host track `track` (start: the earliest point at
// exactly t; end: the latest, so a call that ends where a release is ends with the release).
TimeNs mapHostTime(const SimGraph& graph, const SimRun& run, std::uint32_t track, TimeNs t,
                   bool isEnd);

}  // namespace sutra
