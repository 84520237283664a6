// SPDX-License-Identifier: MIT
#include "model/trace_builder.h"

#include <algorithm>
#include <charconv>
#include <numeric>

#include "model/event_order.h"
#include "util/parallel_for.h"

namespace sutra {
namespace {

std::string laneKey(std::string_view pid, std::string_view tid) {
  std::string key;
  key.reserve(pid.size() + tid.size() + 1);
  key.append(pid).push_back('\x1f');
  key.append(tid);
  return key;
}

std::int64_t numberOr(std::string_view text, std::int64_t fallback) {
  std::int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return ec == std::errc() && ptr == text.data() + text.size() ? value : fallback;
}

}  // namespace

TraceBuilder::TraceBuilder(std::string path) { trace_.path = std::move(path); }

LaneId TraceBuilder::lane(std::string_view pid, std::string_view tid) {
  auto key = laneKey(pid, tid);
  if (auto it = laneIds_.find(key); it != laneIds_.end()) return it->second;
  Lane lane;
  lane.pid = pid;
  lane.tid = tid;
  lane.pidNumber = numberOr(pid, 0);
  lane.tidNumber = numberOr(tid, 0);
  const auto id = static_cast<LaneId>(trace_.lanes.size());
  trace_.lanes.push_back(std::move(lane));
  laneIds_.emplace(std::move(key), id);
  return id;
}

void TraceBuilder::addEvent(Event event, std::string_view args) {
  if (!args.empty()) event.args = trace_.args.add(args);
  trace_.events.push_back(event);
}

void TraceBuilder::addInstant(Instant instant, std::string_view args) {
  if (!args.empty()) instant.args = trace_.args.add(args);
  trace_.instants.push_back(instant);
}

void TraceBuilder::addCounterSample(std::string_view pid, std::string_view name, TimeNs time,
                                    double value) {
  auto key = laneKey(pid, name);
  auto it = counterIds_.find(key);
  if (it == counterIds_.end()) {
    it = counterIds_.emplace(std::move(key), trace_.counters.size()).first;
    trace_.counters.push_back(CounterSeries{std::string(name), std::string(pid), {}, {}});
  }
  trace_.counters[it->second].samples.emplace_back(time, value);
}

void TraceBuilder::setProcessName(std::string_view pid, std::string_view name) {
  processNames_[std::string(pid)] = std::string(name);
}
void TraceBuilder::setThreadName(std::string_view pid, std::string_view tid,
                                 std::string_view name) {
  threadNames_[laneKey(pid, tid)] = std::string(name);
}
void TraceBuilder::setProcessSortIndex(std::string_view pid, std::int64_t index) {
  processSort_[std::string(pid)] = index;
}
void TraceBuilder::setThreadSortIndex(std::string_view pid, std::string_view tid,
                                      std::int64_t index) {
  threadSort_[laneKey(pid, tid)] = index;
}

void TraceBuilder::finishLanes() {
  auto& events = trace_.events;
  groupByLane(events, trace_.lanes);
  laneNesting_.assign(trace_.lanes.size(), LaneNesting{});
  // Lanes are independent: each is finished on its own thread, the largest first.
  std::vector<LaneId> bySize(trace_.lanes.size());
  std::iota(bySize.begin(), bySize.end(), LaneId{0});
  std::stable_sort(bySize.begin(), bySize.end(), [&](LaneId a, LaneId b) {
    return trace_.lanes[a].endEvent - trace_.lanes[a].firstEvent >
           trace_.lanes[b].endEvent - trace_.lanes[b].firstEvent;
  });
  // The flow ends are sorted meanwhile, as the first task (they need no events).
  parallelFor(
      bySize.size() + 1,
      [&](std::size_t k) {
        if (k == 0) return sortFlowEnds();
        finishLane(bySize[k - 1]);
      },
      events.size() < kParallelFrom ? 1 : 0);
}

void TraceBuilder::placeLanes(const std::vector<std::size_t>& eventsPerLane) {
  std::size_t at = 0;
  for (std::size_t l = 0; l < trace_.lanes.size(); ++l) {
    Lane& lane = trace_.lanes[l];
    const std::size_t count = l < eventsPerLane.size() ? eventsPerLane[l] : 0;
    // A lane without events gets [0, 0), as groupByLane() gives it.
    lane.firstEvent = count == 0 ? 0 : static_cast<EventId>(at);
    lane.endEvent = count == 0 ? 0 : static_cast<EventId>(at + count);
    at += count;
  }
  trace_.events.reserve(at);
  laneNesting_.assign(trace_.lanes.size(), LaneNesting{});
  lanesPlaced_ = true;
}

void TraceBuilder::finishLane(LaneId id) {
  Lane& lane = trace_.lanes[id];
  sortLane(trace_.events.data() + lane.firstEvent, trace_.events.data() + lane.endEvent);
  laneNesting_[id] = nestLane(lane);
  classifyLane(lane);
}

Trace TraceBuilder::finish() {
  auto& events = trace_.events;
  if (!lanesPlaced_) finishLanes();
  const std::vector<LaneNesting>& nesting = laneNesting_;
  for (std::size_t l = 0; l < trace_.lanes.size(); ++l) {
    if (nesting[l].overlaps == 0) continue;
    const Lane& lane = trace_.lanes[l];
    const Event& e = events[nesting[l].firstOverlap];
    trace_.problems.add(Severity::Info, "events overlapping on one lane without nesting",
                        nesting[l].overlaps,
                        std::string(trace_.names.view(e.name)) + " on pid " + lane.pid + " tid " +
                            lane.tid + " at " + std::to_string(e.start) + " ns");
  }

  bool first = true;
  for (const LaneNesting& n : nesting) {  // the span from nestLane: one pass over the events fewer
    if (n.start > n.end) continue;        // a lane without events
    trace_.startNs = first ? n.start : std::min(trace_.startNs, n.start);
    trace_.endNs = first ? n.end : std::max(trace_.endNs, n.end);
    first = false;
  }
  std::sort(trace_.instants.begin(), trace_.instants.end(),
            [](const Instant& a, const Instant& b) { return a.time < b.time; });
  for (auto& series : trace_.counters)
    std::stable_sort(series.samples.begin(), series.samples.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });

  sortFlowEnds();  // where neither a reader nor finishLanes() did
  bindFlows();
  for (std::size_t i = 0; i < trace_.lanes.size(); ++i) {
    auto& lane = trace_.lanes[i];
    const auto key = laneKey(lane.pid, lane.tid);
    if (auto it = processNames_.find(lane.pid); it != processNames_.end())
      lane.processName = it->second;
    if (auto it = threadNames_.find(key); it != threadNames_.end()) lane.threadName = it->second;
    if (auto it = processSort_.find(lane.pid); it != processSort_.end())
      lane.processSortIndex = it->second;
    if (auto it = threadSort_.find(key); it != threadSort_.end()) lane.threadSortIndex = it->second;
  }
  return std::move(trace_);
}

TraceBuilder::LaneNesting TraceBuilder::nestLane(Lane& lane) {
  auto& events = trace_.events;
  std::vector<EventId> stack;
  LaneNesting nesting;
  for (EventId i = lane.firstEvent; i < lane.endEvent; ++i) {
    Event& e = events[i];
    nesting.start = std::min(nesting.start, e.start);
    nesting.end = std::max(nesting.end, e.end());
    // An event starting where its predecessor ends follows it; but a zero-duration event holds the
    // zero-duration events at its own timestamp (integer-us traces are full of them).
    auto encloses = [](const Event& p, const Event& c) {
      if (p.dur > 0 && c.start >= p.end()) return false;
      return c.start >= p.start && c.end() <= p.end();
    };
    while (!stack.empty() && events[stack.back()].end() <= e.start &&
           !encloses(events[stack.back()], e))
      stack.pop_back();
    if (!stack.empty() && e.end() > events[stack.back()].end()) {
      // Partial overlap with the enclosing event: counted, and drawn one level deeper.
      if (nesting.overlaps++ == 0) nesting.firstOverlap = i;
    }
    e.parent = stack.empty() ? kNoEvent : stack.back();
    e.depth = static_cast<std::uint16_t>(std::min<std::size_t>(stack.size(), UINT16_MAX));
    lane.maxDepth = std::max(lane.maxDepth, e.depth);
    stack.push_back(i);
  }
  return nesting;
}

void TraceBuilder::sortFlowEnds() {
  if (flowEndsSorted_) return;
  flowEndsSorted_ = true;
  flowEnds_.prefault(0, flowEnds_.size());  // spilled: mapped in one call, not a fault a page
  // Pair "s" and "f" ends by (category, id): ids of different categories overlap.
  std::sort(flowEnds_.begin(), flowEnds_.end(), [](const FlowEnd& a, const FlowEnd& b) {
    if (a.category != b.category) return a.category < b.category;
    if (a.id != b.id) return a.id < b.id;
    return a.isStart > b.isStart;
  });
}

void TraceBuilder::bindFlows() {
  // `hints`: per lane, where its last search ended. Ends sorted by id come in nearly the order of
  // time on each lane (ids grow as the run goes), so each search starts next to its answer.
  auto bind = [&](const FlowEnd& end, std::vector<EventId>& hints) -> EventId {
    if (end.lane >= trace_.lanes.size()) return kNoEvent;
    EventId e = trace_.innermostAt(end.lane, end.time, hints[end.lane]);
    if (e != kNoEvent || end.bindEnclosing) return e;
    // Not enclosed: the next slice on the lane (Chrome's default binding).
    EventId next = trace_.lowerBound(end.lane, end.time);
    return next < trace_.lanes[end.lane].endEvent ? next : kNoEvent;
  };
  auto sameFlow = [&](std::size_t i, std::size_t j) {
    return flowEnds_[i].category == flowEnds_[j].category && flowEnds_[i].id == flowEnds_[j].id;
  };
  // Each binding is two searches on the model, which is read-only by now: parts of the
  // sorted ends, cut between flows, are bound on all cores and joined in order.
  struct Part {
    std::size_t begin = 0, end = 0;
    std::size_t at = 0, flows = 0;  // where in trace_.flows its flows are written, and how many
    std::uint64_t unmatched = 0, unbound = 0;
    std::string unmatchedExample, unboundExample;
  };
  const std::size_t partCount = trace_.events.size() < kParallelFrom ? 1 : 16;
  std::vector<Part> parts(partCount);
  for (std::size_t k = 0; k < partCount; ++k) {
    std::size_t cut = k == 0 ? 0 : std::max(parts[k - 1].begin, flowEnds_.size() * k / partCount);
    while (cut > 0 && cut < flowEnds_.size() && sameFlow(cut - 1, cut)) ++cut;
    parts[k].begin = cut;
    if (k > 0) parts[k - 1].end = cut;
  }
  parts.back().end = flowEnds_.size();
  // Each part writes its flows straight into trace_.flows, in room for as many as it could have (a
  // flow has two ends); the parts are then closed up in order. A vector per part, joined after,
  // touched twice the fresh memory, and on a virtual machine a fresh page's first touch is dear.
  const std::size_t before = trace_.flows.size();
  std::size_t room = before;
  for (Part& part : parts) {
    part.at = room;
    room += (part.end - part.begin) / 2;
  }
  trace_.flows.resize(room);
  Flow* const out = trace_.flows.data();
  parallelFor(
      partCount,
      [&](std::size_t k) {
        Part& part = parts[k];
        std::vector<EventId> hints(trace_.lanes.size(), kNoEvent);
        for (std::size_t i = part.begin; i < part.end;) {
          std::size_t j = i;
          while (j < part.end && sameFlow(i, j)) ++j;
          const FlowEnd* start = nullptr;
          const FlowEnd* finish = nullptr;
          for (std::size_t f = i; f < j; ++f)
            (flowEnds_[f].isStart ? start : finish) = &flowEnds_[f];
          if (!start || !finish) {
            if (part.unmatched++ == 0)
              part.unmatchedExample = std::string(trace_.categories.view(flowEnds_[i].category)) +
                                      " id " + std::to_string(flowEnds_[i].id) +
                                      (start ? " has no end" : " has no start");
          } else {
            Flow flow{bind(*start, hints), bind(*finish, hints), start->id, start->category};
            if (flow.from == kNoEvent || flow.to == kNoEvent) {
              if (part.unbound++ == 0)
                part.unboundExample = std::string(trace_.categories.view(start->category)) +
                                      " id " + std::to_string(start->id);
            } else {
              out[part.at + part.flows++] = flow;
            }
          }
          i = j;
        }
      },
      partCount);
  std::uint64_t unmatched = 0, unbound = 0;
  std::string unmatchedExample, unboundExample;
  std::size_t bound = before;
  for (Part& part : parts) {
    std::copy(out + part.at, out + part.at + part.flows, out + bound);  // never ahead of its source
    bound += part.flows;
    if (unmatched == 0) unmatchedExample = std::move(part.unmatchedExample);
    if (unbound == 0) unboundExample = std::move(part.unboundExample);
    unmatched += part.unmatched;
    unbound += part.unbound;
  }
  trace_.flows.resize(bound);
  if (unmatched)
    trace_.problems.add(Severity::Info, "flow with only one end", unmatched, unmatchedExample);
  if (unbound)
    trace_.problems.add(Severity::Warning, "flow end on no event", unbound, unboundExample);
  flowEnds_.clear();
}

void TraceBuilder::classifyLane(Lane& lane) {
  bool device = false, host = false;
  for (EventId i = lane.firstEvent; i < lane.endEvent; ++i) {
    const auto k = trace_.events[i].klass;
    // cuda_sync and cuda_event records sit on the stream they concern: they say nothing of the
    // lane's kind. Kernels make it a device stream; framework ops or runtime calls a host thread.
    if (isDeviceSide(k))
      device = true;
    else if (isFramework(k) || k == CategoryClass::Runtime || k == CategoryClass::Driver)
      host = true;
  }
  if (device && !host) {
    lane.kind = LaneKind::DeviceStream;
    lane.device = static_cast<std::int32_t>(lane.pidNumber);
    // PyTorch <= 1.9 names a stream's lane "stream 7" (its events' args say stream 7).
    constexpr std::string_view kStreamPrefix = "stream ";
    lane.stream = lane.tid.starts_with(kStreamPrefix)
                      ? numberOr(std::string_view(lane.tid).substr(kStreamPrefix.size()), 0)
                      : lane.tidNumber;
  } else if (!host && lane.endEvent > lane.firstEvent) {
    lane.kind = LaneKind::Other;
  }
}

}  // namespace sutra
