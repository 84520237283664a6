// SPDX-License-Identifier: MIT
#include "simulate/sim_inputs.h"

#include <algorithm>
#include <deque>
#include <map>

#include "chakra/collective.h"

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

namespace {

// A framework's wait for a collective's work: c10d's op, or the Python binding's frame where the
// profiler records stacks.
bool isWorkWait(std::string_view name) {
  return name == "c10d::wait" || name.starts_with("<built-in method wait of");
}

}  // namespace

void addCpuCollectiveIssues(const Trace& trace, SimGraphInputs& inputs) {
  // Most traces have no CPU collective backend: the interned names say so without a pass over
  // the events.
  bool anyWorker = false;
  for (StringId id = 0; id < trace.names.size() && !anyWorker; ++id)
    anyWorker = chakra::isCommWorkerName(trace.names.view(id));
  if (!anyWorker) return;
  std::vector<EventId> workers, issuers;
  for (EventId e = 0; e < trace.events.size(); ++e) {
    const Event& ev = trace.events[e];
    const std::string_view name = trace.name(ev);
    if (ev.klass == CategoryClass::UserAnnotation && chakra::isCommWorkerName(name))
      workers.push_back(e);
    else if (ev.klass == CategoryClass::CpuOp && name.starts_with("c10d::"))
      issuers.push_back(e);
  }
  if (workers.empty() || issuers.empty()) return;
  auto byStart = [&](EventId a, EventId b) {
    return trace.events[a].start < trace.events[b].start;
  };
  std::sort(workers.begin(), workers.end(), byStart);
  std::sort(issuers.begin(), issuers.end(), byStart);
  // Per collective, the issuing ops not yet paired, oldest first.
  std::map<chakra::Collective, std::deque<EventId>> waiting;
  std::size_t next = 0;
  for (EventId w : workers) {
    const auto kind = chakra::collectiveFromName(trace.name(trace.events[w]));
    const TimeNs start = trace.events[w].start;
    for (; next < issuers.size() && trace.events[issuers[next]].start <= start; ++next)
      if (const auto k = chakra::collectiveFromName(trace.name(trace.events[issuers[next]])))
        waiting[*k].push_back(issuers[next]);
    if (!kind) continue;
    auto& queue = waiting[*kind];
    if (queue.empty()) continue;
    const EventId issuer = queue.front();
    queue.pop_front();
    inputs.launches.push_back({issuer, w});
    // The issuing thread's wait for the work: the first wait after the issue that returned once
    // the worker was done.
    const Event& issued = trace.events[issuer];
    const TimeNs done = trace.events[w].end();
    const EventId laneEnd = trace.lanes[issued.lane].endEvent;
    for (EventId id = trace.lowerBound(issued.lane, issued.end());
         id < laneEnd && trace.events[id].start <= done; ++id) {
      const Event& e = trace.events[id];
      if (isWorkWait(trace.name(e)) && e.end() >= done) {
        inputs.hostWaits.push_back({id, w});
        break;
      }
    }
  }
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
