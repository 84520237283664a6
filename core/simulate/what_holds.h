// SPDX-License-Identifier: MIT
#pragma once
// What holds a rank in a simulated run: its critical path (walked back from the node that ends
// last, each node to the predecessor whose end came latest before it) cut into what each stretch
// is: host work, device work, a collective's wait for the other ranks and its transfer, launch
// latency, and the gaps the replay keeps as measured because nothing in the trace explains them
// (a stream's turnaround, a worker's pickup, a wake-up's delay, a sync's tail). Under a what-if,
// the last is what no knob moves: the projection says how much of the run it is.
#include <span>

#include "simulate/simulator.h"

namespace sutra {

struct WhatHolds {
  TimeNs hostNs = 0;          // host CPU time between points, and host ops
  TimeNs deviceNs = 0;        // device ops (not communication)
  TimeNs commWaitNs = 0;      // collectives waiting for the last rank to arrive
  TimeNs commTransferNs = 0;  // collectives from the last arrival to their end
  TimeNs launchNs = 0;        // launch latency
  TimeNs heldGapNs = 0;       // measured gaps no cause explains (held under every knob)
  TimeNs pathNs = 0;          // the whole path: the rank's first start to its last end
};

// `graphs` and `runs` are the ranks simulated together, `collectives` the matching they ran with
// and `clockOffsets` (one per rank, or empty) the offsets their clocks met at.
WhatHolds whatHolds(std::span<const SimGraph* const> graphs, std::span<const SimRun> runs,
                    std::span<const SimCollective> collectives,
                    std::span<const TimeNs> clockOffsets, std::uint32_t rank);

}  // namespace sutra
