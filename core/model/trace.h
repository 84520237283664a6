// SPDX-License-Identifier: MIT
#pragma once
// The in-memory model of one rank's Kineto (Chrome-trace) timeline.
//
// Layout: `events` is grouped by lane and, inside a lane, sorted by start (then longer first), so
// a lane is a contiguous range and a visible window is a binary search. Nesting (depth, parent) is
// computed once by TraceBuilder::finish(). An event's index in `events` is its stable id.
// Names and categories are interned; the raw args of each event are kept as JSON text and parsed
// only on demand (the selection panel), never a million parsed objects.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/category.h"
#include "model/column.h"
#include "model/problems.h"
#include "model/string_table.h"
#include "model/time.h"
#include "util/file_region.h"

namespace sutra {

using EventId = std::uint32_t;
using LaneId = std::uint32_t;
inline constexpr EventId kNoEvent = UINT32_MAX;
inline constexpr std::uint32_t kNoArgs = UINT32_MAX;
inline constexpr std::int64_t kNoId = INT64_MIN;  // "the event carries no such id"

enum class LaneKind : std::uint8_t {
  HostThread,    // a CPU thread: framework ops, Python frames, runtime calls
  DeviceStream,  // one stream (queue) of one device: kernels, memcpy, memset, device annotations
  Other,         // e.g. the "Spans" process
};

struct Lane {
  std::string pid;  // as written (Kineto pids and tids may be strings)
  std::string tid;
  std::int64_t pidNumber = 0;  // numeric value where pid is a number, else 0
  std::int64_t tidNumber = 0;
  std::string processName;  // from "M" process_name / thread_name metadata
  std::string threadName;
  std::int64_t processSortIndex = 0;
  std::int64_t threadSortIndex = 0;
  LaneKind kind = LaneKind::HostThread;
  std::int32_t device = -1;  // DeviceStream: the device index
  std::int64_t stream = -1;  // DeviceStream: the stream id
  EventId firstEvent = 0;    // this lane's events are events[firstEvent, endEvent)
  EventId endEvent = 0;
  std::uint16_t maxDepth = 0;
};

struct Event {
  TimeNs start = 0;
  TimeNs dur = 0;
  std::int64_t externalId = kNoId;        // args "External id"
  std::int64_t correlation = kNoId;       // args "correlation" (runtime call <-> device op)
  std::int64_t recordFunctionId = kNoId;  // args "Record function id" (= ET rf_id)
  StringId name = 0;
  LaneId lane = 0;
  EventId parent = kNoEvent;
  std::uint32_t args = kNoArgs;  // index into Trace::args
  std::uint16_t category = 0;    // index into Trace::categories
  std::uint16_t depth = 0;
  CategoryClass klass = CategoryClass::Other;

  TimeNs end() const { return start + dur; }
};

struct Flow {
  EventId from = kNoEvent;  // the "s" end (e.g. the runtime launch)
  EventId to = kNoEvent;    // the "f" end (e.g. the kernel)
  std::int64_t id = 0;
  std::uint16_t category = 0;  // ac2g, fwdbwd, async_cpu_to_gpu ...
};

struct Instant {
  TimeNs time = 0;
  StringId name = 0;
  LaneId lane = 0;
  std::uint32_t args = kNoArgs;
  char scope = 't';  // 'g' global, 'p' process, 't' thread
};

// A point of a counter series that whoever made the series singled out (the memory curve's peak):
// the timeline marks it on the counter's lane with its label, shows the detail on hover and
// selects the event on a click.
struct CounterMark {
  TimeNs time = 0;
  double value = 0;
  std::string label;         // short, drawn beside the mark: "peak 1.21 GiB"
  std::string detail;        // lines for the tooltip
  EventId event = kNoEvent;  // the op at the mark, kNoEvent where none
};

struct CounterSeries {
  std::string name;  // "<counter name>/<series key>" or the counter name where it has one series
  std::string pid;
  std::vector<std::pair<TimeNs, double>> samples;  // sorted by time
  std::vector<CounterMark> marks;                  // by time; most series have none
};

// Raw JSON text of each event's args, in an arena of fixed-size blocks: a gigabyte of args grows
// block by block instead of reallocating one buffer (which would briefly need three times the
// space).
class ArgsStore {
 public:
  std::uint32_t add(std::string_view json);
  // Appends all of `other` by taking its blocks (a reader's per-batch store); returns the index
  // that other's entry 0 has here.
  std::uint32_t adopt(ArgsStore&& other);
  std::string_view get(std::uint32_t index) const {
    if (index < mappedCount_)
      return {mappedText_ + mappedOffsets_[index],
              mappedOffsets_[index + 1] - mappedOffsets_[index]};
    if (spill_) return spilled(index - mappedCount_);
    const Span& s = spans_[index - mappedCount_];
    return std::string_view(blocks_[s.block]).substr(s.offset, s.length);
  }
  std::size_t size() const { return mappedCount_ + spilledCount() + spans_.size(); }
  std::size_t bytes() const { return bytes_; }

  // The text of every entry in order, handed to `piece` a few MB at a time (an entry may straddle
  // two pieces), and the offsets of the entries in that text (size() + 1 values, from 0), a few MB
  // at a time: what a trace cache writes. Pages of a mapped or spilled store are unmapped once
  // passed, so writing out a store of gigabytes keeps little of it resident. `piece` returns false
  // to stop; so does the call.
  bool forEachTextPiece(const std::function<bool(std::string_view)>& piece) const;
  bool forEachOffsetPiece(const std::function<bool(std::span<const std::uint64_t>)>& piece) const;

  // An empty store whose entries go to unnamed temporary files in `folder` as they are added
  // (util/mapped_array.h's file-backed arrays): a streaming load's args, most of a trace's bytes,
  // never held in memory. Throws std::runtime_error where the folder takes no temporary file.
  // With `text` given, the text goes to that region of a file instead (a trace cache being
  // written: io/trace_cache.h keeps it where it lies); bytes() is then how far it reaches.
  // `written` (where given) sees the text as it goes to its file, in order (the cache checksums
  // it so, rather than reading it back).
  static ArgsStore spilling(const std::string& folder, std::optional<FileRegion> text = {},
                            std::function<void(std::string_view)> written = {});

  // An empty store that serves `count` entries from memory `owner` keeps alive (a mapped trace
  // cache, io/trace_cache.h): entry i is text[offsets[i], offsets[i + 1]). Nothing is copied, so
  // args text costs no memory until read; add() appends after them as usual.
  static ArgsStore mapped(std::shared_ptr<const void> owner, const char* text,
                          const std::uint64_t* offsets, std::size_t count);

 private:
  static constexpr std::size_t kBlockBytes = 4 << 20;
  struct Span {
    std::uint32_t block, offset, length;
  };
  std::vector<std::string> blocks_;  // each reserved once; an entry never straddles two
  std::vector<Span> spans_;
  std::size_t bytes_ = 0;
  std::shared_ptr<const void> mappedOwner_;  // keeps mappedText_ and mappedOffsets_ valid
  const char* mappedText_ = nullptr;
  const std::uint64_t* mappedOffsets_ = nullptr;
  std::uint32_t mappedCount_ = 0;
  // A spilling store's entries (after any mapped ones): text and offsets in temporary files.
  struct Spill;
  std::shared_ptr<Spill> spill_;
  std::string_view spilled(std::size_t index) const;
  std::size_t spilledCount() const;
};

struct DeviceInfo {
  std::int64_t id = 0;
  std::string name;
  std::int64_t totalGlobalMem = 0;
  std::int64_t numSms = 0;
  std::string rawJson;  // the whole deviceProperties entry
};

struct TraceMetadata {
  std::string schemaVersion;
  std::optional<std::int64_t> baseTimeNanoseconds;
  std::vector<DeviceInfo> devices;
  std::optional<int> rank;          // distributedInfo.rank
  std::optional<int> worldSize;     // distributedInfo.world_size
  std::string distributedBackend;   // distributedInfo.backend
  std::string distributedInfoJson;  // raw, with pg_config
  std::string traceName;
  // The device backend as torch's key_averages() names its columns: "CUDA" (also ROCm), "MTIA",
  // "XPU", "NEURON" for a PrivateUse1 backend named neuron ...; set by the reader.
  std::string deviceBackend = "CUDA";
  std::vector<std::pair<std::string, std::string>> other;  // other top-level keys, raw JSON values
};

struct Trace {
  std::string path;
  TraceMetadata meta;
  StringTable names;
  StringTable categories;
  std::vector<Lane> lanes;
  // Columns (model/column.h): in memory after a parse, mapped from disk when read from a trace
  // cache (io/trace_cache.h).
  Column<Event> events;
  Column<Flow> flows;
  Column<Instant> instants;
  std::vector<CounterSeries> counters;
  ArgsStore args;
  // False where the reader was told to keep no complete event's args (KinetoReadOptions::
  // eventArgs): argsJson() is then empty for them, and what reads args must say so.
  bool eventArgsRead = true;
  ProblemLog problems;
  TimeNs startNs = 0;  // earliest event start
  TimeNs endNs = 0;    // latest event end

  std::string_view name(const Event& e) const { return names.view(e.name); }
  std::string_view category(const Event& e) const { return categories.view(e.category); }
  std::string_view argsJson(const Event& e) const {
    return e.args == kNoArgs ? std::string_view{} : args.get(e.args);
  }
  std::span<const Event> laneEvents(LaneId lane) const {
    const auto& l = lanes[lane];
    return {events.data() + l.firstEvent, events.data() + l.endEvent};
  }
  // The first event of `lane` that ends after `t` may start before it: returns the index of the
  // first event whose start >= t, which callers widen by the lane's nesting (parents start
  // earlier).
  EventId lowerBound(LaneId lane, TimeNs t) const;
  // The innermost event on `lane` whose [start, end] contains t, or kNoEvent.
  EventId innermostAt(LaneId lane, TimeNs t) const;
  // The same, searched outwards from `hint` (where the previous call on this lane left it, or
  // kNoEvent) and updating it: a run of lookups at times that mostly grow costs a few steps each
  // instead of a binary search of the whole lane (flow binding does a million of them).
  EventId innermostAt(LaneId lane, TimeNs t, EventId& hint) const;
};

}  // namespace sutra
