// SPDX-License-Identifier: MIT
#pragma once
// How the tables number what a run holds across its ranks, computed once when a session opens
// (a few small arrays, nothing per event): a slice's id is its rank's first id plus its event
// index, a thread track's id (= its thread's utid) its rank's first lane plus its lane, a counter
// track's id follows every thread track (Perfetto's track ids are one space too), a process (upid)
// is a distinct pid of a rank. Slice ids therefore ascend with (rank, lane, start), the order of
// the model's arrays.
//
// The name order (which slices have which name, names in byte order) is built on the first query
// that can use it (GROUP BY name, ORDER BY name, name = '...') and kept: 4 bytes a slice.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "session/run.h"

namespace sutra::sql {

inline constexpr std::size_t kNoRank = SIZE_MAX;

struct RankSlot {
  std::shared_ptr<const RankRun> run;
  const Trace* trace = nullptr;        // null for a Chakra-only rank (no slices)
  std::int64_t eventBase = 0;          // slice id of its event 0
  std::int64_t laneBase = 0;           // track id (utid) of its lane 0
  std::int64_t flowBase = 0;           // flow id of its flow 0
  std::int64_t upidBase = 0;           // upid of its first process
  std::vector<std::int64_t> laneUpid;  // per lane: its process
  std::vector<TimeNs> laneEnd;         // per lane: the latest end of its events (thread.end_ts)
};

struct ProcessRow {
  std::size_t rank = 0;  // index into slots
  std::string_view pid;  // as written
  std::int64_t pidNumber = 0;
  std::string_view name;
};

struct CounterTrack {
  std::size_t rank = 0;
  const CounterSeries* series = nullptr;
  std::int64_t sampleBase = 0;  // counter id of its first sample
  std::int64_t upid = -1;       // the process of its pid, -1 where none
};

// Slices by name: names in byte order, each name's slices by id.
struct NameOrder {
  // Per rank, each interned name id's place in the order (equal names share a place).
  std::vector<std::vector<std::uint32_t>> placeOf;
  std::vector<std::uint32_t> start;   // place p's slices are slices[start[p], start[p + 1])
  std::vector<std::uint32_t> slices;  // slice ids
  std::size_t bytes() const;
};

class RunModel {
 public:
  explicit RunModel(const Run& run);

  const Run& run() const { return run_; }
  const std::vector<RankSlot>& slots() const { return slots_; }
  std::int64_t sliceCount() const { return slices_; }
  std::int64_t laneCount() const { return lanes_; }
  std::int64_t flowCount() const { return flows_; }
  std::int64_t counterSampleCount() const { return counterSamples_; }
  const std::vector<ProcessRow>& processes() const { return processes_; }
  const std::vector<CounterTrack>& counterTracks() const { return counterTracks_; }
  // A counter track's id: after every thread track.
  std::int64_t counterTrackId(std::size_t index) const {
    return lanes_ + static_cast<std::int64_t>(index);
  }

  // The rank (slot index) holding slice `id`, kNoRank where none does; `hint` is tried first.
  std::size_t rankOfSlice(std::int64_t id, std::size_t hint = 0) const;
  // The rank holding global lane `track`, kNoRank where none does.
  std::size_t rankOfLane(std::int64_t track) const;
  std::size_t rankOfFlow(std::int64_t id) const;
  // Slice id of event `e` of slot `rank`, or -1 for kNoEvent (a NULL in the tables).
  std::int64_t sliceId(std::size_t rank, EventId e) const {
    return e == kNoEvent ? -1 : slots_[rank].eventBase + e;
  }

  // Null where the run has 2^32 slices or more (the order is then not kept; scans do without).
  const NameOrder* nameOrder() const;
  std::size_t indexBytes() const;  // what nameOrder() holds once built

 private:
  Run run_;
  std::vector<RankSlot> slots_;
  std::vector<ProcessRow> processes_;
  std::vector<CounterTrack> counterTracks_;
  std::int64_t slices_ = 0, lanes_ = 0, flows_ = 0, counterSamples_ = 0;
  mutable std::unique_ptr<NameOrder> nameOrder_;
};

}  // namespace sutra::sql
