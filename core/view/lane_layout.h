// SPDX-License-Identifier: MIT
#pragma once
// How a Trace's lanes are laid out as rows of the timeline, in one of two groupings:
// - Layers (the window's default), as Neuron Explorer's system view reads top to bottom: a
//   framework section (every host thread's framework track), a runtime section (every host
//   thread's runtime track), a hardware section per device ("GPU 0: NVIDIA H100", its streams),
//   then anything else (Kineto's spans) and the counters;
// - Processes: a group per process (host) or device, and inside it one track per thread and band.
// The bands, as Neuron Explorer shows them:
//   framework  (Python frames, annotations, aten ops: nested)       per host thread
//   runtime    (cuda/mtia/privateuse1 runtime, driver, sync calls)   per host thread
//   hardware   (kernels, memcpy, memset, device annotations)         per device stream
// Each track has one row per nesting depth inside its band; a row keeps its events sorted by
// start with a running maximum of their ends, so the visible window of a row is a binary search
// even where an event overlaps its neighbour. Built once per trace, off the GUI thread.
//
// Python frames (Kineto's python_function events, in a trace recorded with_stack=True) nest a
// dozen deep above the step and its ops. By default (LayoutOptions::foldPythonFrames) a thread's
// frames are folded into one band, the first row of its framework track, holding the outermost
// frames; the steps, annotations and ops nest among themselves in the rows under it. Unfolded,
// frames and ops share the rows by nesting depth, as recorded.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"
#include "view/widgets_names.h"

namespace sutra::view {

enum class Band : std::uint8_t { Framework, Runtime, Hardware, Other };
std::string_view bandName(Band band);
// The band an event of class `klass` is drawn in when it lies on a lane of kind `kind`.
Band bandOf(LaneKind kind, CategoryClass klass);

inline constexpr std::uint32_t kNoRow = UINT32_MAX;

// One box of a row's level of detail (LayoutRow::lod): a run of narrow events, or one event, in
// time; [first, first + count) indexes the row's events.
struct LodItem {
  TimeNs start = 0;
  TimeNs end = 0;
  std::uint32_t first = 0;
  std::uint32_t count = 0;
  EventId event = kNoEvent;  // count == 1: the event
  StringId name = 0;         // count == 1: its name
};

struct LayoutRow {
  std::uint32_t track = 0;
  // The row's place in its track, 0 the first: the nesting depth inside the band, plus one under
  // a band of folded Python frames.
  std::uint16_t depth = 0;
  // The track's folded Python frames: the row holds the outermost; deeper frames are in no row's
  // events, though rowOf() names this row for them (where a selection of one is drawn).
  bool pythonFrames = false;
  // A layout of tens of millions of events keeps these on disk (util/scratch_array.h): columns.
  Column<EventId> events;  // sorted by start
  Column<TimeNs> maxEnd;   // maxEnd[i]: the latest end among events[0..i]
  // A row of many events: its boxes as drawn lodNsPerPx nanoseconds a pixel, in memory, so that a
  // frame zoomed out at least that far reads them instead of the events (which may lie in a
  // mapped file whose pages were dropped). Empty for a row of fewer than kLodFromEvents.
  std::vector<LodItem> lod;
  double lodNsPerPx = 0;
  // A row whose events or whose trace lie in a file: its events in blocks of at most
  // kRowBlockEvents with no gap inside wider than blockNsPerPx (the trace's span over
  // kLodPixels), each as one item (its first start, the running maximum end at its last), in
  // memory. A frame finds its window in them without reading the row; zoomed out to blockNsPerPx
  // or further, a row without a level of detail is drawn from them (no gap a pixel wide is
  // hidden); and any row is drawn from them while the pages it needs are read in from disk
  // (timeline_geometry.h). Empty for a row held in memory.
  std::vector<LodItem> blocks;
  double blockNsPerPx = 0;

  // Index of the first event in [from, end) that ends at or after t (earlier ones are all over by
  // then), or `end`.
  std::size_t firstEndingAtOrAfter(TimeNs t, std::size_t from, std::size_t end) const;
  std::size_t firstEndingAtOrAfter(TimeNs t) const {
    return firstEndingAtOrAfter(t, 0, maxEnd.size());
  }
  // The first index in [from, end) whose running maximum end is beyond t, or `end`; galloping
  // from `from`, since callers walk a row left to right in small steps.
  std::size_t firstEndingAfter(std::size_t from, TimeNs t, std::size_t end) const;
  std::size_t firstEndingAfter(std::size_t from, TimeNs t) const {
    return firstEndingAfter(from, t, maxEnd.size());
  }
};

struct LayoutTrack {
  std::string label;  // "rank0 / pid 1234 / thread 5678 / framework"
  // The label without its group. Processes: "thread 5678 / framework"; Layers: "pid 1234 /
  // thread 5678 (MainThread)" in the host sections, "stream 7" under a device.
  std::string shortLabel;
  std::string threadName;  // from the trace's metadata, may be empty
  LaneId lane = 0;
  Band band = Band::Framework;
  std::uint32_t group = 0;
  std::uint32_t firstRow = 0;
  std::uint32_t rowCount = 0;
  std::uint64_t eventCount = 0;
  // Where the track's Python frames are folded into its first row: how deep they nest (the rows
  // they take unfolded); 0 where none are folded.
  std::uint16_t foldedPythonDepth = 0;
};

enum class LaneGrouping : std::uint8_t { Layers, Processes };

// How LaneLayout::build lays a trace out.
struct LayoutOptions {
  LaneGrouping grouping = LaneGrouping::Processes;
  // Each thread's Python frames (python_function) folded into one band, the first row of its
  // framework track, with the ops starting in the row under it; false: every frame depth its own
  // row, frames and ops nested together as recorded. Traces without Python frames lay out the
  // same either way.
  bool foldPythonFrames = true;
};

// "GPU 0: NVIDIA H100" (CUDA and ROCm), "MTIA 1", "NEURON 0: ...": the device as its trace names
// it.
std::string deviceLabel(const Trace& trace, std::int64_t device);

struct LayoutGroup {
  // Processes: "rank0 / pid 1234 (python3)" or "rank0 / GPU 0: NVIDIA H100"; Layers: "rank0 /
  // framework", "rank0 / runtime", "rank0 / GPU 0: NVIDIA H100", "rank0 / other", "rank0 /
  // counters"
  std::string label;
  bool device = false;
  std::vector<std::uint32_t> tracks;
  std::vector<std::uint32_t> counters;  // drawn as small graphs under the tracks
};

// A counter series of the trace (Kineto "ph":"C"), in the group of its process.
struct LayoutCounter {
  std::string label;       // the series name: "<counter>/<key>" or "<counter>"
  std::size_t series = 0;  // index into Trace::counters
  std::uint32_t group = 0;
  double low = 0, high = 0;  // its extent, for the graph's scale
};

class LaneLayout {
 public:
  // rankLabel prefixes every label ("rank0"); empty to leave it out.
  static LaneLayout build(const Trace& trace, const std::string& rankLabel,
                          const LayoutOptions& options);
  // The default options (Python frames folded) with `grouping`.
  static LaneLayout build(const Trace& trace, const std::string& rankLabel,
                          LaneGrouping grouping = LaneGrouping::Processes) {
    return build(trace, rankLabel, LayoutOptions{grouping});
  }
  const LayoutOptions& options() const { return options_; }
  LaneGrouping grouping() const { return options_.grouping; }
  // Whether any track holds folded Python frames (a with_stack trace laid out folded).
  bool hasFoldedPythonFrames() const;

  const std::vector<LayoutGroup>& groups() const { return groups_; }
  const std::vector<LayoutTrack>& tracks() const { return tracks_; }
  const std::vector<LayoutRow>& rows() const { return rows_; }
  const std::vector<LayoutCounter>& counters() const { return counters_; }
  std::uint32_t rowOf(EventId event) const {
    return event < rowOfEvent_.size() ? rowOfEvent_[event] : kNoRow;
  }
  // The track holding `lane`'s events of `band`, or UINT32_MAX.
  std::uint32_t trackOf(LaneId lane, Band band) const;
  std::uint64_t eventCount() const { return rowOfEvent_.size(); }

 private:
  struct Builder;  // build's steps (lane_layout.cpp)

  std::vector<LayoutGroup> groups_;
  std::vector<LayoutTrack> tracks_;
  std::vector<LayoutRow> rows_;
  std::vector<LayoutCounter> counters_;
  Column<std::uint32_t> rowOfEvent_;
  LayoutOptions options_;
};

}  // namespace sutra::view
