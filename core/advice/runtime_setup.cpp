// SPDX-License-Identifier: MIT
#include "advice/runtime_setup.h"

#include <algorithm>
#include <map>
#include <unordered_set>

namespace sutra {
namespace {

bool isHostRuntimeCall(const Event& e) {
  return e.klass == CategoryClass::Runtime || e.klass == CategoryClass::Driver;
}

bool launchedNothing(const LaunchIndex& launches, EventId call) {
  return launches.deviceOpsOf(call).empty();
}

// Why such a call is slow, by what it does.
std::string causeOf(std::string_view name) {
  auto has = [&](std::string_view part) { return name.find(part) != std::string_view::npos; };
  if (has("HostAlloc") || has("HostRegister") || has("MallocHost"))
    return "pinning host memory takes the driver milliseconds a call: pin once, reuse the buffer";
  if (has("Malloc") || has("Free"))
    return "the caching allocator had no free block of the size asked for and went to the "
           "driver (a cudaFree synchronizes the device first); a warm-up step before the "
           "profiled ones, steady tensor sizes, or "
           "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
           "keeps it out of the steps";
  return "a runtime call that launches nothing and waits for no device work, yet holds the host: "
         "the first CUDA calls of a process create its context and load its modules (seconds), "
         "so profile after a warm-up step";
}

}  // namespace

std::vector<Finding> findRuntimeSetup(const AdviceScope& scope) {
  const Trace& trace = scope.trace;
  if (!scope.rank.launches()) return {};
  const LaunchIndex& launches = *scope.rank.launches();
  // Blocking calls are the blocking-sync finding's.
  std::unordered_set<EventId> waiters;
  if (scope.rank.syncs())
    for (const auto& dep : *scope.rank.syncs()) waiters.insert(dep.waiter);
  struct Group {
    std::vector<EventId> calls;
    TimeNs total = 0;
    std::vector<const Step*> steps;
  };
  std::map<std::string_view, Group> groups;
  for (EventId id = 0; id < trace.events.size(); ++id) {
    const Event& c = trace.events[id];
    if (!isHostRuntimeCall(c) || c.dur < kRuntimeSetupMinNs || waiters.contains(id) ||
        !launchedNothing(launches, id))
      continue;
    const std::string_view name = trace.name(c);
    if (name.find("Synchronize") != std::string_view::npos ||
        name.find("Memcpy") != std::string_view::npos ||
        name.find("Memset") != std::string_view::npos)
      continue;  // waits and copies: the blocking-sync and memory-copy findings'
    const Step* step = stepAt(scope.steps, c.start);
    if (!step) continue;
    Group& g = groups[name];
    g.calls.push_back(id);
    g.total += c.dur;
    noteStep(g.steps, step);
  }
  std::vector<Finding> findings;
  for (auto& [name, g] : groups) {
    Finding f = scope.newFinding(FindingKind::RuntimeSetup);
    f.occurrences = g.calls.size();
    f.steps = g.steps.size();
    f.measuredNs = scope.perStep(g.total);
    std::vector<EventId> callers;
    for (EventId id : g.calls) {
      const Event& c = trace.events[id];
      f.evidence.push_back(id);
      if (const EventId op = enclosingFrameworkOp(trace, id); op != kNoEvent) {
        f.evidence.push_back(op);
        callers.push_back(op);
      }
      f.fix.hostCuts.push_back({scope.rankIndex, c.lane, c.start, c.end(), c.dur});
    }
    f.title = "runtime set-up in the step: " + std::string(name) + " holds the host " +
              formatDuration(f.measuredNs) + " per step (" + std::to_string(g.calls.size()) +
              " calls of " + formatDuration(kRuntimeSetupMinNs) + " or more)";
    f.explanation = causeOf(name) + "." +
                    (callers.empty() ? "" : " Called in " + topNames(trace, callers, 3) + ".");
    f.price.model = "each call's host time removed (done once before the profiled steps)";
    findings.push_back(std::move(f));
  }
  return findings;
}

}  // namespace sutra
