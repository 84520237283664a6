// SPDX-License-Identifier: MIT
#pragma once
// Which communication ops of several ranks are one collective (or one send with its recv), so the
// simulator can end them together: a collective ends when the last rank's op has arrived plus its
// transfer time, and a slow rank delays the others.
//
// Matching keys:
// - collectives: the process group, the collective, and the sequence number where the trace
//   gives one, else the op's place among this rank's ops of that process group and collective;
// - point to point: sender, receiver and tag, and the op's place among the sends (recvs) of that
//   sender, receiver and tag.
// Kineto: each NCCL/RCCL kernel, keyed by the record_param_comms (or c10d) op above the call that
// launched it: "Process Group Name" (or "pg_name"), "Collective name", "Seq" (or "seq") where
// present. Chakra: COMM_COLL_NODE keyed by its pg_name attribute and comm_type, COMM_SEND_NODE
// and COMM_RECV_NODE by comm_dst / comm_src and comm_tag.
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "link/launch_index.h"
#include "model/problems.h"
#include "simulate/sim_graph.h"
#include "simulate/simulator.h"

namespace sutra {

enum class CommKind : std::uint8_t { Collective, Send, Recv };

struct RankCommOp {
  std::uint32_t node = kNoNode;  // the op's node in its rank's graph
  CommKind kind = CommKind::Collective;
  std::string processGroup;         // collectives: the process group's name ("" if none given)
  std::string collective;           // collectives: what it does (all_reduce, or a comm_type number)
  std::optional<std::int64_t> seq;  // the trace's sequence number, where it gives one
  int peer = -1;                    // send: the receiving rank; recv: the sending rank
  std::int64_t tag = 0;             // point to point: the tag
  std::int64_t bytes = 0;           // what it moves per rank (ASTRA-sim's comm_size); 0: unknown
};

// The communication ops of one rank, in the order the rank issued them.
struct RankComms {
  int rank = 0;  // the rank number (peers refer to it)
  std::vector<RankCommOp> ops;
};

struct CollectiveMatching {
  std::vector<SimCollective> collectives;  // member ranks are indices into the span given
  std::size_t matchedOps = 0;              // ops in a collective with at least one other rank
  std::size_t unmatchedOps = 0;            // ops no other loaded rank has: they keep their own span
  std::vector<SimCollective::Member> unmatched;  // those ops
  ProblemLog problems;
};

// Matches across ranks (indices into `ranks` in the result). Ops that find no partner keep their
// own duration and are counted.
CollectiveMatching matchCollectives(std::span<const RankComms> ranks);

// Each rank's clock offset, so that its collectives end when the other ranks' do: a matched
// collective ends at one moment on every rank, but the ranks' clocks need not agree (separate
// hosts, or Chakra graphs that count from their own first op). A rank's offset is the median, over
// the collectives it shares with a rank already placed, of the difference of their measured ends;
// the first rank of each group of ranks that share collectives is at 0, and so is every rank with
// `measured` false (nothing measured: its times are laid out, not clocked).
std::vector<TimeNs> estimateClockOffsets(std::span<const SimGraph* const> graphs,
                                         const CollectiveMatching& matching,
                                         const std::vector<bool>& measured);

// The same, for any record of the collectives' ends: `endOf(rank, node)` is the measured end of
// that member (node as the matching's members name it) on its rank's clock.
std::vector<TimeNs> estimateClockOffsets(
    std::size_t rankCount, const CollectiveMatching& matching, const std::vector<bool>& measured,
    const std::function<TimeNs(std::uint32_t rank, std::uint32_t node)>& endOf);

// A communication kernel of a Kineto trace and its key (op.node unset), from the op that launched
// it; in the order the rank issued them (by launch time). Needs no simulation graph, so a rank's
// summary can match collectives with the trace dropped.
struct KinetoCommKernel {
  EventId kernel = kNoEvent;
  RankCommOp op;
};
std::vector<KinetoCommKernel> kinetoCommKernels(const Trace& trace, const LaunchIndex& launches);

// The communication kernels of a Kineto trace, with their keys from the ops that launched them.
std::vector<RankCommOp> kinetoCommOps(const Trace& trace, const LaunchIndex& launches,
                                      const SimGraph& graph);

}  // namespace sutra
