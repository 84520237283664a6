// SPDX-License-Identifier: MIT
#pragma once
// The critical path of a step: the chain of CPU ops, launches, device ops and syncs that bounds its
// length, after Holistic Trace Analysis' critical path analysis
// (facebookresearch/HolisticTraceAnalysis, hta/analyzers/critical_path_analysis.py).
//
// The graph, as HTA builds it: a start and an end node per event (host ops, runtime calls and
// device ops of the window). On each CPU thread, consecutive nodes in call-stack order are joined
// by edges weighted with the time between them (the time is attributed to the op it lies in);
// consecutive top-level ops by zero-weight dependency edges. On each stream, a device op follows
// its launch call (launch delay, where the stream was idle when the call started) or the previous
// op on the stream (the gap between them). Syncs (from the linker's findSyncDependencies) join
// the awaited device op's end to the waiting call's end, or, for Stream Wait Event, to the waiting
// stream's op start. The critical path is the longest path of this DAG.
//
// As in HTA, annotations (user_annotation; ProfilerStep#N written as an op by PyTorch <= 1.12) are
// no nodes: the time an annotation spends outside its ops is no CPU work on the path. A launch
// delay or a kernel-to-kernel gap is at most the time the stream stood idle before the op, ops
// launched before the window included (those are no nodes, but they kept the stream busy).
//
// Where Sutra differs from HTA, deliberately:
// - A sync edge weighs the time the call stayed blocked after the awaited op ended (its tail), not
//   0, and counts as "sync wait"; a blocking call's own span weighs 0 only where a sync edge
//   reaches it (so the path runs through the device work it waited on), HTA zeroes every call
//   named like a blocking one.
// - Syncs come from cuda_sync events and from blocking calls without them (see
// sync_dependencies.h). Every edge weighs at most the time between its nodes, so the path is never
// longer than the step.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "link/steps.h"
#include "link/sync_dependencies.h"
#include "model/trace.h"

namespace sutra {

enum class CriticalKind : std::uint8_t {
  Cpu,                  // time inside a host op or runtime call
  DeviceCompute,        // a device op's duration (kernels, memcpy, memset)
  DeviceCommunication,  // a collective kernel's duration (NCCL/RCCL)
  LaunchDelay,          // launch call start to device op start, the stream idle
  KernelGap,            // the gap between consecutive ops on one stream
  SyncWait,             // a blocking call still waiting after the op it waited on ended
  Dependency,           // zero-weight ordering edges (top-level ops, syncs that cost nothing)
};
std::string_view criticalKindName(CriticalKind kind);

struct CriticalSegment {
  CriticalKind kind = CriticalKind::Cpu;
  EventId event = kNoEvent;  // the event the time is attributed to (kNoEvent for dependencies)
  EventId from = kNoEvent;   // the events whose nodes the edge joins
  EventId to = kNoEvent;
  TimeNs start = 0;  // the edge's node times
  TimeNs end = 0;
  TimeNs weight = 0;  // its length on the path (<= end - start)
};

struct CriticalBreakdown {
  TimeNs cpu = 0, deviceCompute = 0, deviceCommunication = 0, launchDelay = 0, kernelGap = 0,
         syncWait = 0;
  TimeNs total() const {
    return cpu + deviceCompute + deviceCommunication + launchDelay + kernelGap + syncWait;
  }
};

struct CriticalPath {
  TimeWindow window;          // the events considered
  std::string label;          // what the window is, in words (describeWindow), set by the caller
  TimeNs start = 0, end = 0;  // the path's first and last node times
  TimeNs length = 0;          // sum of the segments' weights == breakdown.total()
  CriticalBreakdown breakdown;
  std::vector<CriticalSegment> segments;  // in path order
  std::size_t nodes = 0, edges = 0;       // the graph's size
};

// The critical path over the events of `window` (host ops starting in it, device ops launched in
// it; device ops with no launch in the trace only where the window is the whole trace); pass
// stepWindow(step) for a step.
CriticalPath criticalPath(const Trace& trace, const LaunchIndex& launches,
                          const std::vector<SyncDependency>& syncs, const TimeWindow& window);

nlohmann::json criticalPathJson(const Trace& trace, const CriticalPath& path,
                                std::size_t maxSegments = 0);
std::string criticalPathText(const Trace& trace, const CriticalPath& path,
                             std::size_t maxSegments = 40);

}  // namespace sutra
