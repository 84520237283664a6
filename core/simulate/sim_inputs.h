// SPDX-License-Identifier: MIT
#pragma once
// The simulator's inputs from what the linker finds: launches from the LaunchIndex, sync
// dependencies from findSyncDependencies (one piece of code serves the linker, the analyses and
// the simulator), and for a linked trace its inter-thread dependencies.
#include <vector>

#include "link/launch_index.h"
#include "link/linked_trace.h"
#include "link/sync_dependencies.h"
#include "simulate/sim_graph.h"

namespace sutra {

// A Kineto trace alone: its launches, its blocking calls and sync events, its stream waits.
SimGraphInputs simInputsFromKineto(const LaunchIndex& launches,
                                   const std::vector<SyncDependency>& syncs);

// A CPU collective backend (gloo) runs each collective on its worker thread ("gloo:all_reduce")
// after the framework op that queued it ("c10d::allreduce_") returns: each worker op is given that
// op as its launch, so the collective moves with the thread that issued it. They pair first in,
// first out per collective, each with the earliest op not yet paired that started before it;
// a worker op with none (queued before the profiler started) keeps its measured time. The issuing
// thread's wait for the work (c10d::wait, or Work.wait's Python frame) waits on the worker op.
void addCpuCollectiveIssues(const Trace& trace, SimGraphInputs& inputs);

// A linked trace adds the inter-thread dependencies between its CPU ops (on the Kineto events
// they matched; ops with no Kineto event are skipped).
void addLinkedDependencies(const LinkedTrace& linked, SimGraphInputs& inputs);

}  // namespace sutra
