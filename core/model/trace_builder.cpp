// SPDX-License-Identifier: MIT
#include "model/trace_builder.h"

#include <algorithm>
#include <charconv>
#include <numeric>

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
    trace_.counters.push_back(CounterSeries{std::string(name), std::string(pid), {}});
  }
  trace_.counters[it->second].samples.emplace_back(time, value);
}

void TraceBuilder::setProcessName(std::string_view pid, std::string_view name) {
  processNames_[std::string(pid)] = std::string(name);
}
void TraceBuilder::setThreadName(std::string_view pid, std::string_view tid, std::string_view name) {
  threadNames_[laneKey(pid, tid)] = std::string(name);
}
void TraceBuilder::setProcessSortIndex(std::string_view pid, std::int64_t index) {
  processSort_[std::string(pid)] = index;
}
void TraceBuilder::setThreadSortIndex(std::string_view pid, std::string_view tid,
                                      std::int64_t index) {
  threadSort_[laneKey(pid, tid)] = index;
}

Trace TraceBuilder::finish() {
  auto& events = trace_.events;
  // Group by lane, then by start; at equal starts the longer event first, so it becomes the parent.
  // The original index breaks the remaining ties: a child written before its parent with the same
  // start and duration keeps the file's order, which is the best evidence left.
  auto before = [](const Event& x, const Event& y) {
    if (x.lane != y.lane) return x.lane < y.lane;
    if (x.start != y.start) return x.start < y.start;
    return x.dur > y.dur;
  };
  if (!std::is_sorted(events.begin(), events.end(), before)) {
    // Grouped by lane with a counting sort (stable, so the file's order stays within a lane),
    // then each lane sorted by start only where it is not already: Kineto writes a thread's events
    // nearly in order, and the comparisons read events in increasing addresses.
    LaneId lanes = 0;  // events may name lanes the builder did not create (tests do)
    for (const Event& e : events) lanes = std::max(lanes, e.lane + 1);
    std::vector<std::uint32_t> laneStart(lanes + 1, 0);
    for (const Event& e : events) ++laneStart[e.lane + 1];
    for (std::size_t l = 1; l < laneStart.size(); ++l) laneStart[l] += laneStart[l - 1];
    std::vector<std::uint32_t> order(events.size());
    {
      std::vector<std::uint32_t> next(laneStart.begin(), laneStart.end() - 1);
      for (std::uint32_t i = 0; i < events.size(); ++i) order[next[events[i].lane]++] = i;
    }
    auto byStart = [&](std::uint32_t a, std::uint32_t b) {
      const Event& x = events[a];
      const Event& y = events[b];
      if (x.start != y.start) return x.start < y.start;
      return x.dur > y.dur;
    };
    for (std::size_t l = 0; l + 1 < laneStart.size(); ++l) {
      auto first = order.begin() + laneStart[l], last = order.begin() + laneStart[l + 1];
      // Stable: at equal start and duration the earlier in the file stays first (a child written
      // before its parent with the same times keeps the file's order, the best evidence left).
      if (!std::is_sorted(first, last, byStart)) std::stable_sort(first, last, byStart);
    }
    // Applies the order in place, one cycle of the permutation at a time: the sort costs 4 bytes
    // an event, not a second copy of every event (the reader's peak memory).
    for (std::uint32_t i = 0; i < order.size(); ++i) {
      if (order[i] == i) continue;
      const Event first = events[i];
      std::uint32_t at = i;
      for (;;) {
        const std::uint32_t from = order[at];
        order[at] = at;
        if (from == i) {
          events[at] = first;
          break;
        }
        // The next event to move is at order[from], anywhere in memory: fetched while this one
        // is copied (the moves were cache misses, about half of finish()'s time on large traces).
        __builtin_prefetch(&events[order[from]]);
        events[at] = events[from];
        at = from;
      }
    }
  }

  for (auto& lane : trace_.lanes) lane.firstEvent = lane.endEvent = 0;
  for (EventId i = 0; i < events.size();) {
    const LaneId laneId = events[i].lane;
    EventId j = i;
    while (j < events.size() && events[j].lane == laneId) ++j;
    trace_.lanes[laneId].firstEvent = i;
    trace_.lanes[laneId].endEvent = j;
    i = j;
  }
  for (auto& lane : trace_.lanes) nestLane(lane);

  if (!events.empty()) {
    trace_.startNs = events.front().start;
    trace_.endNs = events.front().end();
    for (const auto& e : events) {
      trace_.startNs = std::min(trace_.startNs, e.start);
      trace_.endNs = std::max(trace_.endNs, e.end());
    }
  }
  std::sort(trace_.instants.begin(), trace_.instants.end(),
            [](const Instant& a, const Instant& b) { return a.time < b.time; });
  for (auto& series : trace_.counters)
    std::stable_sort(series.samples.begin(), series.samples.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });

  bindFlows();
  classifyLanes();
  for (std::size_t i = 0; i < trace_.lanes.size(); ++i) {
    auto& lane = trace_.lanes[i];
    const auto key = laneKey(lane.pid, lane.tid);
    if (auto it = processNames_.find(lane.pid); it != processNames_.end()) lane.processName = it->second;
    if (auto it = threadNames_.find(key); it != threadNames_.end()) lane.threadName = it->second;
    if (auto it = processSort_.find(lane.pid); it != processSort_.end()) lane.processSortIndex = it->second;
    if (auto it = threadSort_.find(key); it != threadSort_.end()) lane.threadSortIndex = it->second;
  }
  return std::move(trace_);
}

void TraceBuilder::nestLane(Lane& lane) {
  auto& events = trace_.events;
  std::vector<EventId> stack;
  std::uint64_t overlaps = 0;
  EventId firstOverlap = kNoEvent;
  for (EventId i = lane.firstEvent; i < lane.endEvent; ++i) {
    Event& e = events[i];
    // An event starting where its predecessor ends follows it; but a zero-duration event holds the
    // zero-duration events at its own timestamp (integer-us traces are full of them).
    auto encloses = [](const Event& p, const Event& c) {
      if (p.dur > 0 && c.start >= p.end()) return false;
      return c.start >= p.start && c.end() <= p.end();
    };
    while (!stack.empty() && events[stack.back()].end() <= e.start && !encloses(events[stack.back()], e))
      stack.pop_back();
    if (!stack.empty() && e.end() > events[stack.back()].end()) {
      // Partial overlap with the enclosing event: counted, and drawn one level deeper.
      if (overlaps++ == 0) firstOverlap = i;
    }
    e.parent = stack.empty() ? kNoEvent : stack.back();
    e.depth = static_cast<std::uint16_t>(std::min<std::size_t>(stack.size(), UINT16_MAX));
    lane.maxDepth = std::max(lane.maxDepth, e.depth);
    stack.push_back(i);
  }
  if (overlaps > 0) {
    const Event& e = events[firstOverlap];
    trace_.problems.add(Severity::Info, "events overlapping on one lane without nesting", overlaps,
                        std::string(trace_.names.view(e.name)) + " on pid " + lane.pid + " tid " +
                            lane.tid + " at " + std::to_string(e.start) + " ns");
  }
}

void TraceBuilder::bindFlows() {
  // Pair "s" and "f" ends by (category, id): ids of different categories overlap.
  std::sort(flowEnds_.begin(), flowEnds_.end(), [](const FlowEnd& a, const FlowEnd& b) {
    if (a.category != b.category) return a.category < b.category;
    if (a.id != b.id) return a.id < b.id;
    return a.isStart > b.isStart;
  });
  auto bind = [&](const FlowEnd& end) -> EventId {
    if (end.lane >= trace_.lanes.size()) return kNoEvent;
    EventId e = trace_.innermostAt(end.lane, end.time);
    if (e != kNoEvent || end.bindEnclosing) return e;
    // Not enclosed: the next slice on the lane (Chrome's default binding).
    EventId next = trace_.lowerBound(end.lane, end.time);
    return next < trace_.lanes[end.lane].endEvent ? next : kNoEvent;
  };
  std::uint64_t unmatched = 0, unbound = 0;
  std::string unmatchedExample, unboundExample;
  for (std::size_t i = 0; i < flowEnds_.size();) {
    std::size_t j = i;
    while (j < flowEnds_.size() && flowEnds_[j].category == flowEnds_[i].category &&
           flowEnds_[j].id == flowEnds_[i].id)
      ++j;
    const FlowEnd* start = nullptr;
    const FlowEnd* finish = nullptr;
    for (std::size_t k = i; k < j; ++k) (flowEnds_[k].isStart ? start : finish) = &flowEnds_[k];
    if (!start || !finish) {
      if (unmatched++ == 0)
        unmatchedExample = std::string(trace_.categories.view(flowEnds_[i].category)) + " id " +
                           std::to_string(flowEnds_[i].id) + (start ? " has no end" : " has no start");
    } else {
      Flow flow{bind(*start), bind(*finish), start->id, start->category};
      if (flow.from == kNoEvent || flow.to == kNoEvent) {
        if (unbound++ == 0)
          unboundExample = std::string(trace_.categories.view(start->category)) + " id " +
                           std::to_string(start->id);
      } else {
        trace_.flows.push_back(flow);
      }
    }
    i = j;
  }
  if (unmatched) trace_.problems.add(Severity::Info, "flow with only one end", unmatched, unmatchedExample);
  if (unbound) trace_.problems.add(Severity::Warning, "flow end on no event", unbound, unboundExample);
  flowEnds_ = {};
}

void TraceBuilder::classifyLanes() {
  for (auto& lane : trace_.lanes) {
    bool device = false, host = false;
    for (EventId i = lane.firstEvent; i < lane.endEvent; ++i) {
      const auto k = trace_.events[i].klass;
      // cuda_sync and cuda_event records sit on the stream they concern: they say nothing of the
      // lane's kind. Kernels make it a device stream; framework ops or runtime calls a host thread.
      if (isDeviceSide(k)) device = true;
      else if (isFramework(k) || k == CategoryClass::Runtime || k == CategoryClass::Driver) host = true;
    }
    if (device && !host) {
      lane.kind = LaneKind::DeviceStream;
      lane.device = static_cast<std::int32_t>(lane.pidNumber);
      lane.stream = lane.tidNumber;
    } else if (!host && lane.endEvent > lane.firstEvent) {
      lane.kind = LaneKind::Other;
    }
  }
}

}  // namespace sutra
