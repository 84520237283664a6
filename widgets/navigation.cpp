// SPDX-License-Identifier: MIT
#include "navigation.h"

#include <limits>

namespace sutra::widgets {
namespace {
constexpr std::size_t kNotLoaded = std::numeric_limits<std::size_t>::max();

TimeRange shifted(TimeRange range, TimeNs by) { return {range.start - by, range.end - by}; }
}  // namespace

Navigation::Navigation(QObject* parent) : QObject(parent) {}

void Navigation::beginRun() {
  ++run_;
  eventCounts_.clear();
  offsets_.clear();
  selectedRange_ = {};
  visibleRange_ = {};
  if (selection_ != EventRef{}) {
    selection_ = {};
    emit selectionChanged(selection_, false);
  }
  if (highlightsOwner_ || !highlights_.events.empty()) {
    highlights_ = {};
    highlightsOwner_ = nullptr;
    emit highlightsChanged();
  }
}

void Navigation::addRank(int rank, std::size_t eventCount) {
  if (rank < 0) return;
  if (eventCounts_.size() <= std::size_t(rank))
    eventCounts_.resize(std::size_t(rank) + 1, kNotLoaded);
  eventCounts_[std::size_t(rank)] = eventCount;
}

bool Navigation::resolves(const EventRef& ref) const {
  if (ref.run != run_ || ref.rank < 0 || ref.rank >= rankCount()) return false;
  const std::size_t events = eventCounts_[std::size_t(ref.rank)];
  return events != kNotLoaded && (ref.event == kNoEvent || ref.event < events);
}

bool Navigation::select(const EventRef& ref, bool reveal) {
  if (ref.event == kNoEvent) {
    clearSelection();
    return true;
  }
  if (!resolves(ref)) return false;
  // Asked again to reveal what is selected already: the window may show another rank by now.
  if (ref == selection_ && !reveal) return true;
  selection_ = ref;
  emit selectionChanged(selection_, reveal);
  return true;
}

void Navigation::clearSelection() {
  if (selection_ == EventRef{}) return;
  selection_ = {};
  emit selectionChanged(selection_, false);
}

void Navigation::setRankOffsets(std::vector<TimeNs> offsets) { offsets_ = std::move(offsets); }

TimeNs Navigation::rankOffset(int rank) const {
  return rank >= 0 && std::size_t(rank) < offsets_.size() ? offsets_[std::size_t(rank)] : 0;
}

void Navigation::setSelectedRange(TimeRange range) {
  if (range.end < range.start) std::swap(range.start, range.end);
  if (range == selectedRange_) return;
  selectedRange_ = range;
  emit selectedRangeChanged(range);
}

TimeRange Navigation::selectedRangeOf(int rank) const {
  return selectedRange_.span() > 0 ? shifted(selectedRange_, rankOffset(rank)) : TimeRange{};
}

void Navigation::setVisibleRange(TimeRange range) { visibleRange_ = range; }

TimeRange Navigation::visibleRangeOf(int rank) const {
  return shifted(visibleRange_, rankOffset(rank));
}

bool Navigation::showRange(const EventRef& rank, TimeRange own) {
  if (!resolves({rank.run, rank.rank, kNoEvent})) return false;
  emit rangeRequested(rank.rank, own);
  return true;
}

bool Navigation::setHighlights(Highlights highlights, const QObject* owner) {
  if (!resolves({highlights.run, highlights.rank, kNoEvent})) return false;
  highlights_ = std::move(highlights);
  highlightsOwner_ = owner;
  emit highlightsChanged();
  return true;
}

void Navigation::clearHighlights(const QObject* owner) {
  if (owner != highlightsOwner_) return;
  highlights_ = {};
  highlightsOwner_ = nullptr;
  emit highlightsChanged();
}

RankNavigation::RankNavigation(Navigation* navigation, int rank)
    : navigation_(navigation), run_(navigation ? navigation->run() : 0), rank_(rank) {}

RankNavigation RankNavigation::withRank(int rank) const {
  RankNavigation other = *this;
  other.rank_ = rank;
  return other;
}

bool RankNavigation::current() const { return navigation_ && navigation_->run() == run_; }

void RankNavigation::select(EventId event) const {
  if (navigation_) navigation_->select(ref(event));
}

TimeRange RankNavigation::selectedRange() const {
  return current() ? navigation_->selectedRangeOf(rank_) : TimeRange{};
}

TimeRange RankNavigation::visibleRange() const {
  return current() ? navigation_->visibleRangeOf(rank_) : TimeRange{};
}

void RankNavigation::showRange(TimeRange own) const {
  if (navigation_) navigation_->showRange(ref(kNoEvent), own);
}

void RankNavigation::highlight(std::vector<EventId> events,
                               std::vector<std::pair<EventId, EventId>> edges, const QObject* owner,
                               bool steppable) const {
  if (navigation_)
    navigation_->setHighlights({run_, rank_, std::move(events), std::move(edges), steppable},
                               owner);
}

void RankNavigation::clearHighlights(const QObject* owner) const {
  if (navigation_) navigation_->clearHighlights(owner);
}

}  // namespace sutra::widgets
