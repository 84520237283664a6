// SPDX-License-Identifier: MIT
#include "replicate_trace.h"

#include <algorithm>
#include <string>
#include <vector>

#include "model/trace_builder.h"

namespace sutra::bench {

Trace replicateTrace(const Trace& source, int copies) {
  TraceBuilder builder(source.path + " x" + std::to_string(copies));
  Trace& t = builder.trace();
  t.meta = source.meta;
  t.args = source.args;  // events keep their args index: every copy points at the same text
  std::vector<StringId> names(source.names.size());
  for (StringId i = 0; i < source.names.size(); ++i)
    names[i] = t.names.intern(source.names.view(i));
  std::vector<std::uint16_t> cats(source.categories.size());
  for (StringId i = 0; i < source.categories.size(); ++i)
    cats[i] = static_cast<std::uint16_t>(t.categories.intern(source.categories.view(i)));
  std::vector<LaneId> lanes;
  for (const auto& l : source.lanes) {
    lanes.push_back(builder.lane(l.pid, l.tid));
    if (!l.processName.empty()) builder.setProcessName(l.pid, l.processName);
    if (!l.threadName.empty()) builder.setThreadName(l.pid, l.tid, l.threadName);
  }
  std::int64_t maxCorrelation = 0;
  for (const auto& e : source.events) maxCorrelation = std::max(maxCorrelation, e.correlation);
  const TimeNs period = source.endNs - source.startNs + 1'000'000;
  t.events.reserve(source.events.size() * static_cast<std::size_t>(copies));
  for (int c = 0; c < copies; ++c) {
    for (const auto& src : source.events) {
      Event e = src;
      e.start += period * c;
      e.name = names[src.name];
      e.category = cats[src.category];
      e.lane = lanes[src.lane];
      e.parent = kNoEvent;
      if (e.correlation > 0) e.correlation += (maxCorrelation + 1) * c;
      builder.addEvent(e);
    }
  }
  return builder.finish();
}

}  // namespace sutra::bench
