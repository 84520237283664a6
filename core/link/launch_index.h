// SPDX-License-Identifier: MIT
#pragma once
// Who launched each device op of a Kineto trace: the host runtime call (cudaLaunchKernel,
// cudaGraphLaunch, cudaMemcpyAsync, hipLaunchKernel, mtia/privateuse1 runtime calls ...) that
// shares its `correlation` id, and the framework op (cpu_op, user_annotation, python_function) that
// encloses that call on its thread. Works for every backend: a launch call is any Runtime or Driver
// class event, a device op any Kernel, Memcpy or Memset class event.
//
// Why correlation and nesting, not External id: in the older real traces the External id on runtime
// calls equals the call's own correlation id and names an unrelated op (formats.md), so it is
// never used alone here.
#include <cstdint>
#include <span>
#include <vector>

#include "model/problems.h"
#include "model/trace.h"

namespace sutra {

struct DeviceLaunch {
  EventId deviceOp = kNoEvent;
  EventId runtimeCall = kNoEvent;  // kNoEvent where no call was found (reason counted)
  EventId launcher = kNoEvent;     // innermost framework op enclosing the call, else kNoEvent
};

class LaunchIndex {
 public:
  // Indexes every device op of `trace`. Device ops whose launch cannot be found are kept (with
  // runtimeCall = kNoEvent) and counted in `problems` by reason; so are launch calls that no
  // framework op encloses.
  static LaunchIndex build(const Trace& trace, ProblemLog* problems = nullptr);

  EventId runtimeCallOf(EventId deviceOp) const;
  EventId launcherOf(EventId deviceOp) const;
  // The device ops a runtime call launched, by device start: one for a kernel launch or a copy,
  // every kernel of the graph for cudaGraphLaunch, none for a call that launched nothing.
  std::span<const EventId> deviceOpsOf(EventId runtimeCall) const;
  // The runtime or driver call with this correlation id (e.g. the cudaEventRecord named by a
  // cuda_sync event's wait_on_cuda_event_record_corr_id), else kNoEvent.
  EventId runtimeCallByCorrelation(std::int64_t correlation) const;
  // One entry per device op of the trace, in event order (so grouped by stream, by start).
  const std::vector<DeviceLaunch>& launches() const { return launches_; }
  std::size_t linkedCount() const { return linked_; }

 private:
  std::vector<DeviceLaunch> launches_;  // sorted by deviceOp
  // Device ops grouped by their runtime call: callOrder_[i] is the call of deviceOrder_[i].
  std::vector<EventId> callOrder_;
  std::vector<EventId> deviceOrder_;
  // Runtime calls sorted by correlation.
  std::vector<std::pair<std::int64_t, EventId>> byCorrelation_;
  std::size_t linked_ = 0;
};

// The innermost framework op (cpu_op, user_annotation, python_function) enclosing `event` on its
// lane, or kNoEvent.
EventId enclosingFrameworkOp(const Trace& trace, EventId event);

}  // namespace sutra
