// SPDX-License-Identifier: MIT
#include "model/trace.h"

#include <algorithm>

namespace sutra {

std::uint32_t ArgsStore::add(std::string_view json) {
  offsets_.push_back(text_.size());
  text_.append(json);
  return static_cast<std::uint32_t>(offsets_.size() - 1);
}

std::uint32_t ArgsStore::append(const ArgsStore& other) {
  const auto base = static_cast<std::uint32_t>(offsets_.size());
  const std::uint64_t shift = text_.size();
  text_.append(other.text_);
  offsets_.reserve(offsets_.size() + other.offsets_.size());
  for (auto o : other.offsets_) offsets_.push_back(o + shift);
  return base;
}

std::string_view ArgsStore::get(std::uint32_t index) const {
  const std::uint64_t begin = offsets_[index];
  const std::uint64_t end = index + 1 < offsets_.size() ? offsets_[index + 1] : text_.size();
  return std::string_view(text_).substr(begin, end - begin);
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
  auto first = events.begin() + l.firstEvent;
  auto last = events.begin() + l.endEvent;
  auto it = std::upper_bound(first, last, t, [](TimeNs v, const Event& e) { return v < e.start; });
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

}  // namespace sutra
