// SPDX-License-Identifier: MIT
#pragma once
// Hand-made Kineto traces for the linker's tests: events are added with names, categories, times
// and ids, and found again by name after TraceBuilder::finish() has reordered them.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "model/trace_builder.h"

namespace sutra::test {

class TraceFixture {
 public:
  TraceFixture() : builder_("fixture") {}

  // Adds an "X" event; pid/tid as Kineto writes them (device ops: pid = device, tid = stream).
  TraceFixture& add(std::string_view pid, std::string_view tid, std::string_view name,
                    std::string_view cat, TimeNs start, TimeNs dur,
                    std::int64_t correlation = kNoId, std::int64_t externalId = kNoId,
                    std::string_view args = {}, std::int64_t recordFunctionId = kNoId) {
    Event e;
    e.name = builder_.trace().names.intern(name);
    e.category = static_cast<std::uint16_t>(builder_.trace().categories.intern(cat));
    e.klass = classifyCategory(cat);
    e.lane = builder_.lane(pid, tid);
    e.start = start;
    e.dur = dur;
    e.correlation = correlation;
    e.externalId = externalId;
    e.recordFunctionId = recordFunctionId;
    builder_.addEvent(e, args);
    return *this;
  }
  TraceFixture& flow(std::int64_t id, std::string_view fromPid, std::string_view fromTid,
                     TimeNs fromTime, std::string_view toPid, std::string_view toTid,
                     TimeNs toTime) {
    const auto cat = static_cast<std::uint16_t>(builder_.trace().categories.intern("ac2g"));
    builder_.addFlowEnd({id, cat, builder_.lane(fromPid, fromTid), fromTime, true, false});
    builder_.addFlowEnd({id, cat, builder_.lane(toPid, toTid), toTime, false, true});
    return *this;
  }
  Trace finish() { return builder_.finish(); }

 private:
  TraceBuilder builder_;
};

// The `nth` event named `name` in event order (lane, then start); fails the test if absent.
inline EventId eventNamed(const Trace& trace, std::string_view name, int nth = 0) {
  for (EventId i = 0; i < trace.events.size(); ++i)
    if (trace.name(trace.events[i]) == name && nth-- == 0) return i;
  ADD_FAILURE() << "no event named " << name;
  return kNoEvent;
}

}  // namespace sutra::test
