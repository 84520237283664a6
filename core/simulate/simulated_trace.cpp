// SPDX-License-Identifier: MIT
#include "simulate/simulated_trace.h"

#include <string>

#include "model/trace_builder.h"

namespace sutra {

SimulatedTrace buildSimulatedTrace(const SimGraph& graph, const SimRun& run) {
  const Trace& measured = *graph.trace;
  TraceBuilder builder(measured.path);
  Trace& t = builder.trace();
  t.meta = measured.meta;
  t.meta.traceName =
      measured.meta.traceName.empty() ? "simulated" : measured.meta.traceName + " (simulated)";

  // Lanes in the measured order, so that the layout reads the same; names by measured id.
  std::vector<LaneId> laneOf(measured.lanes.size(), LaneId(-1));
  std::vector<StringId> nameOf(measured.names.size(), 0), categoryOf(measured.categories.size(), 0);
  std::vector<bool> nameSeen(measured.names.size(), false),
      categorySeen(measured.categories.size(), false);
  // The builder orders the args it stores as the events are added: entry i is the i-th event
  // added, which maps the sorted events back to their measured ones after finish().
  std::vector<EventId> addedMeasured;
  std::string args;
  for (EventId e = 0; e < measured.events.size(); ++e) {
    const Event& m = measured.events[e];
    if (graph.trackOfLane.size() <= m.lane || graph.trackOfLane[m.lane] == kNoTrack) continue;
    const auto times = simulatedTimes(graph, run, e);
    if (!times) continue;
    const Lane& lane = measured.lanes[m.lane];
    if (laneOf[m.lane] == LaneId(-1)) {
      laneOf[m.lane] = builder.lane(lane.pid, lane.tid);
      if (!lane.processName.empty()) builder.setProcessName(lane.pid, lane.processName);
      if (!lane.threadName.empty()) builder.setThreadName(lane.pid, lane.tid, lane.threadName);
      builder.setProcessSortIndex(lane.pid, lane.processSortIndex);
      builder.setThreadSortIndex(lane.pid, lane.tid, lane.threadSortIndex);
    }
    if (!nameSeen[m.name]) {
      nameOf[m.name] = t.names.intern(measured.names.view(m.name));
      nameSeen[m.name] = true;
    }
    if (!categorySeen[m.category]) {
      categoryOf[m.category] =
          static_cast<std::uint16_t>(t.categories.intern(measured.categories.view(m.category)));
      categorySeen[m.category] = true;
    }
    Event s;
    s.start = times->first;
    s.dur = times->second - times->first;
    s.externalId = m.externalId;
    s.correlation = m.correlation;
    s.recordFunctionId = m.recordFunctionId;
    s.name = nameOf[m.name];
    s.category = static_cast<std::uint16_t>(categoryOf[m.category]);
    s.klass = m.klass;
    s.lane = laneOf[m.lane];
    args = "{\"measured_event\":" + std::to_string(e) +
           ",\"measured_ts_ns\":" + std::to_string(m.start) +
           ",\"measured_dur_ns\":" + std::to_string(m.dur) + "}";
    builder.addEvent(s, args);
    addedMeasured.push_back(e);
  }
  SimulatedTrace out;
  out.trace = builder.finish();
  out.measuredEvent.reserve(out.trace.events.size());
  for (const Event& s : out.trace.events) out.measuredEvent.push_back(addedMeasured[s.args]);
  return out;
}

}  // namespace sutra
