// SPDX-License-Identifier: MIT
#pragma once
// What a linked trace measured that is in no op's own time, in the form a graph simulator replays
// from durations and dependencies alone (ASTRA-sim, `sutra-cli simulate --graph-only`): a Chakra
// graph has no start times to honour, so each op's duration must be its own time and whatever
// else the host and the device spent must be a node or a dependency of its own.
//
// - Own time: a CPU op's exclusive time minus the time it was blocked in synchronizing calls
//   (the wait becomes the sync dependency); an annotation (ProfilerStep#N, "## backward ##",
//   record_function) has none: its exclusive time is time between ops (kept as host gaps) or time
//   its thread waited for other threads, and a graph simulator that runs one CPU op at a time
//   would add it to the other threads' work. An annotation with no op inside it that other
//   threads' ops did not cover for most of its time is the work itself and is an op like any
//   other; a collective backend's worker op (gloo's all_reduce on its own thread) always is.
// - Host gaps: on each thread, the time between consecutive ops that are not inside another op
//   (annotations do not count as ops here: they are moments the thread was seen at). Where one
//   other thread, and only one, ran ops for most of the gap, the thread was waiting for it (main
//   and autograd threads take turns): the gap waits on the latest of its ops that ended in the
//   gap, and only the time after that end (the wake-up) is the gap's own. The linker's
//   inter-thread dependencies are waits alike, and so are the syncs of an annotation around the
//   gap (a cudaDeviceSynchronize called between ops): the gap waits on the device op. A thread
//   that paused (1 ms or more) while a collective backend's worker ran collectives (gloo's, which
//   DDP's reducer waits for inside backward with no wait call in the trace) waited for those that
//   ended in the pause, and, where the collectives are communication nodes
//   (collectivesDoneAtResume: the graph for ASTRA-sim), those that ended soon after it resumed: the
//   work is marked done inside the worker's annotation, which on a busy machine can close later, so
//   the collective is taken as done at the resume (its own time ends there).
// - Device gaps: the time a device op started after everything it waited for (the previous op
//   on its stream, the op that launched it, the ops of other streams it waited on) had ended:
//   launch latency and the stream's idle time where they delayed it.
// Gaps under half a microsecond (Chakra durations are whole microseconds) are carried into the
// thread's or stream's next gap, so that their sum is kept.
#include <cstdint>
#include <vector>

#include "link/linked_trace.h"
#include "model/time.h"

namespace sutra::chakra {

struct HostGap {
  std::uint32_t beforeOp = 0;  // index into LinkedTrace::ops: the op that follows the gap
  TimeNs start = 0;            // when the gap's own time began
  TimeNs duration = 0;         // its own time; 0 where only the waits are left (under half a us)
  std::vector<std::uint32_t> waitsOn;  // ops (other threads', device) it waited for (indices)
};

struct DeviceGap {
  std::uint32_t beforeOp = 0;  // the device op that started after it
  TimeNs start = 0;
  TimeNs duration = 0;
};

struct MeasuredGaps {
  std::vector<TimeNs> ownDur;  // per op of LinkedTrace::ops: the duration a node should carry
  std::vector<HostGap> host;
  std::vector<DeviceGap> device;
  TimeNs blockedNs = 0;  // sync waits taken out of CPU ops' own time
};

// An op that only marks a region: a user annotation, ProfilerStep#N, "## name ##".
bool isAnnotationOp(const LinkedTrace& linked, const LinkedOp& op);
// A collective as a CPU backend's worker thread runs it (gloo's "gloo:all_reduce" annotation).
bool isCollectiveWorkerOp(const LinkedTrace& linked, const LinkedOp& op);

struct MeasureGapsOptions {
  // A collective backend's collective whose annotation closed soon after a thread that waited
  // for it resumed ends at the resume (its own time is cut there), and the thread waits on it.
  // For a graph whose collectives are communication nodes; elsewhere the worker thread's own
  // timeline would lose that time.
  bool collectivesDoneAtResume = false;
};

MeasuredGaps measureGaps(const LinkedTrace& linked, const MeasureGapsOptions& options = {});

}  // namespace sutra::chakra
