// SPDX-License-Identifier: MIT
#pragma once
// What a what-if changed: the projected time before and after, the threads and streams whose end
// or busy time moved most, and the device ops (by name) whose total time changed most.
#include <string>
#include <vector>

#include "simulate/simulator.h"

namespace sutra {

struct TrackChange {
  std::uint32_t track = 0;
  std::string label;  // "stream 7 (pid 0)" or "thread 1234 (pid 1234)"
  bool device = false;
  TimeNs baselineEnd = 0, variantEnd = 0;  // the track's last simulated end
  // Streams: the sum of their ops' durations. Threads: the time spent blocked in sync calls.
  TimeNs baselineBusy = 0, variantBusy = 0;
};

struct OpChange {
  std::string name;
  std::uint64_t count = 0;
  TimeNs baselineNs = 0, variantNs = 0;  // total duration of the device ops of that name
};

struct WhatMoved {
  TimeNs baselineNs = 0, variantNs = 0;  // simulated span of everything replayed
  std::vector<TrackChange> tracks;  // by the size of the change, largest first; unchanged left out
  std::vector<OpChange> ops;        // likewise
};

// Both runs must come from `graph`. Keeps the `top` largest changes of each kind.
WhatMoved whatMoved(const SimGraph& graph, const SimRun& baseline, const SimRun& variant,
                    std::size_t top = 10);

}  // namespace sutra
