// SPDX-License-Identifier: MIT
#pragma once
// The merge of parsed batches into the model, on the loading thread, in file order.
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "io/block_checksum.h"
#include "io/kineto_batch.h"
#include "io/kineto_reader.h"
#include "model/trace_builder.h"
#include "util/mapped_array.h"

namespace sutra {

// Folds batches, in file order, into one TraceBuilder: batch-local names, categories and lanes
// become the trace's, events are grouped by lane as they come, 'B' and 'E' are paired across
// batches, and finish() places, sorts and nests the lanes.
//
// Streaming (a spill folder given: KinetoReadOptions::spillFolder), nothing that grows with the
// file stays in memory: each lane's events, the flow ends and the args text go to unnamed
// temporary files as they are merged (written, not mapped: mapped_array.h), and finish() moves the
// lanes into one more such file, where they are sorted and nested in place. The model it returns
// then lies in those files (Column::inPlace, ArgsStore::spilling) until it is written out as a
// trace cache.
class KinetoBatchMerger {
 public:
  // Throws std::runtime_error where a spill folder takes no temporary file.
  // With `inPlace`, the args text and the events go where it says (kineto_reader.h).
  explicit KinetoBatchMerger(const std::string& path, std::string spillFolder = {},
                             KinetoReadOptions::InPlaceColumns* inPlace = nullptr);
  void merge(KinetoBatch&& batch);
  // A top-level member other than traceEvents, as raw JSON (kineto_metadata.h reads them).
  void member(std::string_view key, std::string_view raw) { members_.emplace_back(key, raw); }
  const std::vector<std::pair<std::string, std::string>>& members() const { return members_; }
  void problem(Severity severity, std::string_view what, std::uint64_t count, std::string example) {
    builder_.trace().problems.add(severity, what, count, std::move(example));
  }
  Trace finish();

 private:
  TraceBuilder builder_;
  // The events, remapped, one array per lane until finish() moves them lane after lane into the
  // model's vector of the exact size: the model wants them grouped by lane, and grouping them
  // here costs nothing where grouping them afterwards moved every event to a random place (a
  // quarter of the load's CPU time at 1 GB). Growth never holds two copies (mapped_array.h), and
  // neither does the move.
  std::vector<std::unique_ptr<MappedArray<Event>>> laneEvents_;
  MappedArray<Event>& laneEvents(LaneId lane);
  // Streaming: the batch being merged's events of each lane, written to the lane's file at the
  // end of the batch in one call (mapped_array.h's appendInBulk()); kept for the next batch.
  std::vector<std::vector<Event>> gathered_;
  // Streaming: a file per lane up to this many lanes (a descriptor each), memory for the rest.
  static constexpr LaneId kSpilledLanes = 256;
  std::string spillFolder_;
  KinetoReadOptions::InPlaceColumns* inPlace_ = nullptr;
  // With inPlace_: of the args text as it is written.
  std::shared_ptr<BlockChecksum> textChecksum_ = std::make_shared<BlockChecksum>();
  std::vector<CategoryClass> classOfCategory_;
  std::unordered_map<LaneId, std::vector<Event>> openBegins_;
  std::vector<std::pair<std::string, std::string>> members_;
};

}  // namespace sutra
