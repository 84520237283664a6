// SPDX-License-Identifier: MIT
#pragma once
// Linked trace (one rank) -> Chakra execution trace, the graph ASTRA-sim and Chakra's tools run.
//
// Nodes: every CPU op of the linked trace (the ET's process and thread roots excepted) as a
// COMP_NODE with is_cpu_op = true, and every device op: NCCL/RCCL kernels as COMM_COLL_NODE with
// integer comm_type and comm_size (bytes), or COMM_SEND_NODE / COMM_RECV_NODE where the peer rank
// is known; the other kernels, copies and sets as COMP_NODE with is_cpu_op = false and their
// stream. Nodes with no edges are kept. Durations are each op's own time and the time between
// ops is in "host gap" and "device gap" nodes (chakra/measured_gaps.h), so that a graph simulator
// replays what was measured from durations and dependencies alone; start times are kept too
// (microseconds from the first op).
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
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "chakra/et_file.h"
#include "link/linked_trace.h"
#include "util/result.h"

namespace sutra::chakra {

struct ConvertOptions {
  bool metadataNodes = false;                 // process_group:init as METADATA_NODE
  bool unsupportedCollectivesAsComm = false;  // reduce/gather/scatter/barrier as COMM_COLL_NODE
  bool streamOrder = true;                    // data dep: previous device op on the same stream
  bool estimateCosts = true;                  // num_ops and tensor_size attributes
  // Durations a graph simulator can replay (chakra/measured_gaps.h): own times (sync waits and
  // annotations out), with "host gap" and "device gap" nodes for the measured time between ops.
  // false: every CPU op's exclusive time, as Chakra's converter writes it, and no gap nodes.
  bool measuredGaps = true;
  // A link that matched fewer of the ET's ops than this is refused: the unmatched ops would be
  // nodes of 0 us and the graph would not be the run. 0 converts whatever matched (--force).
  double minMatchedEtRatio = 0.9;
  // The graph for ASTRA-sim rather than for Sutra's simulator: one host, one compute and one
  // communication timeline (chakra/astra_sim_graph.h), as its workload layer runs them. A CPU
  // backend's collectives (gloo's "gloo:all_reduce" on its worker threads) are then
  // COMM_COLL_NODEs, comm_size from their "Input Dims" and "Input type", that ASTRA-sim's
  // network costs, as NCCL's kernels are, rather than CPU work of their measured duration.
  bool astraSimTimelines = false;
};

// The names of the nodes that carry measured time between ops (see measured_gaps.h).
inline constexpr std::string_view kHostGapName = "host gap";
inline constexpr std::string_view kDeviceGapName = "device gap";

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
  // Inter-thread deps on an op that ended after the waiting op began: no "after the end of".
  std::size_t interThreadDepsDropped = 0;
  std::size_t hostGapNodes = 0;    // "host gap" nodes (measuredGaps)
  std::size_t deviceGapNodes = 0;  // "device gap" nodes
  TimeNs blockedNs = 0;            // sync waits taken out of CPU ops' durations

  std::size_t edgeCount(EdgeKind k) const { return edges[static_cast<std::size_t>(k)]; }
  std::size_t totalEdges() const;
};

struct ChakraConversion {
  ChakraTrace trace;  // problems of the conversion in trace.problems
  ConvertStats stats;
};

// A conversion as the .et file holds it: the nodes serialised as they are built, never kept as
// messages (for a large graph a message per node, an allocation per attribute, is most of the
// time and memory). The bytes are those serializeChakraTrace writes after the GlobalMetadata.
struct EncodedChakra {
  ChakraProtoMsg::GlobalMetadata meta;
  std::string nodes;  // each node after its varint32 length, sorted by id
  std::size_t nodeCount = 0;
  ProblemLog problems;
  ConvertStats stats;
};

// The share of the ET's ops that the link matched to a Kineto op (1 where there is no ET).
double matchedEtRatio(const LinkReport& report);

// Fails when the linked trace has no op to convert, and when its link matched fewer of the ET's
// ops than options.minMatchedEtRatio (the error names both files and the counts).
Result<ChakraConversion> convertToChakra(const LinkedTrace& linked,
                                         const ConvertOptions& options = {});
// Takes the bytes of an .et file in order, a chunk at a time; an error stops the encoding.
using ChakraBytesSink = std::function<Status(std::string_view)>;

// The same conversion encoded: the same bytes, problems and statistics. `eachNode` sees the
// facts of every node once (nodeFacts of the message convertToChakra builds, without building
// it), in the order convertToChakra's trace.nodes holds them. With a sink, the whole file's bytes
// (GlobalMetadata first) go to it as they are built, and `nodes` is left empty.
Result<EncodedChakra> encodeToChakra(const LinkedTrace& linked, const ConvertOptions& options = {},
                                     const std::function<void(const NodeFacts&)>& eachNode = {},
                                     const ChakraBytesSink& sink = {});

}  // namespace sutra::chakra
