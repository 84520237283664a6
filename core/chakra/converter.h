// SPDX-License-Identifier: MIT
#pragma once
// Linked trace (one rank) -> Chakra execution trace, the graph ASTRA-sim and Chakra's tools run.
//
// Nodes: every CPU op of the linked trace (the ET's process and thread roots excepted) as a
// COMP_NODE with is_cpu_op = true, and every device op: NCCL/RCCL kernels as COMM_COLL_NODE with
// integer comm_type and comm_size (bytes), or COMM_SEND_NODE / COMM_RECV_NODE where the peer rank
// is known; the other kernels, copies and sets as COMP_NODE with is_cpu_op = false and their
// stream. Nodes with no edges are kept. Durations are measured (exclusive for CPU ops), start
// times kept (microseconds from the first op).
//
// Dependencies: ctrl_deps = the caller (CPU op) or the launcher (device op); data_deps = the
// previous CPU op of the same thread (serial order, in id order as Chakra's converter walks
// them), the launcher of a device op, the previous device op on the same stream, inter-thread
// dependencies, and synchronization dependencies (which Chakra's converter drops). A sync wait on
// work the waiting op launched itself becomes a dependency of the op that follows it. Every
// dependency resolves inside the file; none is on the node itself; cycles are broken, each counted
// as a problem naming its edge.
//
// Where Sutra differs from ASTRA-sim's needs by choice, options say so: METADATA nodes for
// process-group init (ASTRA-sim aborts on them; by default the process groups go into the
// GlobalMetadata attribute "pg_config"), and collectives ASTRA-sim rejects (reduce, gather,
// scatter, barrier), by default exported as COMP nodes with their measured duration.
#include <array>
#include <cstdint>
#include <map>

#include "chakra/et_file.h"
#include "link/linked_trace.h"
#include "util/result.h"

namespace sutra::chakra {

struct ConvertOptions {
  bool metadataNodes = false;                 // process_group:init as METADATA_NODE
  bool unsupportedCollectivesAsComm = false;  // reduce/gather/scatter/barrier as COMM_COLL_NODE
  bool streamOrder = true;                    // data dep: previous device op on the same stream
  bool estimateCosts = true;                  // num_ops and tensor_size attributes
};

enum class EdgeKind : std::uint8_t { Ctrl, Serial, Launch, Stream, InterThread, Sync, Count };
std::string_view edgeKindName(EdgeKind kind);

struct ConvertStats {
  std::map<int, std::size_t> nodesByType;  // ChakraProtoMsg::NodeType -> count
  std::array<std::size_t, static_cast<std::size_t>(EdgeKind::Count)> edges{};  // kept, by kind
  std::size_t cpuNodes = 0;
  std::size_t deviceNodes = 0;
  std::size_t cyclesBroken = 0;        // edges removed to break cycles
  std::size_t syncDepsRedirected = 0;  // waits on own work moved to the op that follows
  // Waits dropped: on own work with no op after it on the thread (nothing left to hold back), or
  // on a device op that starts after the waiting op ended (a false dependency).
  std::size_t syncDepsDropped = 0;
  std::size_t droppedDeps = 0;  // deps on ops that are not nodes (ET roots, skipped nodes)

  std::size_t edgeCount(EdgeKind k) const { return edges[static_cast<std::size_t>(k)]; }
  std::size_t totalEdges() const;
};

struct ChakraConversion {
  ChakraTrace trace;  // problems of the conversion in trace.problems
  ConvertStats stats;
};

// Fails only when the linked trace has no op to convert.
Result<ChakraConversion> convertToChakra(const LinkedTrace& linked,
                                         const ConvertOptions& options = {});

}  // namespace sutra::chakra
