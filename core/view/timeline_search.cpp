// SPDX-License-Identifier: MIT
#include "view/timeline_search.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <regex>

namespace sutra::view {
namespace {

char asciiLower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool containsIgnoringCase(std::string_view text, std::string_view needle) {
  return std::search(text.begin(), text.end(), needle.begin(), needle.end(),
                     [](char a, char b) { return asciiLower(a) == asciiLower(b); }) != text.end();
}

TimeNs startOn(const std::vector<SearchPart>& parts, const PartEvent& e) {
  const SearchPart& part = parts[static_cast<std::size_t>(e.part)];
  return part.trace->events[e.event].start + part.offset;
}

}  // namespace

Result<std::vector<bool>> matchingNames(const StringTable& names, const NamePattern& pattern) {
  std::vector<bool> matches(names.size(), false);
  std::optional<std::regex> re;
  if (pattern.regex) {
    try {
      re.emplace(pattern.text, std::regex::ECMAScript | std::regex::icase);
    } catch (const std::regex_error& e) {
      return Error{"invalid regular expression '" + pattern.text + "': " + e.what()};
    }
  }
  for (StringId id = 1; id < names.size(); ++id) {
    const std::string_view name = names.view(id);
    matches[id] = re ? std::regex_search(name.begin(), name.end(), *re)
                     : containsIgnoringCase(name, pattern.text);
  }
  return matches;
}

Result<TimelineMatches> TimelineMatches::find(const std::vector<SearchPart>& parts,
                                              const NamePattern& pattern) {
  std::vector<PartEvent> found;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    const Trace& trace = *parts[p].trace;
    auto names = matchingNames(trace.names, pattern);
    if (!names) return names.error();
    const std::vector<bool>& nameMatches = *names;
    for (EventId i = 0; i < trace.events.size(); ++i)
      if (nameMatches[trace.events[i].name]) found.push_back({static_cast<int>(p), i});
  }
  return of(std::move(found), parts);
}

TimelineMatches TimelineMatches::of(std::vector<PartEvent> events,
                                    const std::vector<SearchPart>& parts) {
  std::erase_if(events, [&](const PartEvent& e) {
    return e.part < 0 || e.part >= static_cast<int>(parts.size()) ||
           e.event >= parts[static_cast<std::size_t>(e.part)].trace->events.size();
  });
  std::vector<TimeNs> starts(events.size());
  for (std::size_t i = 0; i < events.size(); ++i) starts[i] = startOn(parts, events[i]);
  std::vector<std::size_t> order(events.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (starts[a] != starts[b]) return starts[a] < starts[b];
    const PartEvent &x = events[a], &y = events[b];
    return x.part != y.part ? x.part < y.part : x.event < y.event;
  });
  TimelineMatches out;
  out.events_.reserve(events.size());
  out.starts_.reserve(events.size());
  for (std::size_t i : order) {
    out.events_.push_back(events[i]);
    out.starts_.push_back(starts[i]);
  }
  return out;
}

int TimelineMatches::next(TimeNs from) {
  if (events_.empty()) return -1;
  if (current_ >= 0) {
    current_ = (current_ + 1) % size();
  } else {
    const auto it = std::lower_bound(starts_.begin(), starts_.end(), from);
    current_ = it == starts_.end() ? 0 : static_cast<int>(it - starts_.begin());
  }
  return current_;
}

int TimelineMatches::previous(TimeNs until) {
  if (events_.empty()) return -1;
  if (current_ >= 0) {
    current_ = (current_ + size() - 1) % size();
  } else {
    const auto it = std::lower_bound(starts_.begin(), starts_.end(), until);
    current_ = it == starts_.begin() ? size() - 1 : static_cast<int>(it - starts_.begin()) - 1;
  }
  return current_;
}

}  // namespace sutra::view
