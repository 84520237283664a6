// SPDX-License-Identifier: MIT
#include "view/lane_layout.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <tuple>

#include "util/parallel_for.h"
#include "util/scratch_array.h"
#include "view/timeline_geometry.h"

namespace sutra::view {

std::string_view bandName(Band band) {
  switch (band) {
    case Band::Framework:
      return "framework";
    case Band::Runtime:
      return "runtime";
    case Band::Hardware:
      return "hardware";
    case Band::Other:
      return "other";
  }
  return "other";
}

Band bandOf(LaneKind kind, CategoryClass klass) {
  if (isDeviceSide(klass)) return Band::Hardware;
  // Kineto records cuda_sync spans on the stream they synchronised: they stay with its work.
  if (kind == LaneKind::DeviceStream) return Band::Hardware;
  if (isRuntime(klass)) return Band::Runtime;
  if (kind == LaneKind::Other) return Band::Other;
  return Band::Framework;
}

std::size_t LayoutRow::firstEndingAtOrAfter(TimeNs t, std::size_t from, std::size_t end) const {
  end = std::min(end, maxEnd.size());
  return static_cast<std::size_t>(
      std::lower_bound(maxEnd.begin() + static_cast<std::ptrdiff_t>(std::min(from, end)),
                       maxEnd.begin() + static_cast<std::ptrdiff_t>(end), t) -
      maxEnd.begin());
}

std::size_t LayoutRow::firstEndingAfter(std::size_t from, TimeNs t, std::size_t end) const {
  const std::size_t n = std::min(end, maxEnd.size());
  if (from >= n || maxEnd[from] > t) return from;
  // Gallop: maxEnd[lo] <= t; double the step until maxEnd[hi] > t, then bisect.
  std::size_t lo = from, step = 1, hi = from + 1;
  while (hi < n && maxEnd[hi] <= t) {
    lo = hi;
    step *= 2;
    hi = lo + step;
  }
  hi = std::min(hi, n);
  return static_cast<std::size_t>(std::upper_bound(maxEnd.begin() + static_cast<std::ptrdiff_t>(lo),
                                                   maxEnd.begin() + static_cast<std::ptrdiff_t>(hi),
                                                   t) -
                                  maxEnd.begin());
}

namespace {

constexpr std::size_t kBands = 4;

// The same nesting rule as TraceBuilder, applied to one band's events of a lane: an event that
// starts where its predecessor ends follows it, except under a zero-duration event at that time.
bool encloses(const Event& p, const Event& c) {
  if (p.dur > 0 && c.start >= p.end()) return false;
  return c.start >= p.start && c.end() <= p.end();
}

// Kineto writes device-wide synchronisation (cudaDeviceSynchronize, a context sync) as cuda_sync
// spans on the device's pid with tid -1, and sync records on a stream's tid: such a lane holds
// only sync or event records, no thread ran there, and it belongs with the device's streams.
bool isDeviceSyncLane(const Trace& trace, const Lane& lane) {
  if (lane.kind != LaneKind::Other || lane.endEvent == lane.firstEvent) return false;
  for (EventId i = lane.firstEvent; i < lane.endEvent; ++i) {
    const CategoryClass k = trace.events[i].klass;
    if (k != CategoryClass::Sync && k != CategoryClass::DeviceEvent) return false;
  }
  return true;
}

std::string processPart(const Trace& trace, const Lane& lane, bool deviceSync) {
  if (lane.kind == LaneKind::DeviceStream) return deviceLabel(trace, lane.device);
  if (deviceSync)
    return lane.pidNumber >= 0 ? deviceLabel(trace, lane.pidNumber) : "device " + lane.pid;
  return "pid " + lane.pid;
}

// A thread's own name: Kineto writes "thread 24248 (python)" for the thread it calls python, which
// would read "thread 24248 (thread 24248 (python))" after the thread's number.
std::string readableThreadName(const Lane& lane) {
  const std::string& name = lane.threadName;
  const std::string wrapped = "thread " + lane.tid + " (";
  if (name.size() > wrapped.size() && name.compare(0, wrapped.size(), wrapped) == 0 &&
      name.back() == ')')
    return name.substr(wrapped.size(), name.size() - wrapped.size() - 1);
  if (name == "thread " + lane.tid) return {};
  return name;
}

// The device a lane's work ran on: its stream's device, or a device sync lane's pid.
std::int64_t deviceOf(const Lane& lane) {
  return lane.kind == LaneKind::DeviceStream ? lane.device : lane.pidNumber;
}

std::string threadPart(const Lane& lane, bool deviceSync) {
  if (lane.kind == LaneKind::DeviceStream) return "stream " + std::to_string(lane.stream);
  if (deviceSync)
    return lane.tidNumber < 0 ? std::string("context sync") : "stream " + lane.tid + " sync";
  return "thread " + lane.tid;
}

}  // namespace

std::string deviceLabel(const Trace& trace, std::int64_t device) {
  const std::string& backend = trace.meta.deviceBackend;
  std::string label = (backend.empty() || backend == "CUDA" ? std::string("GPU") : backend) + " " +
                      std::to_string(device);
  for (const DeviceInfo& info : trace.meta.devices)
    if (info.id == device && !info.name.empty()) return label + ": " + info.name;
  return label;
}

bool LaneLayout::hasFoldedPythonFrames() const {
  return std::any_of(tracks_.begin(), tracks_.end(),
                     [](const LayoutTrack& t) { return t.foldedPythonDepth > 0; });
}

std::uint32_t LaneLayout::trackOf(LaneId lane, Band band) const {
  for (std::uint32_t i = 0; i < tracks_.size(); ++i)
    if (tracks_[i].lane == lane && tracks_[i].band == band) return i;
  return UINT32_MAX;
}

namespace {

// Groups: host processes first (by sort index, then pid), then devices, as Kineto orders them.
struct GroupKey {
  bool device;
  std::int64_t sortIndex;
  std::int64_t number;
  std::string id;
  bool operator<(const GroupKey& o) const {
    return std::tie(device, sortIndex, number, id) <
           std::tie(o.device, o.sortIndex, o.number, o.id);
  }
};

}  // namespace

// LaneLayout::build in its steps, over what they share.
struct LaneLayout::Builder {
  const Trace& trace;
  const Column<Event>& events;
  std::string prefix;  // "rank0 / ", or empty
  LaneLayout layout;
  std::vector<bool> deviceSync;  // per lane: a device's sync lane (isDeviceSyncLane)
  bool rowsOnDisk = false;       // the per-event arrays went to scratch files (scratch_array.h)
  // Depth of each event inside its band, and how many rows and events each (lane, band) has.
  // A folded Python frame's depth counts Python frames only; the rest of its band leaves them out.
  std::vector<std::uint16_t> bandDepth;
  std::vector<bool> foldedFrame;                 // per event: a Python frame folded into its band
  std::vector<std::uint16_t> foldedPythonDepth;  // per lane: how deep its folded frames nest
  std::vector<std::array<std::uint32_t, kBands>> rowsNeeded;
  std::vector<std::array<std::uint64_t, kBands>> counts;
  std::vector<std::array<std::uint32_t, kBands>> trackFirstRow;
  std::map<std::string, std::uint32_t> hostGroupOfPid;
  // A device's group by the pid of its lanes (Kineto puts a GPU's streams on pid <device>): its
  // counters (the memory curve) are drawn under its streams.
  std::map<std::string, std::uint32_t> deviceGroupOfPid;

  Builder(const Trace& t, const std::string& rankLabel, const LayoutOptions& options)
      : trace(t),
        events(t.events),
        prefix(rankLabel.empty() ? std::string() : rankLabel + " / "),
        deviceSync(t.lanes.size(), false),
        bandDepth(t.events.size(), 0),
        foldedFrame(options.foldPythonFrames ? t.events.size() : 0, false),
        foldedPythonDepth(t.lanes.size(), 0),
        rowsNeeded(t.lanes.size()),
        counts(t.lanes.size()),
        trackFirstRow(t.lanes.size()) {
    for (LaneId laneId = 0; laneId < trace.lanes.size(); ++laneId)
      deviceSync[laneId] = isDeviceSyncLane(trace, trace.lanes[laneId]);
    auto rowOf = std::make_shared<MappedArray<std::uint32_t>>(
        scratchArray<std::uint32_t>(events.size(), kNoRow));
    layout.rowOfEvent_ =
        Column<std::uint32_t>::inPlace(rowOf, rowOf->data(), events.size(), events.size());
    rowsOnDisk = rowOf->isFileBacked();
    layout.options_ = options;
  }

  // A device's sync lane is drawn with its hardware, as a stream's own sync records are.
  std::size_t bandIn(LaneId laneId, CategoryClass klass) const {
    return static_cast<std::size_t>(deviceSync[laneId] ? Band::Hardware
                                                       : bandOf(trace.lanes[laneId].kind, klass));
  }

  // Nests each lane's events per band (bandDepth, rowsNeeded, counts). Folded Python frames nest
  // on a stack of their own, and their band gets one row above the framework rows.
  void nestInBands() {
    constexpr auto kFramework = static_cast<std::size_t>(Band::Framework);
    const bool fold = !foldedFrame.empty();
    for (LaneId laneId = 0; laneId < trace.lanes.size(); ++laneId) {
      const Lane& lane = trace.lanes[laneId];
      rowsNeeded[laneId].fill(0);
      counts[laneId].fill(0);
      std::array<std::vector<EventId>, kBands> stacks;
      std::vector<EventId> frames;  // the folded Python frames open at the current event
      for (EventId i = lane.firstEvent; i < lane.endEvent; ++i) {
        const Event& e = events[i];
        const std::size_t b = bandIn(laneId, e.klass);
        const bool folded = fold && b == kFramework && e.klass == CategoryClass::PythonFunction;
        auto& stack = folded ? frames : stacks[b];
        while (!stack.empty() && events[stack.back()].end() <= e.start &&
               !encloses(events[stack.back()], e))
          stack.pop_back();
        bandDepth[i] =
            static_cast<std::uint16_t>(std::min<std::size_t>(stack.size(), UINT16_MAX - 1));
        stack.push_back(i);
        ++counts[laneId][b];
        if (folded) {
          foldedFrame[i] = true;
          foldedPythonDepth[laneId] =
              std::max<std::uint16_t>(foldedPythonDepth[laneId], bandDepth[i] + 1u);
          continue;
        }
        rowsNeeded[laneId][b] = std::max<std::uint32_t>(rowsNeeded[laneId][b], bandDepth[i] + 1u);
      }
      if (foldedPythonDepth[laneId] > 0) ++rowsNeeded[laneId][kFramework];  // the frames' band
    }
  }

  // The rows a (lane, band)'s own nesting starts at inside its track: 1 under folded frames.
  std::uint32_t rowsAbove(LaneId laneId, std::size_t band) const {
    return band == static_cast<std::size_t>(Band::Framework) && foldedPythonDepth[laneId] > 0 ? 1
                                                                                              : 0;
  }

  // The lanes holding events by group, in group order; inside a group in thread order.
  std::map<GroupKey, std::vector<LaneId>> groupLanes() const {
    std::map<GroupKey, std::vector<LaneId>> grouped;
    for (LaneId laneId = 0; laneId < trace.lanes.size(); ++laneId) {
      const Lane& lane = trace.lanes[laneId];
      if (lane.endEvent == lane.firstEvent) continue;
      const bool device = lane.kind == LaneKind::DeviceStream || deviceSync[laneId];
      GroupKey key{device, device ? 0 : lane.processSortIndex,
                   lane.kind == LaneKind::DeviceStream ? lane.device : lane.pidNumber,
                   device ? std::string() : lane.pid};
      grouped[key].push_back(laneId);
    }
    for (auto& [key, lanes] : grouped)
      std::sort(lanes.begin(), lanes.end(), [&](LaneId a, LaneId b) {
        const Lane& x = trace.lanes[a];
        const Lane& y = trace.lanes[b];
        // A device's streams first, its sync lanes after them.
        const bool sx = deviceSync[a], sy = deviceSync[b];
        return std::tie(sx, x.threadSortIndex, x.tidNumber, x.tid) <
               std::tie(sy, y.threadSortIndex, y.tidNumber, y.tid);
      });
    return grouped;
  }

  // A group of `lanes` (sorted, not empty), with a track per (lane, band) holding events and
  // their rows, still empty.
  void addGroup(bool device, const std::vector<LaneId>& lanes) {
    const Lane& first = trace.lanes[lanes.front()];
    LayoutGroup group;
    group.device = device;
    const std::string firstProcess = processPart(trace, first, deviceSync[lanes.front()]);
    group.label = prefix + firstProcess;
    // A device is named by its properties: Kineto gives its pid the host's process name.
    if (!device && !first.processName.empty() && first.processName != firstProcess)
      group.label += " (" + first.processName + ")";
    const auto groupIndex = static_cast<std::uint32_t>(layout.groups_.size());
    if (!device) hostGroupOfPid.emplace(first.pid, groupIndex);
    if (device)
      for (LaneId laneId : lanes) deviceGroupOfPid.emplace(trace.lanes[laneId].pid, groupIndex);
    for (LaneId laneId : lanes)
      for (std::size_t b = 0; b < kBands; ++b)
        if (rowsNeeded[laneId][b] > 0) group.tracks.push_back(addTrack(laneId, b, groupIndex));
    layout.groups_.push_back(std::move(group));
  }

  std::uint32_t addTrack(LaneId laneId, std::size_t band, std::uint32_t groupIndex) {
    const Lane& lane = trace.lanes[laneId];
    LayoutTrack track;
    track.lane = laneId;
    track.band = static_cast<Band>(band);
    track.group = groupIndex;
    track.threadName = lane.threadName;
    track.shortLabel =
        threadPart(lane, deviceSync[laneId]) + " / " + std::string(bandName(track.band));
    track.label = prefix + processPart(trace, lane, deviceSync[laneId]) + " / " + track.shortLabel;
    track.firstRow = static_cast<std::uint32_t>(layout.rows_.size());
    track.rowCount = rowsNeeded[laneId][band];
    track.eventCount = counts[laneId][band];
    if (rowsAbove(laneId, band) > 0) track.foldedPythonDepth = foldedPythonDepth[laneId];
    trackFirstRow[laneId][band] = track.firstRow;
    const auto trackIndex = static_cast<std::uint32_t>(layout.tracks_.size());
    for (std::uint32_t d = 0; d < track.rowCount; ++d) {
      LayoutRow row;
      row.track = trackIndex;
      row.depth = static_cast<std::uint16_t>(d);
      row.pythonFrames = d == 0 && track.foldedPythonDepth > 0;
      layout.rows_.push_back(std::move(row));
    }
    layout.tracks_.push_back(std::move(track));
    return trackIndex;
  }

  // The layer sections: every host lane's framework tracks, then every runtime track, then a
  // section per device with its streams and sync lanes, then what is left (spans); each in the
  // processes' order. Tracks are labelled by their thread (or stream), the section says the band.
  void addLayerGroups(const std::map<GroupKey, std::vector<LaneId>>& grouped) {
    std::vector<LaneId> host;
    std::map<std::int64_t, std::vector<LaneId>> devices;
    for (const auto& [key, lanes] : grouped)
      for (LaneId laneId : lanes) {
        if (key.device)
          devices[deviceOf(trace.lanes[laneId])].push_back(laneId);
        else
          host.push_back(laneId);
      }
    auto section = [&](const std::string& name, bool device, const std::vector<LaneId>& lanes,
                       std::initializer_list<Band> bands) {
      LayoutGroup group;
      group.device = device;
      group.label = prefix + name;
      const auto groupIndex = static_cast<std::uint32_t>(layout.groups_.size());
      for (Band band : bands)
        for (LaneId laneId : lanes)
          if (rowsNeeded[laneId][static_cast<std::size_t>(band)] > 0)
            group.tracks.push_back(addTrack(laneId, static_cast<std::size_t>(band), groupIndex));
      if (group.tracks.empty()) return;
      if (device)
        for (LaneId laneId : lanes) deviceGroupOfPid.emplace(trace.lanes[laneId].pid, groupIndex);
      for (std::uint32_t t : group.tracks) {
        LayoutTrack& track = layout.tracks_[t];
        const Lane& lane = trace.lanes[track.lane];
        track.shortLabel = device ? threadPart(lane, deviceSync[track.lane])
                                  : "pid " + lane.pid + " / " + threadPart(lane, false);
        if (const std::string name = readableThreadName(lane); !device && !name.empty())
          track.shortLabel += " (" + name + ")";
        if (band(track) != Band::Framework && band(track) != Band::Runtime && !device)
          track.shortLabel += " / " + std::string(bandName(track.band));
        track.label = group.label + " / " + track.shortLabel;
      }
      layout.groups_.push_back(std::move(group));
    };
    section("framework", false, host, {Band::Framework});
    section("runtime", false, host, {Band::Runtime});
    for (const auto& [id, lanes] : devices)
      section(deviceLabel(trace, id), true, lanes,
              {Band::Hardware, Band::Framework, Band::Runtime, Band::Other});
    section("other", false, host, {Band::Hardware, Band::Other});
  }
  static Band band(const LayoutTrack& track) { return track.band; }

  // Counters go with their process (Processes), or in a section of their own (Layers); a process
  // with counters only gets a group of its own.
  void addCounters(bool ownSection) {
    // A counter on a device's pid (its memory curve) goes under the device's streams.
    for (const auto& [pid, group] : deviceGroupOfPid)
      if (ownSection || hostGroupOfPid.find(pid) == hostGroupOfPid.end())
        hostGroupOfPid[pid] = group;
    if (ownSection) {
      // One section for the other counters: every process's map to it.
      const auto index = static_cast<std::uint32_t>(layout.groups_.size());
      bool any = false;
      for (const CounterSeries& series : trace.counters)
        if (!series.samples.empty() &&
            deviceGroupOfPid.find(series.pid) == deviceGroupOfPid.end()) {
          hostGroupOfPid[series.pid] = index;
          any = true;
        }
      if (any) layout.groups_.push_back({prefix + "counters", false, {}, {}});
    }
    addCountersToGroups();
  }

  void addCountersToGroups() {
    for (std::size_t c = 0; c < trace.counters.size(); ++c) {
      const CounterSeries& series = trace.counters[c];
      if (series.samples.empty()) continue;
      auto [it, added] =
          hostGroupOfPid.emplace(series.pid, static_cast<std::uint32_t>(layout.groups_.size()));
      if (added) layout.groups_.push_back({prefix + "pid " + series.pid, false, {}, {}});
      LayoutCounter counter{series.name, c, it->second, series.samples.front().second,
                            series.samples.front().second};
      for (const auto& [time, value] : series.samples) {
        counter.low = std::min(counter.low, value);
        counter.high = std::max(counter.high, value);
      }
      layout.groups_[it->second].counters.push_back(
          static_cast<std::uint32_t>(layout.counters_.size()));
      layout.counters_.push_back(std::move(counter));
    }
  }

  // Fills the rows in event order: each lane's events are sorted by start, so every row is too.
  // A folded frame maps to its band's row; only the outermost are drawn there.
  // The rows' columns lie in one scratch array each, every row a slice of it, counted first.
  void fillRows() {
    std::vector<std::size_t> rowEvents(layout.rows_.size(), 0);
    for (LaneId laneId = 0; laneId < trace.lanes.size(); ++laneId) {
      const Lane& lane = trace.lanes[laneId];
      for (EventId i = lane.firstEvent; i < lane.endEvent; ++i) {
        const std::size_t band = bandIn(laneId, events[i].klass);
        const bool folded = !foldedFrame.empty() && foldedFrame[i];
        const std::uint32_t rowIndex =
            trackFirstRow[laneId][band] + (folded ? 0 : rowsAbove(laneId, band) + bandDepth[i]);
        layout.rowOfEvent_[i] = rowIndex;
        if (folded && bandDepth[i] > 0) continue;
        ++rowEvents[rowIndex];
      }
    }
    std::size_t total = 0;
    for (std::size_t count : rowEvents) total += count;
    auto ids = std::make_shared<MappedArray<EventId>>(scratchArray<EventId>(total, kNoEvent));
    auto ends = std::make_shared<MappedArray<TimeNs>>(scratchArray<TimeNs>(total, 0));
    std::size_t at = 0;
    for (std::size_t r = 0; r < rowEvents.size(); ++r) {
      LayoutRow& row = layout.rows_[r];
      row.events = Column<EventId>::inPlace(ids, ids->data() + at, rowEvents[r]);
      row.maxEnd = Column<TimeNs>::inPlace(ends, ends->data() + at, rowEvents[r]);
      at += rowEvents[r];
    }
    // On disk (a trace mapped from its cache, or rows in scratch files), every row also gets its
    // blocks (timeline_geometry.h), in this same pass over the events.
    const bool blocks = events.isMapped() || rowsOnDisk;
    const double blockNsPerPx = static_cast<double>(trace.endNs - trace.startNs) / kLodPixels;
    if (blocks)
      for (std::size_t r = 0; r < rowEvents.size(); ++r) {
        layout.rows_[r].blocks.reserve((rowEvents[r] + kRowBlockEvents - 1) / kRowBlockEvents);
        layout.rows_[r].blockNsPerPx = blockNsPerPx;
      }
    for (LaneId laneId = 0; laneId < trace.lanes.size(); ++laneId) {
      const Lane& lane = trace.lanes[laneId];
      for (EventId i = lane.firstEvent; i < lane.endEvent; ++i) {
        if (!foldedFrame.empty() && foldedFrame[i] && bandDepth[i] > 0) continue;
        LayoutRow& row = layout.rows_[layout.rowOfEvent_[i]];
        const Event& e = events[i];
        const TimeNs end = e.end();
        const auto index = static_cast<std::uint32_t>(row.events.size());
        row.maxEnd.push_back(row.maxEnd.empty() ? end : std::max(row.maxEnd.back(), end));
        row.events.push_back(i);
        if (!blocks) continue;
        if (row.blocks.empty() || row.blocks.back().count == kRowBlockEvents ||
            static_cast<double>(e.start - row.blocks.back().end) > blockNsPerPx)
          row.blocks.push_back({e.start, 0, index, 0, i, e.name});  // event, name: while alone
        LodItem& block = row.blocks.back();
        block.end = row.maxEnd.back();
        if (++block.count == 2) {
          block.event = kNoEvent;
          block.name = 0;
        }
      }
    }
    for (LayoutRow& row : layout.rows_) {
      row.events.makeReadOnly();
      row.maxEnd.makeReadOnly();
    }
    layout.rowOfEvent_.makeReadOnly();
    // A row of many events gets its level of detail (timeline_geometry.h), one row per task.
    std::vector<std::size_t> big;
    for (std::size_t r = 0; r < layout.rows_.size(); ++r)
      if (layout.rows_[r].events.size() >= kLodFromEvents) big.push_back(r);
    parallelFor(big.size(), [&](std::size_t k) {
      LayoutRow& row = layout.rows_[big[k]];
      const TimeNs span = row.maxEnd[row.events.size() - 1] - events[row.events[0]].start;
      row.lodNsPerPx = static_cast<double>(span) / kLodPixels;
      row.lod = buildRowLevelOfDetail(trace, row, row.lodNsPerPx);
      if (row.lod.empty()) row.lodNsPerPx = 0;
    });
  }
};

LaneLayout LaneLayout::build(const Trace& trace, const std::string& rankLabel,
                             const LayoutOptions& options) {
  Builder builder(trace, rankLabel, options);
  builder.nestInBands();
  const auto grouped = builder.groupLanes();
  if (options.grouping == LaneGrouping::Layers) {
    builder.addLayerGroups(grouped);
  } else {
    for (const auto& [key, lanes] : grouped) builder.addGroup(key.device, lanes);
  }
  builder.addCounters(options.grouping == LaneGrouping::Layers);
  builder.fillRows();
  return std::move(builder.layout);
}

}  // namespace sutra::view
