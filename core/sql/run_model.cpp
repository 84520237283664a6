// SPDX-License-Identifier: MIT
#include "sql/run_model.h"

#include <algorithm>
#include <limits>
#include <map>

namespace sutra::sql {

std::size_t NameOrder::bytes() const {
  std::size_t n = (start.capacity() + slices.capacity()) * sizeof(std::uint32_t);
  for (const auto& p : placeOf) n += p.capacity() * sizeof(std::uint32_t);
  return n;
}

RunModel::RunModel(const Run& run) : run_(run) {
  for (const auto& rank : run_.ranks) {
    RankSlot slot;
    slot.run = rank;
    slot.trace = rank->trace.get();
    slot.eventBase = slices_;
    slot.laneBase = lanes_;
    slot.flowBase = flows_;
    slot.upidBase = static_cast<std::int64_t>(processes_.size());
    const std::size_t index = slots_.size();
    if (slot.trace) {
      const Trace& t = *slot.trace;
      slices_ += static_cast<std::int64_t>(t.events.size());
      lanes_ += static_cast<std::int64_t>(t.lanes.size());
      flows_ += static_cast<std::int64_t>(t.flows.size());
      std::map<std::string_view, std::int64_t> upidOfPid;
      for (const Lane& lane : t.lanes) {
        auto [it, added] =
            upidOfPid.emplace(lane.pid, static_cast<std::int64_t>(processes_.size()));
        if (added) processes_.push_back({index, lane.pid, lane.pidNumber, lane.processName});
        slot.laneUpid.push_back(it->second);
        // An event may end after a later one starts (bad nesting): the latest end, not the last.
        TimeNs end = std::numeric_limits<TimeNs>::min();
        for (const Event& e : t.laneEvents(static_cast<LaneId>(&lane - t.lanes.data())))
          end = std::max(end, e.end());
        slot.laneEnd.push_back(end);
      }
      for (const CounterSeries& series : t.counters) {
        const auto it = upidOfPid.find(series.pid);
        counterTracks_.push_back(
            {index, &series, counterSamples_, it == upidOfPid.end() ? -1 : it->second});
        counterSamples_ += static_cast<std::int64_t>(series.samples.size());
      }
    }
    slots_.push_back(std::move(slot));
  }
}

std::size_t RunModel::rankOfSlice(std::int64_t id, std::size_t hint) const {
  if (id < 0 || id >= slices_) return kNoRank;
  auto holds = [&](std::size_t r) {
    const RankSlot& s = slots_[r];
    return s.trace && id >= s.eventBase &&
           id < s.eventBase + static_cast<std::int64_t>(s.trace->events.size());
  };
  if (hint < slots_.size() && holds(hint)) return hint;
  // The last slot whose first id is at or below id (empty slots share a base with the next).
  std::size_t lo = 0, hi = slots_.size();
  while (hi - lo > 1) {
    const std::size_t mid = (lo + hi) / 2;
    if (slots_[mid].eventBase <= id)
      lo = mid;
    else
      hi = mid;
  }
  while (lo < slots_.size() && !holds(lo)) ++lo;
  return lo < slots_.size() ? lo : kNoRank;
}

std::size_t RunModel::rankOfLane(std::int64_t track) const {
  for (std::size_t r = 0; r < slots_.size(); ++r) {
    const RankSlot& s = slots_[r];
    if (s.trace && track >= s.laneBase &&
        track < s.laneBase + static_cast<std::int64_t>(s.trace->lanes.size()))
      return r;
  }
  return kNoRank;
}

std::size_t RunModel::rankOfFlow(std::int64_t id) const {
  for (std::size_t r = 0; r < slots_.size(); ++r) {
    const RankSlot& s = slots_[r];
    if (s.trace && id >= s.flowBase &&
        id < s.flowBase + static_cast<std::int64_t>(s.trace->flows.size()))
      return r;
  }
  return kNoRank;
}

const NameOrder* RunModel::nameOrder() const {
  if (nameOrder_) return nameOrder_.get();
  if (slices_ >= static_cast<std::int64_t>(UINT32_MAX)) return nullptr;
  auto order = std::make_unique<NameOrder>();
  // Every rank's names in byte order (std::string_view compares as memcmp: SQLite's BINARY).
  struct Named {
    std::string_view text;
    std::uint32_t rank, id;
  };
  std::vector<Named> names;
  for (std::size_t r = 0; r < slots_.size(); ++r) {
    order->placeOf.emplace_back();
    if (!slots_[r].trace) continue;
    const StringTable& table = slots_[r].trace->names;
    order->placeOf.back().resize(table.size());
    for (std::uint32_t id = 0; id < table.size(); ++id)
      names.push_back({table.view(id), static_cast<std::uint32_t>(r), id});
  }
  std::sort(names.begin(), names.end(),
            [](const Named& a, const Named& b) { return a.text < b.text; });
  std::uint32_t places = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0 && names[i].text != names[i - 1].text) ++places;
    order->placeOf[names[i].rank][names[i].id] = places;
  }
  if (!names.empty()) ++places;
  // A counting sort of the slices by place: within a place, ids ascend.
  order->start.assign(places + 1, 0);
  for (std::size_t r = 0; r < slots_.size(); ++r)
    if (slots_[r].trace)
      for (const Event& e : slots_[r].trace->events) ++order->start[order->placeOf[r][e.name] + 1];
  for (std::uint32_t p = 0; p < places; ++p) order->start[p + 1] += order->start[p];
  order->slices.resize(static_cast<std::size_t>(slices_));
  std::vector<std::uint32_t> next(order->start.begin(), order->start.end() - 1);
  for (std::size_t r = 0; r < slots_.size(); ++r) {
    if (!slots_[r].trace) continue;
    const auto& events = slots_[r].trace->events;
    const auto& placeOf = order->placeOf[r];
    const auto base = static_cast<std::uint32_t>(slots_[r].eventBase);
    for (std::uint32_t e = 0; e < events.size(); ++e)
      order->slices[next[placeOf[events[e].name]]++] = base + e;
  }
  nameOrder_ = std::move(order);
  return nameOrder_.get();
}

std::size_t RunModel::indexBytes() const { return nameOrder_ ? nameOrder_->bytes() : 0; }

}  // namespace sutra::sql
