// SPDX-License-Identifier: MIT
#pragma once
// Search on the timeline, without Qt: the events whose name a pattern matches (a case-insensitive
// substring, or a case-insensitive ECMAScript regular expression searched anywhere in the name),
// over every part shown (the ranks of a run on one time axis), ordered by their start on that
// axis; and which match Next and Previous step to. The widget highlights and selects them.
#include <cstdint>
#include <string>
#include <vector>

#include "model/trace.h"
#include "util/result.h"

namespace sutra::view {

struct NamePattern {
  std::string text;
  bool regex = false;  // false: a substring; ASCII letters match either case
};

// Per StringId of `names`: whether that name matches `pattern` (id 0, the empty name, never does).
// An invalid regular expression is an error that says why.
Result<std::vector<bool>> matchingNames(const StringTable& names, const NamePattern& pattern);

// A part of the timeline: a trace, moved `offset` along the shared axis.
struct SearchPart {
  const Trace* trace = nullptr;
  TimeNs offset = 0;
};

// An event of one part.
struct PartEvent {
  int part = 0;
  EventId event = kNoEvent;
  bool operator==(const PartEvent&) const = default;
};

// Matches ordered by their start on the shared axis (then part, then event), and the current one.
class TimelineMatches {
 public:
  TimelineMatches() = default;
  // Every event of `parts` whose name matches `pattern`; an error for an invalid expression.
  static Result<TimelineMatches> find(const std::vector<SearchPart>& parts,
                                      const NamePattern& pattern);
  // Given events (a table row's occurrences), those that name no event of `parts` left out.
  static TimelineMatches of(std::vector<PartEvent> events, const std::vector<SearchPart>& parts);

  const std::vector<PartEvent>& events() const { return events_; }
  int size() const { return static_cast<int>(events_.size()); }
  bool empty() const { return events_.empty(); }
  // The match last stepped to, or -1.
  int current() const { return current_; }
  void setCurrent(int index) { current_ = index >= 0 && index < size() ? index : -1; }
  // Steps to the match after the current one (wrapping), or, with none current, to the first that
  // starts at or after `from` (else the first). Returns its index; -1 when there are no matches.
  int next(TimeNs from);
  // Steps to the match before the current one (wrapping), or, with none current, to the last that
  // starts before `until` (else the last). Returns its index; -1 when there are no matches.
  int previous(TimeNs until);

 private:
  std::vector<PartEvent> events_;
  std::vector<TimeNs> starts_;  // each match's start on the shared axis
  int current_ = -1;
};

}  // namespace sutra::view
