// SPDX-License-Identifier: MIT
#include "simulate/sim_inputs.h"

namespace sutra {

SimGraphInputs simInputsFromKineto(const LaunchIndex& launches,
                                   const std::vector<SyncDependency>& syncs) {
  SimGraphInputs inputs;
  inputs.launches.reserve(launches.linkedCount());
  for (const auto& l : launches.launches())
    if (l.runtimeCall != kNoEvent) inputs.launches.push_back({l.runtimeCall, l.deviceOp});
  for (const auto& s : syncs) {
    if (s.kind == SyncKind::StreamWaitEvent)
      inputs.streamWaits.push_back({s.waiter, s.waitedOn});
    else
      inputs.hostWaits.push_back({s.waiter, s.waitedOn});
  }
  return inputs;
}

void addLinkedDependencies(const LinkedTrace& linked, SimGraphInputs& inputs) {
  for (const auto& op : linked.ops) {
    if (!op.isCpu() || op.kinetoEvent == kNoEvent) continue;
    for (const auto id : op.interThreadDeps) {
      const LinkedOp* before = linked.find(id);
      if (before && before->kinetoEvent != kNoEvent)
        inputs.threadDeps.push_back({op.kinetoEvent, before->kinetoEvent});
    }
  }
}

}  // namespace sutra
