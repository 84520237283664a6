// SPDX-License-Identifier: MIT
#pragma once
// Which device ops of a run's ranks are one collective, kept by event for the views: selecting
// one shows its members on every rank and which rank started it last (the slow rank the others
// wait for), and the ranks' clock offsets line their collectives up. The matching is the
// simulator's (matchCollectives over each rank's communication ops, keyed by process group,
// collective and sequence number or order), over the graphs the run built once.
#include <cstdint>
#include <utility>
#include <vector>

#include "model/trace.h"
#include "simulate/collective_matching.h"
#include "simulate/transfer_model.h"

namespace sutra {

struct RankRun;

struct RunCollectives {
  struct Member {
    int rank = 0;  // index into the run's ranks
    EventId event = kNoEvent;
    bool operator==(const Member&) const = default;
  };
  // Each with members on two ranks or more, in rank order (point-to-point pairs left out).
  std::vector<std::vector<Member>> collectives;
  std::size_t matchedOps = 0;
  std::size_t unmatchedOps = 0;  // communication ops no other rank has
  ProblemLog problems;
  // Per rank, what to add to its times so that its collectives end when the other ranks' do
  // (estimateClockOffsets: the median difference of matched ends); 0 for a rank that shares no
  // collective, and for the first rank of each group that shares them.
  std::vector<TimeNs> clockOffsets;
  // The matching itself, for the simulation of the whole run, each collective's transfer split
  // by the network model fitted to them all.
  CollectiveMatching matching;
  TransferFit network;

  // The collective that `event` of rank index `rank` is a member of, or null.
  const std::vector<Member>* collectiveOf(int rank, EventId event) const;

  // Per rank: (event, collective index), sorted by event.
  std::vector<std::vector<std::pair<EventId, std::uint32_t>>> byEvent;
};

// The collectives of `ranks` (each with its simulation built; measured times where it has a
// Kineto trace or a Chakra graph with start times).
RunCollectives matchRunCollectives(const std::vector<std::shared_ptr<const RankRun>>& ranks);

}  // namespace sutra
