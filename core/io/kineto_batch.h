// SPDX-License-Identifier: MIT
#pragma once
// Kineto's meaning of an event, applied on the worker that parsed it: a RawEvent becomes a model
// Event, a begin or end to pair, a flow end, an instant, counter samples or a metadata record, in
// a KinetoBatch whose names, categories and lanes have ids of its own. Only the merge
// (kineto_batch_merger.h) needs file order; this does not.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/kineto_event_fields.h"
#include "model/trace.h"
#include "model/trace_builder.h"

namespace sutra {

// One batch of events, with ids local to the batch.
struct KinetoBatch {
  struct LaneKey {
    std::string pid, tid;
  };
  struct CounterSample {
    std::string pid, series;
    TimeNs time;
    double value;
  };
  struct Metadata {  // a "ph": "M" event: process_name, thread_name, *_sort_index
    std::string kind, pid, tid, name;
    std::int64_t sortIndex = 0;
    bool hasSortIndex = false;
  };
  StringTable names, categories;
  std::vector<LaneKey> lanes;
  std::vector<Event> events;
  std::vector<std::pair<char, Event>> beginEnds;  // 'B'/'E' in file order: pairing needs it
  std::vector<FlowEnd> flowEnds;
  std::vector<Instant> instants;
  std::vector<CounterSample> counters;
  std::vector<Metadata> metadata;
  ArgsStore args;
  ProblemLog problems;
};

// Builds one KinetoBatch from the events of one JSON batch, in file order.
class KinetoBatchBuilder final : public RawEventSink {
 public:
  // `fileOffset`: where the batch starts, for problems' examples; `expectedEvents`: a reserve;
  // `eventArgs`: keep the complete events' args text (KinetoReadOptions::eventArgs).
  KinetoBatchBuilder(std::uint64_t fileOffset, std::size_t expectedEvents, bool eventArgs = true);
  void event(const RawEvent& raw) override;
  ProblemLog& problems() { return batch_.problems; }
  KinetoBatch take() { return std::move(batch_); }

 private:
  std::uint32_t laneOf(std::string_view pid, std::string_view tid);
  std::uint16_t categoryOf(std::string_view cat);
  StringId nameOf(std::string_view name) { return batch_.names.intern(name); }

  KinetoBatch batch_;
  std::uint64_t fileOffset_;
  bool eventArgs_;
  std::unordered_map<std::string, std::uint32_t> laneIds_;
  // The lanes of the latest events, the latest first (views into the batch): events come in runs
  // per thread and alternate between a few (a launch and its kernel), so most find their lane
  // here without a key built and hashed.
  struct RecentLane {
    std::string_view pid, tid;
    std::uint32_t id = 0;
  };
  std::array<RecentLane, 4> recentLanes_;
  std::size_t recentLaneCount_ = 0;
  // Most events have the category of the one before: it is compared before the table is hashed.
  std::string_view lastCategory_;
  std::uint16_t lastCategoryId_ = kNoCategory;
  static constexpr std::uint16_t kNoCategory = UINT16_MAX;
};

}  // namespace sutra
