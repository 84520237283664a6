// SPDX-License-Identifier: MIT
#include "model/trace.h"

#include <algorithm>

namespace sutra {
namespace {

// innermostAt() once the first event of the lane starting after t is found.
EventId innermostBefore(const Trace& trace, LaneId lane, EventId after, TimeNs t) {
  const auto& events = trace.events;
  auto first = events.begin() + trace.lanes[lane].firstEvent;
  auto it = events.begin() + after;
  if (it == first) return kNoEvent;
  // The latest-starting event at or before t; if it does not contain t, one of its ancestors may.
  // Among events starting at the same time the sort puts longer first, so step back over siblings
  // that end before t to the deepest one that contains it.
  for (auto candidate = it; candidate != first;) {
    --candidate;
    EventId id = static_cast<EventId>(candidate - events.begin());
    for (EventId e = id; e != kNoEvent; e = events[e].parent)
      if (events[e].start <= t && t <= events[e].end()) return e;
    if (candidate->depth == 0) break;
  }
  return kNoEvent;
}

}  // namespace

std::uint32_t ArgsStore::add(std::string_view json) {
  if (blocks_.empty() || blocks_.back().size() + json.size() > blocks_.back().capacity()) {
    // Blocks start small and double up to kBlockBytes: a reader's per-batch store holds a few
    // hundred KB, and a fresh 4 MB block per batch cost page faults.
    const std::size_t want = blocks_.empty() ? std::size_t{64} << 10
                                             : std::min(kBlockBytes, 2 * blocks_.back().capacity());
    blocks_.emplace_back();
    blocks_.back().reserve(std::max(want, json.size()));
  }
  std::string& block = blocks_.back();
  spans_.push_back(Span{static_cast<std::uint32_t>(blocks_.size() - 1),
                        static_cast<std::uint32_t>(block.size()),
                        static_cast<std::uint32_t>(json.size())});
  block.append(json);
  bytes_ += json.size();
  return static_cast<std::uint32_t>(size() - 1);
}

std::uint32_t ArgsStore::adopt(ArgsStore&& other) {
  const auto base = static_cast<std::uint32_t>(size());
  // A reader's per-batch store is never mapped; a mapped one is copied entry by entry.
  for (std::uint32_t i = 0; i < other.mappedCount_; ++i) add(other.get(i));
  const auto blockBase = static_cast<std::uint32_t>(blocks_.size());
  for (std::string& block : other.blocks_) blocks_.push_back(std::move(block));
  for (Span span : other.spans_) {
    span.block += blockBase;
    spans_.push_back(span);
  }
  bytes_ +=
      other.bytes_ -
      (other.mappedCount_ ? other.mappedOffsets_[other.mappedCount_] - other.mappedOffsets_[0] : 0);
  other = ArgsStore{};
  return base;
}

ArgsStore ArgsStore::mapped(std::shared_ptr<const void> owner, const char* text,
                            const std::uint64_t* offsets, std::size_t count) {
  ArgsStore store;
  store.mappedOwner_ = std::move(owner);
  store.mappedText_ = text;
  store.mappedOffsets_ = offsets;
  store.mappedCount_ = static_cast<std::uint32_t>(count);
  store.bytes_ = count ? offsets[count] - offsets[0] : 0;
  return store;
}

EventId Trace::lowerBound(LaneId lane, TimeNs t) const {
  const auto& l = lanes[lane];
  auto first = events.begin() + l.firstEvent;
  auto last = events.begin() + l.endEvent;
  auto it = std::lower_bound(first, last, t, [](const Event& e, TimeNs v) { return e.start < v; });
  return static_cast<EventId>(it - events.begin());
}

EventId Trace::innermostAt(LaneId lane, TimeNs t) const {
  const auto& l = lanes[lane];
  auto it = std::upper_bound(events.begin() + l.firstEvent, events.begin() + l.endEvent, t,
                             [](TimeNs v, const Event& e) { return v < e.start; });
  return innermostBefore(*this, lane, static_cast<EventId>(it - events.begin()), t);
}

EventId Trace::innermostAt(LaneId lane, TimeNs t, EventId& hint) const {
  const auto& l = lanes[lane];
  const Event* const first = events.data() + l.firstEvent;
  const Event* const last = events.data() + l.endEvent;
  const Event* from = hint >= l.firstEvent && hint <= l.endEvent ? events.data() + hint : first;
  auto startsAfter = [t](const Event& e) { return t < e.start; };
  auto upperBound = [t](const Event* lo, const Event* hi) {
    return std::upper_bound(lo, hi, t, [](TimeNs v, const Event& e) { return v < e.start; });
  };
  // Steps of 1, 2, 4 ... away from `from` bracket the answer; a binary search inside finds it.
  const Event* found = nullptr;
  std::size_t step = 1;
  if (from == last || startsAfter(*from)) {  // the answer is at or before from
    const Event* hi = from;
    for (;;) {
      const Event* probe = static_cast<std::size_t>(hi - first) > step ? hi - step : first;
      if (probe == first || !startsAfter(*probe)) {
        found = upperBound(probe, hi);
        break;
      }
      hi = probe;
      step *= 2;
    }
  } else {  // the answer is after from
    const Event* lo = from + 1;
    for (;;) {
      const Event* probe = static_cast<std::size_t>(last - lo) > step ? lo + step : last;
      if (probe == last || startsAfter(*probe)) {
        found = upperBound(lo, probe);
        break;
      }
      lo = probe + 1;
      step *= 2;
    }
  }
  hint = static_cast<EventId>(found - events.data());
  return innermostBefore(*this, lane, hint, t);
}

}  // namespace sutra
