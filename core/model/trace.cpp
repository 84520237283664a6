// SPDX-License-Identifier: MIT
#include "model/trace.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "util/mapped_array.h"
#include "util/mapped_file.h"

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

struct ArgsStore::Spill {
  MappedArray<char> text;
  MappedArray<std::uint64_t> offsets;  // entry i is text[offsets[i], offsets[i + 1])
  std::function<void(std::string_view)> written;
  void appendText(const char* bytes, std::size_t count) {
    text.appendInBulk(bytes, count);
    if (written) written({bytes, count});
  }
  // Unmaps what lies well behind the ends: appended once, read again only by whoever writes the
  // store out.
  void dropWritten() {
    constexpr std::size_t kKeep = std::size_t{8} << 20;
    if (text.size() > 2 * kKeep) text.dropResidentBefore(text.size() - kKeep);
    if (offsets.size() > 2 * kKeep / 8) offsets.dropResidentBefore(offsets.size() - kKeep / 8);
  }
};

ArgsStore ArgsStore::spilling(const std::string& folder, std::optional<FileRegion> text,
                              std::function<void(std::string_view)> written) {
  ArgsStore store;
  store.spill_ = std::make_shared<Spill>(
      Spill{text ? MappedArray<char>::inFile(*text) : MappedArray<char>::fileBacked(folder),
            MappedArray<std::uint64_t>::fileBacked(folder), std::move(written)});
  store.spill_->offsets.push_back(0);
  return store;
}

std::size_t ArgsStore::spilledCount() const { return spill_ ? spill_->offsets.size() - 1 : 0; }

std::string_view ArgsStore::spilled(std::size_t index) const {
  const auto& o = spill_->offsets;
  return {spill_->text.data() + o[index], o[index + 1] - o[index]};
}

std::uint32_t ArgsStore::add(std::string_view json) {
  if (spill_) {
    spill_->text.append(json.data(), json.size());
    if (spill_->written) spill_->written(json);
    spill_->offsets.push_back(spill_->text.size());
    bytes_ += json.size();
    return static_cast<std::uint32_t>(size() - 1);
  }
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
  if (spill_) {  // into the files, and other's memory let go
    for (std::uint32_t i = 0; i < other.mappedCount_; ++i) add(other.get(i));
    // Its other entries lie one after another in its blocks (add() appends each to the last
    // block): the text goes in whole blocks.
    const std::uint64_t before = spill_->text.size();
    std::uint64_t end = before;
    std::vector<std::uint64_t> ends(other.spans_.size());
    for (std::size_t i = 0; i < ends.size(); ++i) ends[i] = end += other.spans_[i].length;
    spill_->offsets.appendInBulk(ends.data(), ends.size());
    for (const std::string& block : other.blocks_) spill_->appendText(block.data(), block.size());
    if (spill_->text.size() != end)
      throw std::logic_error("ArgsStore::adopt: blocks hold text outside their entries");
    bytes_ += end - before;
    spill_->dropWritten();
    other = ArgsStore{};
    return base;
  }
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

namespace {

constexpr std::size_t kPieceBytes = std::size_t{4} << 20;

// [text, text + bytes) in pieces, each unmapped once handed over.
bool piecesOf(const char* text, std::size_t bytes,
              const std::function<bool(std::string_view)>& piece) {
  for (std::size_t at = 0; at < bytes; at += kPieceBytes) {
    const std::size_t n = std::min(kPieceBytes, bytes - at);
    if (!piece({text + at, n})) return false;
    unmapFilePages(text + at, n);
  }
  return true;
}

}  // namespace

bool ArgsStore::forEachTextPiece(const std::function<bool(std::string_view)>& piece) const {
  if (mappedCount_ > 0 && !piecesOf(mappedText_ + mappedOffsets_[0],
                                    mappedOffsets_[mappedCount_] - mappedOffsets_[0], piece))
    return false;
  if (spill_ && !piecesOf(spill_->text.data(), spill_->text.size(), piece)) return false;
  std::string chunk;
  for (const Span& s : spans_) {
    chunk.append(std::string_view(blocks_[s.block]).substr(s.offset, s.length));
    if (chunk.size() >= kPieceBytes) {
      if (!piece(chunk)) return false;
      chunk.clear();
    }
  }
  return chunk.empty() || piece(chunk);
}

bool ArgsStore::forEachOffsetPiece(
    const std::function<bool(std::span<const std::uint64_t>)>& piece) const {
  constexpr std::size_t kValues = kPieceBytes / sizeof(std::uint64_t);
  if (spill_ && mappedCount_ == 0 && spans_.empty()) {
    // The spill's offsets are the whole store's, from its leading 0: handed on as they lie, a
    // piece at a time, mapped in one call and unmapped once handed on.
    auto& o = spill_->offsets;
    for (std::size_t from = 0; from < o.size(); from += kValues) {
      const std::size_t n = std::min(kValues, o.size() - from);
      o.prefaultForReading(from, from + n);
      if (!piece({o.data() + from, n})) return false;
      unmapFilePages(o.data() + from, n * sizeof(std::uint64_t));
    }
    return true;
  }
  std::vector<std::uint64_t> buffer;
  buffer.reserve(kValues);
  std::uint64_t at = 0;  // where the next entry starts in the whole text
  const auto put = [&](std::uint64_t value) {
    buffer.push_back(value);
    if (buffer.size() < kValues) return true;
    const bool go = piece(buffer);
    buffer.clear();
    return go;
  };
  if (!put(0)) return false;
  for (std::uint32_t i = 0; i < mappedCount_; ++i)
    if (!put(at += mappedOffsets_[i + 1] - mappedOffsets_[i])) return false;
  if (spill_) {
    const auto& o = spill_->offsets;
    for (std::size_t i = 0; i + 1 < o.size(); ++i) {
      if (!put(at += o[i + 1] - o[i])) return false;
      if (i % kValues == kValues - 1) unmapFilePages(o.data(), i * sizeof(std::uint64_t));
    }
  }
  for (const Span& s : spans_)
    if (!put(at += s.length)) return false;
  return buffer.empty() || piece(buffer);
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
