// SPDX-License-Identifier: MIT
#pragma once
// The simulation graph of one rank, built once from a trace and replayed under any what-if knobs.
//
// Host threads are replayed, not rebuilt from exclusive times: each thread becomes a chain of
// points (its first event, every launch call, the start and the release of every blocking call,
// the ends and starts that inter-thread dependencies name), and the CPU time between two points is
// what the trace measured, gaps included, so that with no knobs every point lands where it was
// measured. Each device stream is a chain of its device ops in order. Edges carry a weight whose
// kind tells the knobs what to scale:
//   node value  = max over incoming edges (value of the source's end + weight), or its anchor;
//   a node's end = its value + its span (a device op's duration; 0 for host points).
// Every weight is measured so that the measured times satisfy every edge and at least one edge per
// node is tight: the graph replays the trace exactly, and a knob moves only what depends on it.
#include <cstdint>
#include <limits>
#include <vector>

#include "model/problems.h"
#include "model/time.h"
#include "model/trace.h"

namespace sutra {

inline constexpr TimeNs kNoAnchor = std::numeric_limits<TimeNs>::min();
inline constexpr std::uint32_t kNoNode = UINT32_MAX;
inline constexpr std::uint32_t kNoTrack = UINT32_MAX;

enum class SimNodeKind : std::uint8_t {
  HostPoint,    // a moment on a host thread (launch, block start, dependency end or start)
  HostRelease,  // the end of a blocking call: waits for its CPU part and what it waits on
  DeviceOp,     // a kernel, memcpy or memset on its stream
  HostOp,       // a host op with its own CPU time (a Chakra CPU node), scaled by the CPU speed
  // A Chakra "device gap" node: the time a device op waited after its dependencies had ended
  // (launch latency, the stream idle), scaled by the launch-latency knobs, not by durations.
  DeviceDelay,
};

enum class SimEdgeKind : std::uint8_t {
  Cpu,              // host CPU time between two points of one thread (scaled by the CPU speed)
  LaunchLatency,    // launch call start -> device op start
  WorkerIssue,      // a CPU collective's issuing op -> its worker thread's op (gloo): kept as
                    // measured, not a device's launch latency
  StreamOrder,      // previous op on the stream -> next op (the measured turnaround gap)
  HostSync,         // device op end -> release of the blocking call that waited on it
  StreamWaitEvent,  // device op end -> an op on another stream that waited on it
  InterThread,      // host op end -> start of an op on another thread that followed it
  GraphDependency,  // a Chakra ctrl or data dependency (or thread and stream order) between ops
};

struct SimNode {
  TimeNs measured = 0;            // the measured time of this point (device op: its start)
  TimeNs span = 0;                // device or host op: its measured duration; 0 for host points
  TimeNs anchor = kNoAnchor;      // earliest value regardless of edges (first point of a thread,
                                  // device ops with no launch); kNoAnchor where none
  EventId event = kNoEvent;       // DeviceOp, HostOp: the op; HostRelease: the blocking call
  EventId launchCall = kNoEvent;  // DeviceOp: the runtime call that launched it, if known
  std::uint32_t track = 0;        // index into SimGraph::tracks
  SimNodeKind kind = SimNodeKind::HostPoint;
};

struct SimEdge {
  std::uint32_t from = 0;
  std::uint32_t to = 0;
  TimeNs weight = 0;
  SimEdgeKind kind = SimEdgeKind::Cpu;
};

struct SimTrack {
  LaneId lane = 0;
  bool device = false;               // a device stream, else a host thread
  std::vector<std::uint32_t> nodes;  // in order; host points by measured time
  TimeNs lastEnd = 0;                // host thread: the latest measured end of its events
  std::vector<TimeNs> times;         // measured time of each node, for binary search
  // Every event of the track is a node with its own span (a Chakra graph): there is no host
  // time between points to map, and `times` need not be sorted.
  bool opNodes = false;
};

// What the graph is built from: launches and dependencies, found by the linker (LaunchIndex,
// findSyncDependencies) or taken from a linked trace. Kept free of those types so the same graph
// serves a Kineto trace alone, a linked trace and hand-built tests.
struct SimLaunch {
  EventId call = kNoEvent;      // the runtime call (host thread)
  EventId deviceOp = kNoEvent;  // a device op it launched
};
struct SimHostWait {  // a blocking host call (or its sync event, mapped to the call) waits for a
                      // device op
  EventId waiter = kNoEvent;
  EventId waitedOn = kNoEvent;
};
struct SimStreamWait {  // a device op starts only after a device op of another stream ended
  EventId waiter = kNoEvent;
  EventId waitedOn = kNoEvent;
};
struct SimThreadDep {  // a host op starts only after a host op of another thread ended
  EventId waiter = kNoEvent;
  EventId waitedOn = kNoEvent;
};

struct SimGraphInputs {
  std::vector<SimLaunch> launches;
  std::vector<SimHostWait> hostWaits;
  std::vector<SimStreamWait> streamWaits;
  std::vector<SimThreadDep> threadDeps;
  // A host thread idle for at least this long (or starting) was woken by another thread: it
  // resumes after the latest moment of the other threads before it, by the measured delay, and
  // its idle time is not replayed as CPU time. 0 disables. 1 ms, the gap chakra_trace_link uses
  // for its inter-thread dependencies.
  TimeNs wakeupGapNs = 1'000'000;
};

struct SimGraph {
  const Trace* trace = nullptr;  // not owned; must outlive the graph
  std::vector<SimNode> nodes;
  std::vector<SimEdge> edges;              // grouped by `from` (CSR)
  std::vector<std::uint32_t> edgeOffsets;  // edges of node n: [edgeOffsets[n], edgeOffsets[n+1])
  std::vector<std::uint32_t> inDegree;
  std::vector<SimTrack> tracks;
  std::vector<std::uint32_t> trackOfLane;  // lane -> track, kNoTrack for lanes not simulated
  std::vector<std::uint32_t>
      nodeOfDeviceOp;               // event -> its DeviceOp (or HostOp) node, else kNoNode
  std::uint64_t hostWaitsUsed = 0;  // blocking calls given their dependencies
  std::uint64_t streamWaitsUsed = 0;
  std::uint64_t threadDepsUsed = 0;
  std::uint64_t wakeupsInferred = 0;
  ProblemLog problems;  // dependencies that could not be used, and why

  std::size_t deviceOpCount() const;
};

// Builds the graph of `trace` (which must outlive it). Dependencies that would make the replay
// inconsistent (a wait on an op launched after the wait began, a wait on something that is not a
// device op) are left out and counted in graph.problems.
SimGraph buildSimGraph(const Trace& trace, const SimGraphInputs& inputs);

// Fills what follows from nodes, edges and tracks: the edges grouped by source (CSR), the
// in-degrees, and each track's node times.
void finishSimGraph(SimGraph& graph);

// The host threads and streams the simulator replays: a lane is a host thread when it holds
// framework ops, annotations, Python frames or runtime calls, a stream when it holds device ops.
bool isSimulatedHostEvent(CategoryClass klass);

}  // namespace sutra
