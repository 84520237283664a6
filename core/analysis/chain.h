// SPDX-License-Identifier: MIT
#pragma once
// The dependency chain of one event, as a plain list of hops that the CLI prints and the GUI draws:
//
//   annotations / Python frames / framework ops (outermost first)  -- nesting
//     -> the runtime launch call                                   -- dispatch-to-launch gap
//       -> the device op(s) it launched                            -- launch-to-start queueing
//         -> the host call that synchronized on it                 -- sync wait
//           -> the CPU op that resumed after the sync              -- resume gap
//   plus, where an execution trace is linked, the producers of the focus op's input tensors and the
//   consumers of its outputs (ET data dependencies).
//
// Every hop but the first names the hop it follows (`previous`) and the gap between them, so
// several device ops of one launch (a CUDA graph) or several launches of one op form branches.
// Launch attribution and sync detection come from the linker (LaunchIndex, findSyncDependencies).
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "link/sync_dependencies.h"
#include "model/trace.h"

namespace sutra {

struct LinkedTrace;

enum class HopKind : std::uint8_t {
  Annotation,    // user_annotation (ProfilerStep#N, record_function)
  PythonFrame,   // python_function
  FrameworkOp,   // cpu_op
  RuntimeCall,   // the launch call (cudaLaunchKernel, cudaMemcpyAsync, ...)
  DeviceOp,      // kernel, memcpy, memset
  Sync,          // the host call that waited on the device op (or a device op made to wait on it)
  ResumedOp,     // the first framework op on the synchronizing thread after the sync returned
  DataProducer,  // ET: an op that wrote one of the focus op's input tensors
  DataConsumer,  // ET: an op that read one of the focus op's output tensors
};
std::string_view hopKindName(HopKind kind);

enum class GapKind : std::uint8_t {
  None,              // the first hop
  Nesting,           // inner op's start minus its enclosing op's start
  DispatchToLaunch,  // launch call's start minus the launching op's start
  LaunchToStart,     // device op's start minus the launch call's end (queueing; may be negative)
  SyncWait,          // the sync call's end minus the device op's end
  Resume,            // the resumed op's start minus the sync call's end
  StreamWait,        // the waiting device op's start minus the awaited op's end (Stream Wait Event)
  DataDependency,    // consumer's start minus producer's end (0 when either has no time)
};
std::string_view gapKindName(GapKind kind);

struct ChainHop {
  HopKind kind = HopKind::FrameworkOp;
  EventId event = kNoEvent;  // the Kineto event; kNoEvent for an ET op with no Kineto match
  std::int64_t etNode = -1;  // the ET node id for data-dependency hops (and the focus op)
  std::string name;
  TimeNs start = 0, end = 0;  // 0, 0 where the hop has no time
  int previous = -1;          // index of the hop this one follows, -1 for the first
  GapKind gapKind = GapKind::None;
  TimeNs gap = 0;
  bool focus = false;  // the event the chain was asked for
};

struct DependencyChain {
  EventId focus = kNoEvent;
  std::vector<ChainHop> hops;       // parents before children: a hop's `previous` is always earlier
  std::size_t omittedLaunches = 0;  // launches under the focus op beyond the limit, not listed
};

struct ChainOptions {
  std::size_t maxLaunches = 32;  // launches listed below a framework op (its whole subtree)
  std::size_t maxDataDeps = 16;  // producers and consumers listed, each
};

// The chain through `focus` (any event: an annotation, op, runtime call, device op or sync).
// `linked` (may be null) adds the ET data dependencies of the framework op in the chain.
DependencyChain dependencyChain(const Trace& trace, const LaunchIndex& launches,
                                const std::vector<SyncDependency>& syncs, EventId focus,
                                const LinkedTrace* linked = nullptr,
                                const ChainOptions& options = {});

// The k-th (0-based) event named `name`, in time order, or kNoEvent.
EventId findEventByName(const Trace& trace, std::string_view name, std::size_t nth = 0);

nlohmann::json chainJson(const Trace& trace, const DependencyChain& chain);
std::string chainText(const Trace& trace, const DependencyChain& chain);

}  // namespace sutra
