// SPDX-License-Identifier: MIT
#pragma once
// The simulated timeline as a Trace, so that it is shown, searched and exported like a measured
// one: every event the simulator gives a time (simulatedTimes) lies on a lane with the pid and tid
// of its measured lane (process and thread names and sort indices copied), with its name,
// category and class, at its simulated start for its simulated duration. Events the simulator does
// not replay are left out. Each event's args say where it was measured
// ({"measured_event":ID,"measured_ts_ns":T,"measured_dur_ns":D}).
#include <vector>

#include "simulate/simulator.h"

namespace sutra {

struct SimulatedTrace {
  Trace trace;
  std::vector<EventId> measuredEvent;  // per event of `trace`: its event in the measured trace
};

// `graph.trace` is the measured trace; `run` a replay of `graph` (with or without knobs).
SimulatedTrace buildSimulatedTrace(const SimGraph& graph, const SimRun& run);

}  // namespace sutra
