// SPDX-License-Identifier: MIT
#pragma once
// Synchronization dependencies of a Kineto trace, computed by Sutra itself for the whole trace:
// which device op each synchronizing host call waited on, and which device op each cross-stream
// wait made another stream's next op wait on.
//
// From `cuda_sync` events (HTA's rules, facebookresearch/HolisticTraceAnalysis
// critical_path_analysis.py), each matched to its runtime call by correlation:
// - Context Sync: the call waits on the last device op of every stream of its device;
// - Stream Sync: on the last device op of its stream;
// - Event Sync: on the last device op launched on `wait_on_stream` before the cudaEventRecord whose
//   correlation is `wait_on_cuda_event_record_corr_id`;
// - Stream Wait Event: the next device op launched on the waiting stream after the call waits on
//   that same op (the waiter is then a device op).
// "Last" and "next" are in launch order (the start of the launching call), which is the order the
// runtime enqueues work in; HTA orders by device start against the sync's end instead, which can
// pick an op launched after the sync was called. Where HTA only looks at launches from the calling
// thread for Stream Wait Event, Sutra takes the first launch onto that stream from any thread: the
// wait holds for all work enqueued after it.
//
// Blocking runtime calls with no cuda_sync event of their own (traces recorded without sync events,
// or calls the sync records do not cover) are kind BlockingCall:
// - DeviceSynchronize: the last op of every stream of the device the thread last launched to;
// - StreamSynchronize: the last op of the stream the calling thread last launched to (the call's
//   stream argument is not in the trace; PyTorch synchronizes its current stream);
// - EventSynchronize: the last op launched from the thread onto the stream it last launched to
//   before its latest cudaEventRecord;
// - Memcpy without Async (cudaMemcpy, cudaMemcpy2D, hipMemcpy ...): the copy it launched.
// - MTIA, PrivateUse1 and other non-CUDA backends' calls whose name holds "synchronize" (not
//   event synchronizes): on the stream in their args (stream_id / stream) for a stream
//   synchronize, else on every stream of their device, the last device op that started before
//   the call ended and ended by then, and was not launched after the call began (most of their
//   device ops have no launch correlation, so device time tells what the call waited for).
// cudaEventQuery (HTA lists it) polls without blocking, and cudaMemcpyAsync blocks only for
// pageable memory, which the trace does not say: neither is treated as blocking.
// Names are matched after a "cuda"/"hip" prefix, so ROCm's hip* calls count alike.
#include <cstdint>
#include <string_view>
#include <vector>

#include "link/launch_index.h"
#include "model/problems.h"
#include "model/trace.h"

namespace sutra {

enum class SyncKind : std::uint8_t {
  ContextSync,
  StreamSync,
  EventSync,
  StreamWaitEvent,
  BlockingCall
};
std::string_view syncKindName(SyncKind kind);

struct SyncDependency {
  SyncKind kind = SyncKind::StreamSync;
  EventId waiter = kNoEvent;  // the host runtime call that waited, or (StreamWaitEvent) a device op
  EventId waitedOn = kNoEvent;   // the device op it waited on
  EventId syncEvent = kNoEvent;  // the cuda_sync event that told us, kNoEvent for BlockingCall
};

// Sorted by (waiter, waitedOn); no duplicates. Sync events that cannot be resolved (no runtime call
// with their correlation, an event recorded nowhere, no launch before or after) are counted in
// `problems`.
std::vector<SyncDependency> findSyncDependencies(const Trace& trace, const LaunchIndex& launches,
                                                 ProblemLog* problems = nullptr);

}  // namespace sutra
