// SPDX-License-Identifier: MIT
#pragma once
// Builds a Trace from events in any order (Kineto groups events per thread, not globally, and may
// write a child before its parent): readers add, finish() sorts each lane, computes nesting, binds
// flows to their events and classifies lanes. Used by every reader and by test fixtures. (The
// Kineto reader, which groups events by lane as it reads, places them itself: placeLanes().)
#include <limits>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/trace.h"
#include "util/mapped_array.h"

namespace sutra {

struct FlowEnd {
  std::int64_t id = 0;
  std::uint16_t category = 0;
  LaneId lane = 0;
  TimeNs time = 0;
  bool isStart = true;
  bool bindEnclosing = false;  // "bp":"e": bind to the enclosing slice, not the next one
};

class TraceBuilder {
 public:
  explicit TraceBuilder(std::string path);

  LaneId lane(std::string_view pid, std::string_view tid);
  // Adds a complete event; `args` is its raw JSON args text (may be empty).
  void addEvent(Event event, std::string_view args = {});
  void addFlowEnd(const FlowEnd& end) { flowEnds_.push_back(end); }
  // Many at once (a batch's): a spilled builder writes them to its file in one call.
  void addFlowEnds(const FlowEnd* ends, std::size_t count) { flowEnds_.appendInBulk(ends, count); }
  void addInstant(Instant instant, std::string_view args = {});
  void addCounterSample(std::string_view pid, std::string_view name, TimeNs time, double value);
  void setProcessName(std::string_view pid, std::string_view name);
  void setThreadName(std::string_view pid, std::string_view tid, std::string_view name);
  void setProcessSortIndex(std::string_view pid, std::int64_t index);
  void setThreadSortIndex(std::string_view pid, std::string_view tid, std::int64_t index);

  Trace& trace() { return trace_; }  // names, categories, meta and problems are filled directly
  // The flow ends go to an unnamed temporary file in `folder` (a streaming load: mapped_array.h).
  void spillFlowEndsTo(const std::string& folder) {
    flowEnds_ = MappedArray<FlowEnd>::fileBacked(folder);
  }
  // Sorts, nests, binds flows, classifies lanes. The builder is spent afterwards.
  Trace finish();
  // Sorts the flow ends for binding, once all are added, as finish() does where it was not done:
  // a reader may call it on another thread while it moves its events into trace().events (it
  // touches neither the events nor the lanes).
  void sortFlowEnds();
  // For a reader that groups events by lane as it reads, instead of adding them: sets each lane's
  // range from its count (lanes in ascending id order; lanes past the counts get none) and
  // reserves trace().events for them all. The reader then appends the events lane after lane and
  // calls finishLane() on every lane once its events are in place; finish() takes the lanes as
  // they are. Different lanes may be finished on different threads at once, also while later
  // lanes' events are still being appended (into the reserved space: nothing moves).
  void placeLanes(const std::vector<std::size_t>& eventsPerLane);
  // Sorts, nests and classifies one lane.
  void finishLane(LaneId lane);
  // Below this many events, finish() stays on the calling thread: starting threads costs more.
  static constexpr std::size_t kParallelFrom = 1 << 16;

 private:
  // What nesting a lane found: events that overlap their enclosing event without nesting in it
  // (how many, and the first), and the lane's time span (start > end: no events).
  struct LaneNesting {
    std::uint64_t overlaps = 0;
    EventId firstOverlap = kNoEvent;
    TimeNs start = std::numeric_limits<TimeNs>::max();
    TimeNs end = std::numeric_limits<TimeNs>::min();
  };
  // Sets depth and parent on a sorted lane; touches nothing outside it (lanes run in parallel).
  LaneNesting nestLane(Lane& lane);
  // Host thread, device stream or other, from the lane's events' categories.
  void classifyLane(Lane& lane);
  void bindFlows();
  // Groups the events by lane and finishes every lane, on all cores.
  void finishLanes();

  Trace trace_;
  std::unordered_map<std::string, LaneId> laneIds_;  // key: pid + '\x1f' + tid
  std::unordered_map<std::string, std::size_t> counterIds_;
  MappedArray<FlowEnd> flowEnds_;  // a million on a large trace: grown without copies
  bool flowEndsSorted_ = false;
  std::vector<LaneNesting> laneNesting_;  // by lane, from finishLane()
  bool lanesPlaced_ = false;              // by a reader (placeLanes()), which finishes them too
  // Metadata may come before or after a lane's events and may name threads that have none, so
  // names are kept by key and applied in finish().
  std::unordered_map<std::string, std::string> processNames_, threadNames_;
  std::unordered_map<std::string, std::int64_t> processSort_, threadSort_;
};

}  // namespace sutra
