// SPDX-License-Identifier: MIT
#include "io/kineto_batch.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>

#include "io/json_numbers.h"

namespace sutra {
namespace {

// Equal texts, compared inline: pids, tids and categories are a few bytes, and most events have
// those of the event before, where a memcmp call cost more than the compare.
inline bool sameText(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace

KinetoBatchBuilder::KinetoBatchBuilder(std::uint64_t fileOffset, std::size_t expectedEvents,
                                       bool eventArgs)
    : fileOffset_(fileOffset), eventArgs_(eventArgs) {
  batch_.events.reserve(expectedEvents);
}

std::uint32_t KinetoBatchBuilder::laneOf(std::string_view pid, std::string_view tid) {
  for (std::size_t i = 0; i < recentLaneCount_; ++i) {
    if (!sameText(pid, recentLanes_[i].pid) || !sameText(tid, recentLanes_[i].tid)) continue;
    std::rotate(recentLanes_.begin(), recentLanes_.begin() + i, recentLanes_.begin() + i + 1);
    return recentLanes_[0].id;
  }
  std::string key;
  key.append(pid).push_back('\x1f');
  key.append(tid);
  auto [it, inserted] =
      laneIds_.emplace(std::move(key), static_cast<std::uint32_t>(batch_.lanes.size()));
  if (inserted) batch_.lanes.push_back({std::string(pid), std::string(tid)});
  recentLaneCount_ = std::min(recentLaneCount_ + 1, recentLanes_.size());
  std::rotate(recentLanes_.begin(), recentLanes_.begin() + recentLaneCount_ - 1,
              recentLanes_.begin() + recentLaneCount_);
  recentLanes_[0] = {pid, tid, it->second};
  return it->second;
}

std::uint16_t KinetoBatchBuilder::categoryOf(std::string_view cat) {
  if (lastCategoryId_ == kNoCategory || !sameText(cat, lastCategory_)) {
    lastCategoryId_ = static_cast<std::uint16_t>(batch_.categories.intern(cat));
    lastCategory_ = cat;
  }
  return lastCategoryId_;
}

void KinetoBatchBuilder::event(const RawEvent& raw) {
  KinetoBatch& b = batch_;
  const char ph = raw.ph.empty() ? '\0' : raw.ph[0];
  // Built only for a problem's example: most events have none, and a string per event costs.
  auto where = [&] { return std::string(raw.name) + " near byte " + std::to_string(fileOffset_); };
  auto time = [&](std::string_view text, const char* field) -> std::optional<TimeNs> {
    auto v = microsTextToNanos(text);
    if (!v)
      b.problems.add(Severity::Warning,
                     std::string("event with an unreadable '") + field + "', skipped", where());
    return v;
  };
  switch (ph) {
    case 'X':
    case 'B':
    case 'E': {
      if (!raw.hasTs) {
        b.problems.add(Severity::Warning, "event without a timestamp, skipped", where());
        return;
      }
      auto start = time(raw.ts, "ts");
      if (!start) return;
      Event e;
      e.start = *start;
      if (ph == 'X') {
        if (raw.hasDur)
          e.dur = time(raw.dur, "dur").value_or(0);
        else
          b.problems.add(Severity::Info, "complete event without a duration",
                         std::string(raw.name));
        if (e.dur < 0) {
          b.problems.add(Severity::Warning, "event with negative duration (set to 0)",
                         std::string(raw.name) + " dur " + std::string(raw.dur));
          e.dur = 0;
        }
      }
      e.lane = laneOf(raw.pid, raw.tid);
      e.name = nameOf(raw.name);
      e.category = categoryOf(raw.cat);
      e.externalId = raw.externalId;
      e.correlation = raw.correlation;
      e.recordFunctionId = raw.recordFunctionId;
      if (eventArgs_ && !raw.argsRaw.empty()) e.args = b.args.add(raw.argsRaw);
      if (ph == 'X')
        b.events.push_back(e);
      else
        b.beginEnds.emplace_back(ph, e);
      return;
    }
    case 'i':
    case 'I': {
      auto at = time(raw.ts, "ts");
      if (!at) return;
      Instant instant;
      instant.time = *at;
      instant.name = nameOf(raw.name);
      instant.lane = laneOf(raw.pid, raw.tid);
      instant.scope = raw.scope.empty() ? 't' : raw.scope[0];
      if (!raw.argsRaw.empty()) instant.args = b.args.add(raw.argsRaw);
      b.instants.push_back(instant);
      return;
    }
    case 's':
    case 'f': {
      auto at = time(raw.ts, "ts");
      if (!at) return;
      auto id = integerText(raw.id);
      if (!id) {
        b.problems.add(Severity::Warning, "flow event without a numeric id, skipped", where());
        return;
      }
      FlowEnd end;
      end.id = *id;
      end.category = categoryOf(raw.cat);
      end.lane = laneOf(raw.pid, raw.tid);
      end.time = *at;
      end.isStart = ph == 's';
      end.bindEnclosing = raw.bp == "e";
      b.flowEnds.push_back(end);
      return;
    }
    case 'M':
      b.metadata.push_back({std::string(raw.name), std::string(raw.pid), std::string(raw.tid),
                            std::string(raw.metaName), raw.metaSortIndex, raw.hasMetaSortIndex});
      return;
    case 'C': {
      // JSON members come in any order: where "args" came before "ph", its values were not yet
      // known to be a counter's, so they are read now from the args text (counters are few).
      std::vector<std::pair<std::string, double>> values = raw.counterValues;
      if (values.empty() && !raw.argsRaw.empty()) {
        const auto args = nlohmann::json::parse(raw.argsRaw, nullptr, false);
        if (args.is_object())
          for (const auto& [key, value] : args.items()) {
            if (value.is_number())
              values.emplace_back(key, value.get<double>());
            else if (value.is_string())
              values.emplace_back(key, std::strtod(value.get<std::string>().c_str(), nullptr));
          }
      }
      auto at = time(raw.ts, "ts");
      if (at) {
        for (auto& [key, value] : values) {
          std::string series = values.size() == 1 && key == raw.name
                                   ? std::string(raw.name)
                                   : std::string(raw.name) + "/" + key;
          b.counters.push_back({std::string(raw.pid), std::move(series), *at, value});
        }
      }
      return;
    }
    default:
      b.problems.add(Severity::Info, "event phase Sutra does not use, skipped",
                     "ph '" + std::string(raw.ph) + "' (" + std::string(raw.name) + ")");
  }
}

}  // namespace sutra
