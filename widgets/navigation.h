// SPDX-License-Identifier: MIT
#pragma once
// The window's navigation (as hotspot's FilterAndZoomStack is the window's): the selection, the
// range chosen on the ruler, the visible range and what stands out, each naming its run and rank.
// The window owns one and mirrors its timeline into it; every view of the window gets it. An
// analysis view opened on a rank selects through it with that rank (RankNavigation), so a click
// lands on the rank the view shows whichever rank the timeline shows by then, and the window
// brings that rank back on screen. A reference into a run since replaced, or to a rank that is not
// loaded, is dropped: it names nothing any more. It knows no file format and no widget.
#include <QObject>
#include <QPointer>
#include <cstdint>
#include <utility>
#include <vector>

#include "model/trace.h"
#include "view/time_axis.h"

namespace sutra::widgets {

// An event of one rank of one run. `run` is the run's generation in its Navigation (each run
// opened gets a new one), so a reference kept across a reload resolves to nothing.
struct EventRef {
  std::uint64_t run = 0;
  int rank = -1;  // the rank's index in the run: its part of the all-ranks view
  EventId event = kNoEvent;
  bool operator==(const EventRef&) const = default;
};

// Events of one rank that stand out on the timeline, the rest faded: a critical path with its hops
// between rows, a finding's evidence.
struct Highlights {
  std::uint64_t run = 0;
  int rank = -1;
  std::vector<EventId> events;
  std::vector<std::pair<EventId, EventId>> edges;  // an arrow from each first's end to its second
  bool steppable = false;  // next/previous step through them, as through search matches
};

class Navigation : public QObject {
  Q_OBJECT

 public:
  explicit Navigation(QObject* parent = nullptr);

  // A new run replaces the shown one: references into the earlier one name nothing from now on;
  // selection, ranges and highlights are cleared.
  void beginRun();
  std::uint64_t run() const { return run_; }
  // Rank `rank` of the run is loaded, with `eventCount` events.
  void addRank(int rank, std::size_t eventCount);
  int rankCount() const { return static_cast<int>(eventCounts_.size()); }
  // Whether `ref` names an event (or, with kNoEvent, a rank) of a loaded rank of this run.
  bool resolves(const EventRef& ref) const;
  // A reference to `event` of `rank` in this run.
  EventRef ref(int rank, EventId event) const { return {run_, rank, event}; }

  EventRef selection() const { return selection_; }
  // Selects `ref`; kNoEvent clears. With `reveal` the window brings it on screen (showing its
  // rank, scrolling to it). False, and nothing changes, where `ref` does not resolve.
  bool select(const EventRef& ref, bool reveal = true);
  void clearSelection();

  // How far the timeline moves each rank's times on its axis (the all-ranks view's alignment); a
  // rank not listed is at 0, on its own clock.
  void setRankOffsets(std::vector<TimeNs> offsets);
  TimeNs rankOffset(int rank) const;
  // The range chosen on the ruler, on the timeline's axis; empty when none.
  void setSelectedRange(TimeRange range);
  TimeRange selectedRange() const { return selectedRange_; }
  // The same in `rank`'s own times (empty when none).
  TimeRange selectedRangeOf(int rank) const;
  void setVisibleRange(TimeRange range);
  TimeRange visibleRange() const { return visibleRange_; }
  TimeRange visibleRangeOf(int rank) const;
  // Asks for `own` (in `rank`'s times) to be chosen on the ruler and shown: the window answers
  // rangeRequested by moving its timeline there. False where the rank does not resolve.
  bool showRange(const EventRef& rank, TimeRange own);

  const Highlights& highlights() const { return highlights_; }
  // Makes `highlights` the ones shown, on behalf of `owner` (the view that set them, so that it
  // clears only its own). False where their rank does not resolve.
  bool setHighlights(Highlights highlights, const QObject* owner);
  // Clears the highlights where `owner` set the ones shown.
  void clearHighlights(const QObject* owner);

 signals:
  void selectionChanged(sutra::widgets::EventRef ref, bool reveal);
  void selectedRangeChanged(sutra::view::TimeRange range);
  void rangeRequested(int rank, sutra::view::TimeRange own);
  void highlightsChanged();

 private:
  std::uint64_t run_ = 0;
  std::vector<std::size_t> eventCounts_;  // per rank index; SIZE_MAX while not loaded
  EventRef selection_;
  std::vector<TimeNs> offsets_;
  TimeRange selectedRange_;
  TimeRange visibleRange_;
  Highlights highlights_;
  const QObject* highlightsOwner_ = nullptr;
};

// What an analysis view of one rank knows of its window's navigation: the navigation, and the run
// and rank the view was opened on. Everything it sends carries them; a default one sends nothing.
class RankNavigation {
 public:
  RankNavigation() = default;
  // The rank `rank` of the run `navigation` shows now.
  RankNavigation(Navigation* navigation, int rank);
  // The same run, another rank (a finding of the advice names its own).
  RankNavigation withRank(int rank) const;
  Navigation* navigation() const { return navigation_; }
  int rank() const { return rank_; }
  EventRef ref(EventId event) const { return {run_, rank_, event}; }
  // Whether the view's run is still the one shown.
  bool current() const;

  // Selects `event` of the view's rank and brings it on screen; dropped where the run is gone.
  void select(EventId event) const;
  // The ruler's range and the visible range in the rank's own times; empty where the run is gone.
  TimeRange selectedRange() const;
  TimeRange visibleRange() const;
  void showRange(TimeRange own) const;
  void highlight(std::vector<EventId> events, std::vector<std::pair<EventId, EventId>> edges,
                 const QObject* owner, bool steppable = false) const;
  void clearHighlights(const QObject* owner) const;

 private:
  QPointer<Navigation> navigation_;
  std::uint64_t run_ = 0;
  int rank_ = -1;
};

}  // namespace sutra::widgets

Q_DECLARE_METATYPE(sutra::widgets::EventRef)
