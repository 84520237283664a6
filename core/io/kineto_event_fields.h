// SPDX-License-Identifier: MIT
#pragma once
// The fields of a Kineto event that Sutra reads, as text: both parse paths (the fast scanner,
// kineto_fast_scanner.h, and simdjson On Demand, kineto_simdjson_parse.h) fill the same RawEvent
// through the same key classification, so they cannot disagree on what a key means.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/trace.h"

namespace sutra {

// Told apart by one switch on a key's raw text (the bytes after its opening quote, ended by the
// closing quote; batches are padded, so reading a few bytes past a short key is safe) instead of
// a chain of string comparisons per field.
enum class Field {
  Other,
  Ph,
  Name,
  Cat,
  Pid,
  Tid,
  Ts,
  Dur,
  Id,
  Bp,
  Scope,
  Args,  // event
  ExternalId,
  Correlation,
  RecordFunctionId,
  SortIndex  // args
};

template <std::size_t N>
inline bool keyIs(const char* raw, const char (&text)[N]) {
  constexpr std::size_t n = N - 1;
  if constexpr (n > 8) {
    // Eight bytes a load, the last one overlapping: for the args' longer keys the compiler called
    // memcmp, which cost more than the compare.
    auto load = [](const char* p) {
      std::uint64_t v;
      std::memcpy(&v, p, 8);
      return v;
    };
    for (std::size_t i = 0; i + 8 < n; i += 8)
      if (load(raw + i) != load(text + i)) return false;
    if (load(raw + n - 8) != load(text + n - 8)) return false;
  } else if (std::memcmp(raw, text, n) != 0) {
    return false;
  }
  return raw[n] == '"';
}

// A top-level key of an event.
[[gnu::always_inline]] inline Field fieldOf(const char* k) {
  switch (k[0]) {
    case 'p':
      return keyIs(k, "ph") ? Field::Ph : keyIs(k, "pid") ? Field::Pid : Field::Other;
    case 'n':
      return keyIs(k, "name") ? Field::Name : Field::Other;
    case 'c':
      return keyIs(k, "cat") ? Field::Cat : Field::Other;
    case 't':
      return keyIs(k, "ts") ? Field::Ts : keyIs(k, "tid") ? Field::Tid : Field::Other;
    case 'd':
      return keyIs(k, "dur") ? Field::Dur : Field::Other;
    case 'i':
      return keyIs(k, "id") ? Field::Id : Field::Other;
    case 'b':
      return keyIs(k, "bp") ? Field::Bp : Field::Other;
    case 's':
      return keyIs(k, "s") ? Field::Scope : Field::Other;
    case 'a':
      return keyIs(k, "args") ? Field::Args : Field::Other;
    default:
      return Field::Other;
  }
}

// A key inside an event's "args".
inline Field argFieldOf(const char* k) {
  switch (k[0]) {
    case 'E':
      return keyIs(k, "External id") ? Field::ExternalId : Field::Other;
    case 'c':
      return keyIs(k, "correlation") ? Field::Correlation : Field::Other;
    case 'R':
      return keyIs(k, "Record function id") ? Field::RecordFunctionId : Field::Other;
    case 'n':
      return keyIs(k, "name") ? Field::Name : Field::Other;
    case 's':
      return keyIs(k, "sort_index") ? Field::SortIndex : Field::Other;
    default:
      return Field::Other;
  }
}

// The length of the key that fieldOf() or argFieldOf() recognised.
constexpr std::size_t keyLength(Field field) {
  switch (field) {
    case Field::Ph:
    case Field::Ts:
    case Field::Id:
    case Field::Bp:
      return 2;
    case Field::Cat:
    case Field::Pid:
    case Field::Tid:
    case Field::Dur:
      return 3;
    case Field::Name:
    case Field::Args:
      return 4;
    case Field::Scope:
      return 1;
    case Field::ExternalId:
    case Field::Correlation:
      return 11;
    case Field::RecordFunctionId:
      return 18;
    case Field::SortIndex:
      return 10;
    case Field::Other:
      return 0;
  }
  return 0;
}
static_assert(keyLength(Field::RecordFunctionId) == sizeof("Record function id") - 1);
static_assert(keyLength(Field::ExternalId) == sizeof("External id") - 1);
static_assert(keyLength(Field::SortIndex) == sizeof("sort_index") - 1);

// One event's fields as read; which of them matter depends on the phase (kineto_batch.h). The
// views point into the batch being parsed.
struct RawEvent {
  std::string_view ph, name, cat, pid, tid, ts, dur, id, bp, scope;
  std::string_view argsRaw;  // the whole args object's text
  bool hasTs = false, hasDur = false;
  std::int64_t externalId = kNoId, correlation = kNoId, recordFunctionId = kNoId;
  std::string_view metaName;  // a metadata event's args.name
  std::int64_t metaSortIndex = 0;
  bool hasMetaSortIndex = false;
  // A counter's args, read as they are walked where "ph" came before "args" (Kineto's order);
  // otherwise left empty and read later from argsRaw.
  std::vector<std::pair<std::string, double>> counterValues;

  bool isCounter() const { return !ph.empty() && ph[0] == 'C'; }

  // Back to a fresh RawEvent's state, for a reader that reuses one for every event: each field is
  // cleared with a store of its own, where constructing a fresh one zeroed all of it with
  // `rep stos` (a tenth of the fast scanner's time), and the counter values keep their storage.
  void reset() {
    ph = name = cat = pid = tid = ts = dur = id = bp = scope = argsRaw = metaName = {};
    hasTs = hasDur = hasMetaSortIndex = false;
    externalId = correlation = recordFunctionId = kNoId;
    metaSortIndex = 0;
    counterValues.clear();
  }

  // Where the text of a plain top-level field goes; null for args and for the fields not kept.
  [[gnu::always_inline]] std::string_view* slotFor(Field field) {
    switch (field) {
      case Field::Ph:
        return &ph;
      case Field::Name:
        return &name;
      case Field::Cat:
        return &cat;
      case Field::Pid:
        return &pid;
      case Field::Tid:
        return &tid;
      case Field::Ts:
        hasTs = true;
        return &ts;
      case Field::Dur:
        hasDur = true;
        return &dur;
      case Field::Id:
        return &id;
      case Field::Bp:
        return &bp;
      case Field::Scope:
        return &scope;
      default:
        return nullptr;
    }
  }
};

// Where a parse path hands each event it has read.
class RawEventSink {
 public:
  virtual ~RawEventSink() = default;
  virtual void event(const RawEvent& raw) = 0;
};

}  // namespace sutra
