// SPDX-License-Identifier: MIT
#pragma once
// The event-driven replay of a SimGraph: a node is scheduled when its last predecessor resolves,
// at the latest of its constraints, and nodes are processed in time order from a priority queue.
// Integer nanoseconds throughout; the knobs change edge weights and durations, never the graph.
#include <optional>
#include <span>
#include <string>
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
  // The knobs' host time cuts of this rank (by lane, then start), which host times between points
  // also lose, and the longest of their stretches.
  std::vector<HostTimeCut> hostCuts;
  TimeNs longestHostCut = 0;
};

// Fails only on invalid knobs (a bad pattern, a non-positive factor).
Result<SimRun> simulate(const SimGraph& graph, const SimKnobs& knobs = {});

// One collective (or one send with its recv) matched across ranks: every member op starts on its
// own rank, and all of them end when the last one has arrived (started) plus the transfer time,
// the shortest simulated span among the members (the op of the rank that arrived last waited for
// no one, so its span is the transfer alone). A send does not wait for its recv (the data is
// buffered, as ASTRA-sim models it): it ends after its own span, and the recv ends when the
// message arrives, the send's start plus the transfer (or at its own start, if it starts later).
struct SimCollective {
  struct Member {
    std::uint32_t rank = 0;  // index into the graphs given to simulateRanks
    std::uint32_t node = 0;  // a DeviceOp or HostOp node of that graph
  };
  std::vector<Member> members;
  bool pointToPoint = false;  // members[0] is a send, members[1] its recv
  std::string collective;     // what it does ("all_reduce"), as the ranks' ops name it
  std::int64_t bytes = 0;     // what each rank puts in (the largest its members say); 0: unknown
  // Per member (or empty): how much later than the last arrival plus the transfer it ended as
  // measured, on the aligned clocks: the ranks' clocks never align exactly, and a rank's kernel
  // may finish after another's. Kept under any what-if, so that the measured run replays exactly.
  std::vector<TimeNs> endResiduals;
  // The transfer as the network model costs it (session/run_collectives fits it to the run's
  // collectives): a latency that no bandwidth changes and a bandwidth part; -1 where the model
  // does not price it (no size, a kind the ring does not cost). Under --network-speed the latency
  // is held and the rest of the measured transfer moves with the bandwidth.
  TimeNs transferLatencyNs = 0;
  TimeNs transferBandwidthNs = -1;
};

// A collective's transfer under a network `speed` times as fast: `measured` (the last arrival's
// span) with its modelled latency held and the rest divided by the speed.
TimeNs transferAtNetworkSpeed(const SimCollective& collective, TimeNs measured, double speed);

// Simulates several ranks at once, coupled by their collectives, so that a slow rank delays the
// others; one SimRun per graph. With no collectives each run equals simulate() of its graph.
// `clockOffsets` (one per graph, or empty for none) is added to a rank's times while the ranks
// run together, so that clocks that disagree (separate hosts, or Chakra graphs that count from
// their own first op) meet; the runs come back in each rank's own clock.
Result<std::vector<SimRun>> simulateRanks(std::span<const SimGraph* const> graphs,
                                          std::span<const SimCollective> collectives,
                                          const SimKnobs& knobs = {},
                                          std::span<const TimeNs> clockOffsets = {});

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
