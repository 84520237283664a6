// SPDX-License-Identifier: MIT
#pragma once
// Which device ops of the loaded ranks are one collective, for the all-ranks view: selecting one
// shows its members on every rank and which rank started it last (the slow rank the others wait
// for). The matching is core's (matchCollectives over each rank's communication kernels, keyed by
// process group, collective and sequence number or order); this only keeps its answer by event.
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "link/launch_index.h"
#include "link/sync_dependencies.h"
#include "model/trace.h"

namespace sutra::widgets {

// One rank as the matching needs it (all three non-null).
struct RankLinks {
  const Trace* trace = nullptr;
  const LaunchIndex* launches = nullptr;
  const std::vector<SyncDependency>* syncs = nullptr;
};

struct RankCollectives {
  struct Member {
    int rank = 0;  // index into the ranks given
    EventId event = kNoEvent;
    bool operator==(const Member&) const = default;
  };
  std::vector<std::vector<Member>>
      collectives;               // each with members on two ranks or more, in rank order
  std::size_t unmatchedOps = 0;  // communication kernels no other rank has
  // Per rank, what to add to its times so that its collectives end when the other ranks' do
  // (core's estimateClockOffsets: the median difference of matched ends); 0 for a rank that
  // shares no collective, and for the first rank of each group that shares them.
  std::vector<TimeNs> clockOffsets;

  // The collective that `event` of rank `rank` is a member of, or null.
  const std::vector<Member>* collectiveOf(int rank, EventId event) const;

  // Per rank: (event, collective index), sorted by event.
  std::vector<std::vector<std::pair<EventId, std::uint32_t>>> byEvent;
};

// `keepGoing` is asked before each rank's graph is built; when it answers false the result is
// empty.
RankCollectives matchRankCollectives(const std::vector<RankLinks>& ranks,
                                     const std::function<bool()>& keepGoing = {});

}  // namespace sutra::widgets
