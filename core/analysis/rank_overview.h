// SPDX-License-Identifier: MIT
#pragma once
// The overview of a job's ranks, built from their summaries alone (rank_summary.h), so a job of
// hundreds of ranks never has two traces in memory: each rank's mean step, compute, exposed
// communication and idle time; each collective matched across ranks (the simulator's matching,
// collective_matching.h) with every member's arrival and wait on a common clock; and the ranks
// that hold the others up, with the evidence.
//
// Clocks: ranks on separate hosts need not agree, and a collective ends at one moment on every
// rank, so each rank's times are moved by estimateClockOffsets (the median difference of matched
// ends). A member's wait is the last member's arrival minus its own: the time it spent in the
// collective only because another rank was late.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/rank_summary.h"

namespace sutra {

struct RankOverview {
  struct Member {
    std::uint32_t rank = 0;  // index into ranks
    std::uint32_t comm = 0;  // index into that rank's comms
    TimeNs arrival = 0;      // on the common clock
    TimeNs wait = 0;         // last arrival - arrival
  };
  struct Collective {
    std::string processGroup;
    std::string collective;
    std::optional<std::int64_t> seq;  // of its first member
    std::int32_t step = -1;           // the step index of its first member
    std::vector<Member> members;      // in rank order
    std::uint32_t last = 0;           // the rank index that arrived last
    TimeNs delay = 0;                 // the last arrival minus the one before it
  };
  struct RankStats {
    std::uint32_t collectives = 0;   // matched collectives it is a member of
    std::uint32_t lastArrivals = 0;  // of those, where it arrived last
    TimeNs waitNs = 0;               // its own waits, summed
    TimeNs delayCausedNs = 0;        // the delays of the collectives where it arrived last
  };
  struct Delayed {
    std::uint32_t collective = 0;  // index into collectives
    TimeNs delay = 0;
  };
  struct Straggler {
    std::uint32_t rank = 0;      // index into ranks
    std::string reason;          // the evidence in words
    std::vector<Delayed> worst;  // the collectives it delayed most, largest first (at most 5)
  };

  std::vector<RankSummary> ranks;  // sorted by rank number
  std::vector<RankStats> stats;    // per rank
  std::vector<TimeNs> clockOffsets;
  std::vector<Collective> collectives;  // in the order of their first arrival
  std::vector<Straggler> stragglers;    // the worst first
  std::size_t unmatchedComms = 0;       // communication kernels no other rank has
  std::vector<std::string> notes;       // duplicates dropped, collectives left unmatched

  // The median over ranks of the mean step and of the mean compute time.
  TimeNs medianStep = 0;
  TimeNs medianCompute = 0;
};

// Builds the overview of `ranks` (any order; two summaries of one rank number keep the first and
// say so in the notes).
RankOverview buildRankOverview(std::vector<RankSummary> ranks);

}  // namespace sutra
