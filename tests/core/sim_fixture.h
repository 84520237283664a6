// SPDX-License-Identifier: MIT
#pragma once
// Small hand-built traces for the simulator's tests: events are added by name, and looked up by
// name after TraceBuilder::finish() has reordered them.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "model/trace_builder.h"

namespace sutra::test {

class SimFixture {
 public:
  SimFixture() : builder_("mem") {}
  LaneId thread(const char* tid) { return builder_.lane("1", tid); }
  LaneId stream(const char* tid) { return builder_.lane("0", tid); }
  LaneId lane(const char* pid, const char* tid) { return builder_.lane(pid, tid); }
  void add(LaneId lane, const char* name, TimeNs start, TimeNs dur, const char* cat = "cpu_op",
           std::int64_t correlation = kNoId, std::string_view args = {}) {
    Event e;
    e.name = builder_.trace().names.intern(name);
    e.category = static_cast<std::uint16_t>(builder_.trace().categories.intern(cat));
    e.klass = classifyCategory(cat);
    e.lane = lane;
    e.start = start;
    e.dur = dur;
    e.correlation = correlation;
    builder_.addEvent(e, args);
  }
  Trace finish() { return builder_.finish(); }

 private:
  TraceBuilder builder_;
};

inline EventId eventNamed(const Trace& trace, std::string_view name) {
  for (EventId i = 0; i < trace.events.size(); ++i)
    if (trace.name(trace.events[i]) == name) return i;
  ADD_FAILURE() << "no event named " << name;
  return kNoEvent;
}

}  // namespace sutra::test
