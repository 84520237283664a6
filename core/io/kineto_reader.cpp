// SPDX-License-Identifier: MIT
// Kineto / Chrome-trace JSON -> Trace. The traceEvents array is streamed in chunks (json_stream.h);
// worker threads parse each chunk with simdjson On Demand into a self-contained ParsedBatch with
// batch-local name, category and lane ids (batch_pipeline.h); the calling thread merges batches in
// file order into the TraceBuilder. The other top-level members (deviceProperties,
// distributedInfo, baseTimeNanoseconds ...) are small and parsed with nlohmann.
#include <simdjson.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <memory>
#include <nlohmann/json.hpp>
#include <thread>
#include <unordered_map>

#include "io/batch_pipeline.h"
#include "io/byte_source.h"
#include "io/json_numbers.h"
#include "io/json_stream.h"
#include "io/readers.h"
#include "model/trace_builder.h"
#include "util/mapped_array.h"

namespace sutra {
namespace {

namespace od = simdjson::ondemand;

// The text of a scalar: a string's content, or a number's / literal's JSON token.
bool scalarText(od::value& v, std::string_view& out) {
  od::json_type type;
  if (v.type().get(type)) return false;
  if (type == od::json_type::string) return !v.get_string().get(out);
  if (type == od::json_type::object || type == od::json_type::array) return false;
  out = trimJsonToken(v.raw_json_token());
  return true;
}

// Replaces every byte that is not part of a well-formed UTF-8 sequence with '?', in place (the
// length stays, so byte offsets in messages stay true). Returns how many bytes were replaced.
std::size_t replaceInvalidUtf8(std::string& text) {
  std::size_t replaced = 0;
  auto* p = reinterpret_cast<unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    std::size_t length = c < 0x80           ? 1
                         : (c >> 5) == 0x6  ? 2
                         : (c >> 4) == 0xe  ? 3
                         : (c >> 3) == 0x1e ? 4
                                            : 0;
    bool ok = length > 0 && i + length <= n && !(length == 2 && c < 0xc2);
    for (std::size_t k = 1; ok && k < length; ++k) ok = (p[i + k] & 0xc0) == 0x80;
    if (ok && length == 3) {
      const unsigned cp = ((c & 0x0fu) << 12) | ((p[i + 1] & 0x3fu) << 6);
      ok = cp >= 0x800 && !(cp >= 0xd800 && cp <= 0xdfff);
    } else if (ok && length == 4) {
      const unsigned cp = ((c & 0x07u) << 18) | ((p[i + 1] & 0x3fu) << 12);
      ok = cp >= 0x10000 && cp <= 0x10ffff;
    }
    if (ok) {
      i += length;
    } else {
      p[i++] = '?';
      ++replaced;
    }
  }
  return replaced;
}

// The fields Sutra reads, told apart by one switch on a key's raw text (the bytes after its
// opening quote, ended by the closing quote; the batch is padded, so reading a few bytes past a
// short key is safe) instead of a chain of string comparisons per field.
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

// Equal texts, compared inline: pids, tids and categories are a few bytes, and most events have
// those of the event before, where a memcmp call cost more than the compare.
inline bool sameText(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

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

// One chunk of events, parsed on a worker, with ids local to the batch.
struct ParsedBatch {
  struct LaneKey {
    std::string pid, tid;
  };
  struct CounterSample {
    std::string pid, series;
    TimeNs time;
    double value;
  };
  struct Metadata {
    std::string kind, pid, tid, name;
    std::int64_t sortIndex = 0;
    bool hasSortIndex = false;
  };
  StringTable names, categories;
  std::vector<LaneKey> lanes;
  std::vector<Event> events;
  std::vector<std::pair<char, Event>> beginEnds;  // 'B'/'E' in file order: pairing needs it
  std::vector<FlowEnd> flowEnds;
  std::vector<Instant> instants;
  std::vector<CounterSample> counters;
  std::vector<Metadata> metadata;
  ArgsStore args;
  ProblemLog problems;
};

// One event's fields as read; which of them matter depends on the phase.
struct RawEvent {
  std::string_view ph, name, cat, pid, tid, ts, dur, id, bp, scope;
  std::string_view argsRaw;
  bool hasTs = false, hasDur = false;
  std::int64_t externalId = kNoId, correlation = kNoId, recordFunctionId = kNoId;
  std::string_view metaName;
  std::int64_t metaSortIndex = 0;
  bool hasMetaSortIndex = false;

  // Where the text of a plain top-level field goes (both parse paths read through it); null for
  // args and for the fields not kept.
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

// Per worker: a simdjson parser and the lane lookup of the batch at hand.
class BatchParser {
 public:
  explicit BatchParser(const std::string& path) : path_(path) {}
  Result<ParsedBatch> parse(const JsonBatch& batch);

 private:
  Status parseEvent(od::object& object);
  bool parseFast(const JsonBatch& batch);
  bool parseObjectFast(const char*& p, RawEvent& raw);
  bool parseArgsFast(const char*& p, RawEvent& raw);
  void addEvent(const RawEvent& raw);
  std::uint32_t laneFor(std::string_view pid, std::string_view tid);
  // Empties what the parser remembers of a batch (lane, name and category ids, views into it).
  void forgetBatch() {
    laneIds_.clear();
    recentLaneCount_ = 0;
    nameSlots_.fill(NameSlot{});
    lastCategoryId_ = kNoCategory;
  }
  // A category's batch-local id. Events come grouped per thread, so most have the category of
  // the one before: that one is compared before the table is hashed.
  std::uint16_t categoryOf(std::string_view cat) {
    // lastCategory_ is a view into the previous batch until the first category of this one.
    if (lastCategoryId_ == kNoCategory || !sameText(cat, lastCategory_)) {
      lastCategoryId_ = static_cast<std::uint16_t>(out_->categories.intern(cat));
      lastCategory_ = cat;  // a view into the batch, which outlives this batch's parse
    }
    return lastCategoryId_;
  }
  static constexpr std::uint16_t kNoCategory = UINT16_MAX;
  // An event name's batch-local id. A batch holds thousands of events and a few hundred names:
  // a small table indexed by the name's length and three of its bytes remembers each name's id,
  // so the StringTable hashes the whole name (kernel names run to hundreds of bytes) only on a
  // miss. Emptied per batch: its views point into the batch.
  StringId nameOf(std::string_view name) {
    const std::size_t mid = name.size() / 2, last = name.empty() ? 0 : name.size() - 1;
    const auto byte = [&](std::size_t i) {
      return name.empty() ? 0u : static_cast<unsigned char>(name[i]);
    };
    const std::size_t slot =
        (name.size() * 131 + byte(0) * 31 + byte(mid) * 7 + byte(last)) % kNameSlots;
    NameSlot& known = nameSlots_[slot];
    if (known.id != kNoName && known.text == name) return known.id;
    known = {name, out_->names.intern(name)};
    return known.id;
  }
  struct NameSlot {
    std::string_view text;
    StringId id = kNoName;
  };
  static constexpr StringId kNoName = UINT32_MAX;
  static constexpr std::size_t kNameSlots = 509;  // a prime: the index mixes few bits
  std::array<NameSlot, kNameSlots> nameSlots_;

  const std::string& path_;
  od::parser parser_;
  ParsedBatch* out_ = nullptr;
  std::uint64_t batchOffset_ = 0;
  const char* batchEnd_ = nullptr;  // the fast path's batch: one past its closing ']'
  std::unordered_map<std::string, std::uint32_t> laneIds_;
  // The lanes of the latest events, the latest first (views into the batch; none at its start):
  // events come in runs per thread and alternate between a few (a launch and its kernel), so most
  // find their lane here without a key built and hashed.
  struct RecentLane {
    std::string_view pid, tid;
    std::uint32_t id = 0;
  };
  std::array<RecentLane, 4> recentLanes_;
  std::size_t recentLaneCount_ = 0;
  std::string_view lastCategory_;
  std::uint16_t lastCategoryId_ = kNoCategory;
  std::vector<std::pair<std::string, double>> counterValues_;
  std::string repaired_;  // a chunk with its invalid UTF-8 replaced
};

std::uint32_t BatchParser::laneFor(std::string_view pid, std::string_view tid) {
  for (std::size_t i = 0; i < recentLaneCount_; ++i) {
    if (!sameText(pid, recentLanes_[i].pid) || !sameText(tid, recentLanes_[i].tid)) continue;
    std::rotate(recentLanes_.begin(), recentLanes_.begin() + i, recentLanes_.begin() + i + 1);
    return recentLanes_[0].id;
  }
  std::string key;
  key.append(pid).push_back('\x1f');
  key.append(tid);
  auto [it, inserted] =
      laneIds_.emplace(std::move(key), static_cast<std::uint32_t>(out_->lanes.size()));
  if (inserted) out_->lanes.push_back({std::string(pid), std::string(tid)});
  recentLaneCount_ = std::min(recentLaneCount_ + 1, recentLanes_.size());
  std::rotate(recentLanes_.begin(), recentLanes_.begin() + recentLaneCount_ - 1,
              recentLanes_.begin() + recentLaneCount_);
  recentLanes_[0] = {pid, tid, it->second};
  return it->second;
}

Result<ParsedBatch> BatchParser::parse(const JsonBatch& batch) {
  ParsedBatch result;
  // A speculative batch's elements are not counted: about 190 bytes an event.
  const std::size_t elements = batch.speculative ? batch.size / 160 : batch.elements;
  result.events.reserve(elements);
  out_ = &result;
  forgetBatch();
  batchOffset_ = batch.fileOffset;
  if (parseFast(batch)) {
    out_ = nullptr;
    return result;
  }
  // The fast path accepts exactly "[object, ...]": a speculative batch it refuses may be cut in
  // the wrong place, and the whole file is read again without guessing (readKinetoTrace).
  if (batch.speculative)
    return makeError(path_, "a guessed batch boundary near byte " +
                                std::to_string(batch.fileOffset) + " did not hold");
  // The batch has something the fast path leaves to simdjson: start it again from scratch.
  result = ParsedBatch{};
  result.events.reserve(elements);
  forgetBatch();
  counterValues_.clear();
  auto fail = [&](simdjson::error_code code, const char* location) -> Error {
    std::uint64_t at = batch.fileOffset;
    if (location && location >= batch.data && location <= batch.data + batch.size)
      at += location - batch.data;
    return makeError(path_, "malformed JSON near byte " + std::to_string(at) +
                                " in traceEvents: " + simdjson::error_message(code));
  };
  od::document doc;
  auto err = parser_.iterate(batch.data, batch.size, batch.capacity).get(doc);
  if (err == simdjson::UTF8_ERROR) {
    // Names cut in the middle of a multi-byte character exist in real traces: repair the chunk
    // (invalid bytes become '?') instead of refusing the file, and count it.
    repaired_.assign(batch.data, batch.size);
    const std::size_t replaced = replaceInvalidUtf8(repaired_);
    result.problems.add(Severity::Warning, "invalid UTF-8 bytes in strings (replaced with '?')",
                        replaced, "near byte " + std::to_string(batch.fileOffset));
    repaired_.append(simdjson::SIMDJSON_PADDING, ' ');
    err = parser_.iterate(repaired_.data(), batch.size, repaired_.size()).get(doc);
  }
  if (err) return fail(err, nullptr);
  od::array events;
  if (auto err = doc.get_array().get(events)) return fail(err, nullptr);
  std::size_t seen = 0;
  for (auto element : events) {
    ++seen;
    od::object object;
    if (auto err = element.get_object().get(object)) {
      if (err == simdjson::INCORRECT_TYPE) {
        result.problems.add(Severity::Warning, "trace event that is not a JSON object, skipped");
        continue;
      }
      const char* loc = nullptr;
      if (auto where = doc.current_location(); !where.error()) loc = where.value_unsafe();
      return fail(err, loc);
    }
    if (auto s = parseEvent(object); !s) return s.error();
  }
  // On Demand stops iterating at some structural errors without reporting one: the scan counted
  // the batch's elements, and a batch that ends early is malformed, not shorter.
  if (seen != batch.elements)
    return makeError(path_, "malformed JSON in traceEvents near byte " +
                                std::to_string(batch.fileOffset) + ": " +
                                std::to_string(batch.elements - std::min(seen, batch.elements)) +
                                " of the events from there could not be read");
  out_ = nullptr;
  return result;
}

Status BatchParser::parseEvent(od::object& object) {
  RawEvent raw;
  for (auto field : object) {
    od::raw_json_string key;
    if (auto err = field.key().get(key))
      return makeError(path_, "malformed event near byte " + std::to_string(batchOffset_) + ": " +
                                  simdjson::error_message(err));
    od::value v = field.value();
    const Field kind = fieldOf(key.raw());
    std::string_view* slot = raw.slotFor(kind);
    if (kind == Field::Args) {
      od::object args;
      if (v.get_object().get(args)) continue;  // args that are not an object carry nothing we use
      if (args.raw_json().get(raw.argsRaw) || args.reset().error())
        return makeError(path_, "malformed args object near byte " + std::to_string(batchOffset_));
      // Kineto writes "ph" first; where it comes later, addEvent reads a counter's args from
      // argsRaw.
      const bool counter = !raw.ph.empty() && raw.ph[0] == 'C';
      for (auto arg : args) {
        od::raw_json_string argKey;
        if (auto err = arg.key().get(argKey))  // a silent break here dropped the rest of the batch
          return makeError(path_, "malformed args object near byte " +
                                      std::to_string(batchOffset_) + ": " +
                                      simdjson::error_message(err));
        od::value av = arg.value();
        std::string_view text;
        const Field argField = argFieldOf(argKey.raw());
        if (argField == Field::ExternalId) {
          if (scalarText(av, text)) raw.externalId = integerText(text).value_or(kNoId);
        } else if (argField == Field::Correlation) {
          if (scalarText(av, text)) raw.correlation = integerText(text).value_or(kNoId);
        } else if (argField == Field::RecordFunctionId) {
          if (scalarText(av, text)) raw.recordFunctionId = integerText(text).value_or(kNoId);
        } else if (argField == Field::Name && !counter) {
          if (scalarText(av, text)) raw.metaName = text;
        } else if (argField == Field::SortIndex && !counter) {
          if (scalarText(av, text)) {
            raw.metaSortIndex = integerText(text).value_or(0);
            raw.hasMetaSortIndex = true;
          }
        } else if (counter) {
          std::string_view k;
          if (scalarText(av, text) && !arg.unescaped_key().get(k))
            counterValues_.emplace_back(std::string(k),
                                        std::strtod(std::string(text).c_str(), nullptr));
        }
      }
      continue;
    }
    if (!slot) continue;  // unknown fields are data Sutra does not need
    if (!scalarText(v, *slot)) *slot = {};
    // Views from get_string() point into the parser's buffer, valid until the next document: every
    // one is consumed (interned or copied) before this batch's parse returns.
  }
  addEvent(raw);
  return Ok{};
}

// The fast path. Kineto writes its events in one plain shape: objects of scalar fields and one
// flat-ish "args" object, ASCII, few escapes. For that shape a direct walk of the bytes gives the
// same RawEvent as simdjson On Demand at a fraction of the cost (no separate structural index, one
// walk of the args instead of a skip and a walk). Wherever the batch holds anything else (escapes
// in a string that is read, a value of an unexpected type, invalid UTF-8, a syntax error, deep
// nesting), parseFast() returns false and the batch is parsed again with simdjson, so messages and
// results stay exactly those of the simdjson path.
namespace fast {

inline bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Skips a run of whitespace that starts at p. Pretty-printed traces (torch.profiler's own) put a
// newline and an indent before most tokens: runs longer than a byte go 16 bytes a step. The batch
// ends with ']' and padding, so the loads stay inside the buffer.
[[gnu::noinline]] void skipSpaceRun(const char*& p) {
  ++p;
#if defined(__SSE2__)
  if (!isSpace(*p)) return;
  const __m128i space = _mm_set1_epi8(' '), newline = _mm_set1_epi8('\n');
  const __m128i tab = _mm_set1_epi8('\t'), cr = _mm_set1_epi8('\r');
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i ws =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, newline)),
                     _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, cr)));
    const unsigned notSpace = ~static_cast<unsigned>(_mm_movemask_epi8(ws)) & 0xffffu;
    if (notSpace != 0) {
      p += __builtin_ctz(notSpace);
      return;
    }
    p += 16;
  }
#else
  while (isSpace(*p)) ++p;
#endif
}

// Compact traces have no whitespace between most tokens: that test stays inline.
inline void skipSpace(const char*& p) {
  if (isSpace(*p)) skipSpaceRun(p);
}

// The first quote, backslash or control byte at or after p (before end), or end.
inline const char* stringStop(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i controlMax = _mm_set1_epi8(0x1f);
  while (p + 16 <= end) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, controlMax), controlMax);
    const int mask = _mm_movemask_epi8(_mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), control));
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20) ++p;
  return p;
}

// A string without escapes, from just after its opening quote: its text, and p just past it.
inline bool plainString(const char*& p, const char* end, std::string_view& out) {
  const char* q = stringStop(p, end);
  if (q >= end || *q != '"') return false;
  out = std::string_view(p, static_cast<std::size_t>(q - p));
  p = q + 1;
  return true;
}

// Skips a string from just after its opening quote, escapes included (their text is not read).
inline bool skipString(const char*& p, const char* end) {
  for (;;) {
    const char* q = stringStop(p, end);
    if (q >= end || static_cast<unsigned char>(*q) < 0x20) return false;
    if (*q == '"') {
      p = q + 1;
      return true;
    }
    p = q + 2;  // a backslash and the byte it escapes
  }
}

// Where a number or literal ends: simdjson's token ends at whitespace or a structural byte; a
// control byte or a quote there is left to simdjson too (the caller then finds no ',' or '}').
inline bool endsToken(char c) {
  return static_cast<unsigned char>(c) <= 0x20 || c == ',' || c == '}' || c == ']' || c == ':' ||
         c == '[' || c == '{' || c == '"';
}

// A scalar as scalarText() reads it: a string without escapes, or a number's / literal's token.
inline bool scalar(const char*& p, const char* end, std::string_view& out) {
  const char c = *p;
  if (c == '"') return plainString(++p, end, out);
  if (c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f' || c == 'n') {
    const char* start = p;
#if defined(__SSE2__)
    // 16 bytes a step: a microsecond timestamp alone has 16 digits.
    const __m128i lastControl = _mm_set1_epi8(0x20), comma = _mm_set1_epi8(',');
    const __m128i close = _mm_set1_epi8('}'), colon = _mm_set1_epi8(':'),
                  quote = _mm_set1_epi8('"');
    const __m128i lower = _mm_set1_epi8(0x20);
    for (;;) {
      const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
      const __m128i folded = _mm_or_si128(v, lower);  // '[' -> '{', ']' -> '}'
      const __m128i stop = _mm_or_si128(
          _mm_or_si128(_mm_cmpeq_epi8(_mm_max_epu8(v, lastControl), lastControl),
                       _mm_cmpeq_epi8(v, comma)),
          _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(folded, close),
                                    _mm_cmpeq_epi8(folded, _mm_set1_epi8('{'))),
                       _mm_or_si128(_mm_cmpeq_epi8(v, colon), _mm_cmpeq_epi8(v, quote))));
      const int mask = _mm_movemask_epi8(stop);
      if (mask != 0) {
        p += __builtin_ctz(static_cast<unsigned>(mask));
        break;
      }
      p += 16;
    }
#else
    while (!endsToken(*p)) ++p;
#endif
    out = std::string_view(start, static_cast<std::size_t>(p - start));
    return true;
  }
  return false;
}

// Skips any value: brackets must match in kind, nesting stays shallow.
inline bool skipValue(const char*& p, const char* end) {
  const char c = *p;
  if (c == '"') return skipString(++p, end);
  if (c != '{' && c != '[') {
    std::string_view token;
    return scalar(p, end, token);
  }
  constexpr int kMaxDepth = 64;
  char closers[kMaxDepth];
  int depth = 0;
  while (p < end) {
    const char b = *p++;
    if (b == '"') {
      if (!skipString(p, end)) return false;
    } else if (b == '{' || b == '[') {
      if (depth == kMaxDepth) return false;
      closers[depth++] = b == '{' ? '}' : ']';
    } else if (b == '}' || b == ']') {
      if (depth == 0 || closers[--depth] != b) return false;
      if (depth == 0) return true;
    }
  }
  return false;
}

// An object member's key (a plain string) and the ':' after it, from the key's opening quote: the
// key's field by `classify` (fieldOf or argFieldOf), its text, and p at the member's value. A key
// Sutra reads is recognised where it starts and stepped over by its known length; only other keys
// are searched for their closing quote (most keys of a Kineto event are known ones).
template <typename Classify>
[[gnu::always_inline]] inline bool memberKey(const char*& p, const char* end, Classify classify,
                                             Field& field, std::string_view& key) {
  if (*p != '"') return false;
  ++p;
  field = classify(p);
  if (field != Field::Other) {
    key = std::string_view(p, keyLength(field));
    p += key.size() + 1;
  } else if (!plainString(p, end, key)) {
    return false;
  }
  skipSpace(p);
  if (*p != ':') return false;
  ++p;
  skipSpace(p);
  return true;
}

}  // namespace fast

bool BatchParser::parseFast(const JsonBatch& batch) {
  const char* p = batch.data;
  const char* const end = batch.data + batch.size;
  batchEnd_ = end;
  if (batch.size < 2 || *p != '[' || end[-1] != ']') return false;
  if (!simdjson::validate_utf8(batch.data, batch.size)) return false;
  ++p;
  fast::skipSpace(p);
  if (*p == ']') return p + 1 == end;
  for (;;) {
    if (*p != '{') return false;
    RawEvent raw;
    if (!parseObjectFast(p, raw)) return false;
    addEvent(raw);
    fast::skipSpace(p);
    if (*p == ',') {
      ++p;
      fast::skipSpace(p);
      continue;
    }
    return *p == ']' && p + 1 == end;
  }
}

bool BatchParser::parseObjectFast(const char*& p, RawEvent& raw) {
  const char* const end = batchEnd_;
  ++p;
  fast::skipSpace(p);
  if (*p == '}') {
    ++p;
    return true;
  }
  for (;;) {
    std::string_view key;
    Field field;
    if (!fast::memberKey(p, end, fieldOf, field, key)) return false;
    if (std::string_view* slot = raw.slotFor(field)) {
      if (!fast::scalar(p, end, *slot)) return false;
    } else if (field == Field::Args) {
      if (*p != '{' || !parseArgsFast(p, raw)) return false;
    } else if (!fast::skipValue(p, end)) {
      return false;
    }
    fast::skipSpace(p);
    if (*p == ',') {
      ++p;
      fast::skipSpace(p);
      continue;
    }
    if (*p != '}') return false;
    ++p;
    return true;
  }
}

bool BatchParser::parseArgsFast(const char*& p, RawEvent& raw) {
  const char* const end = batchEnd_;
  const char* const start = p;
  const bool counter = !raw.ph.empty() && raw.ph[0] == 'C';
  ++p;
  fast::skipSpace(p);
  if (*p != '}') {
    for (;;) {
      std::string_view keyText;
      Field argField;
      if (!fast::memberKey(p, end, argFieldOf, argField, keyText)) return false;
      const bool read = argField == Field::ExternalId || argField == Field::Correlation ||
                        argField == Field::RecordFunctionId ||
                        ((argField == Field::Name || argField == Field::SortIndex) && !counter) ||
                        counter;
      std::string_view text;
      if (!read || *p == '{' || *p == '[') {
        // Not read, or a container where a scalar is read: simdjson's scalarText() refuses those.
        if (!fast::skipValue(p, end)) return false;
      } else {
        if (!fast::scalar(p, end, text)) return false;
        if (argField == Field::ExternalId) {
          raw.externalId = integerText(text).value_or(kNoId);
        } else if (argField == Field::Correlation) {
          raw.correlation = integerText(text).value_or(kNoId);
        } else if (argField == Field::RecordFunctionId) {
          raw.recordFunctionId = integerText(text).value_or(kNoId);
        } else if (argField == Field::Name && !counter) {
          raw.metaName = text;
        } else if (argField == Field::SortIndex && !counter) {
          raw.metaSortIndex = integerText(text).value_or(0);
          raw.hasMetaSortIndex = true;
        } else {
          counterValues_.emplace_back(std::string(keyText),
                                      std::strtod(std::string(text).c_str(), nullptr));
        }
      }
      fast::skipSpace(p);
      if (*p == ',') {
        ++p;
        fast::skipSpace(p);
        continue;
      }
      if (*p != '}') return false;
      break;
    }
  }
  ++p;
  fast::skipSpace(p);  // simdjson's raw_json() of an object runs to the next token
  raw.argsRaw = std::string_view(start, static_cast<std::size_t>(p - start));
  return true;
}

void BatchParser::addEvent(const RawEvent& raw) {
  ParsedBatch& b = *out_;
  const char ph = raw.ph.empty() ? '\0' : raw.ph[0];
  // Built only for a problem's example: most events have none, and a string per event costs.
  auto where = [&] { return std::string(raw.name) + " near byte " + std::to_string(batchOffset_); };
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
      e.lane = laneFor(raw.pid, raw.tid);
      e.name = nameOf(raw.name);
      e.category = categoryOf(raw.cat);
      e.externalId = raw.externalId;
      e.correlation = raw.correlation;
      e.recordFunctionId = raw.recordFunctionId;
      if (!raw.argsRaw.empty()) e.args = b.args.add(raw.argsRaw);
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
      instant.lane = laneFor(raw.pid, raw.tid);
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
      end.lane = laneFor(raw.pid, raw.tid);
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
      if (counterValues_.empty() && !raw.argsRaw.empty()) {
        const auto args = nlohmann::json::parse(raw.argsRaw, nullptr, false);
        if (args.is_object())
          for (const auto& [key, value] : args.items()) {
            if (value.is_number())
              counterValues_.emplace_back(key, value.get<double>());
            else if (value.is_string())
              counterValues_.emplace_back(key,
                                          std::strtod(value.get<std::string>().c_str(), nullptr));
          }
      }
      auto at = time(raw.ts, "ts");
      if (at) {
        for (auto& [key, value] : counterValues_) {
          std::string series = counterValues_.size() == 1 && key == raw.name
                                   ? std::string(raw.name)
                                   : std::string(raw.name) + "/" + key;
          b.counters.push_back({std::string(raw.pid), std::move(series), *at, value});
        }
      }
      counterValues_.clear();
      return;
    }
    default:
      b.problems.add(Severity::Info, "event phase Sutra does not use, skipped",
                     "ph '" + std::string(raw.ph) + "' (" + std::string(raw.name) + ")");
  }
}

// Folds batches, in file order, into one TraceBuilder.
class BatchMerger {
 public:
  explicit BatchMerger(const std::string& path) : builder_(path) {}
  void merge(ParsedBatch&& batch);
  void member(std::string_view key, std::string_view raw) { members_.emplace_back(key, raw); }
  const std::vector<std::pair<std::string, std::string>>& members() const { return members_; }
  void problem(Severity severity, std::string_view what, std::uint64_t count, std::string example) {
    builder_.trace().problems.add(severity, what, count, std::move(example));
  }
  Trace finish();

 private:
  std::uint16_t globalCategory(const ParsedBatch& b, std::uint16_t local);
  void applyMetadata(Trace& trace);

  TraceBuilder builder_;
  // The events, remapped, one array per lane until finish() moves them lane after lane into the
  // model's vector of the exact size: the model wants them grouped by lane, and grouping them
  // here costs nothing where grouping them afterwards moved every event to a random place (a
  // quarter of the load's CPU time at 1 GB). Growth never holds two copies (mapped_array.h), and
  // neither does the move.
  std::vector<std::unique_ptr<MappedArray<Event>>> laneEvents_;
  MappedArray<Event>& laneEvents(LaneId lane) {
    while (laneEvents_.size() <= lane)
      laneEvents_.push_back(std::make_unique<MappedArray<Event>>());
    return *laneEvents_[lane];
  }
  std::vector<CategoryClass> classOfCategory_;
  std::unordered_map<LaneId, std::vector<Event>> openBegins_;
  std::vector<std::pair<std::string, std::string>> members_;
};

void BatchMerger::merge(ParsedBatch&& b) {
  Trace& t = builder_.trace();
  std::vector<StringId> names(b.names.size());
  for (StringId i = 0; i < names.size(); ++i) names[i] = t.names.intern(b.names.view(i));
  std::vector<std::uint16_t> cats(b.categories.size());
  for (StringId i = 0; i < cats.size(); ++i) {
    const StringId id = t.categories.intern(b.categories.view(i));
    if (id >= classOfCategory_.size()) classOfCategory_.resize(id + 1, CategoryClass::Other);
    classOfCategory_[id] = classifyCategory(b.categories.view(i));
    cats[i] = static_cast<std::uint16_t>(id);
  }
  std::vector<LaneId> lanes(b.lanes.size());
  for (std::size_t i = 0; i < lanes.size(); ++i)
    lanes[i] = builder_.lane(b.lanes[i].pid, b.lanes[i].tid);
  const std::uint32_t argsBase = t.args.adopt(std::move(b.args));
  auto remap = [&](Event& e) {
    e.name = names[e.name];
    e.category = cats[e.category];
    e.klass = classOfCategory_[e.category];
    e.lane = lanes[e.lane];
    if (e.args != kNoArgs) e.args += argsBase;
  };
  for (Event& e : b.events) {
    remap(e);
    laneEvents(e.lane).push_back(e);
  }
  for (auto& [ph, e] : b.beginEnds) {
    remap(e);
    auto& open = openBegins_[e.lane];
    if (ph == 'B') {
      open.push_back(e);
    } else if (open.empty()) {
      t.problems.add(Severity::Warning, "'E' event without a matching 'B'",
                     std::string(t.names.view(e.name)));
    } else {
      Event begun = open.back();
      open.pop_back();
      begun.dur = std::max<TimeNs>(0, e.start - begun.start);
      laneEvents(begun.lane).push_back(begun);
    }
  }
  for (FlowEnd f : b.flowEnds) {
    f.category = cats[f.category];
    f.lane = lanes[f.lane];
    builder_.addFlowEnd(f);
  }
  for (Instant i : b.instants) {
    i.name = names[i.name];
    i.lane = lanes[i.lane];
    if (i.args != kNoArgs) i.args += argsBase;
    t.instants.push_back(i);
  }
  for (const auto& c : b.counters) builder_.addCounterSample(c.pid, c.series, c.time, c.value);
  for (const auto& m : b.metadata) {
    if (m.kind == "process_name")
      builder_.setProcessName(m.pid, m.name);
    else if (m.kind == "thread_name")
      builder_.setThreadName(m.pid, m.tid, m.name);
    else if (m.kind == "process_sort_index" && m.hasSortIndex)
      builder_.setProcessSortIndex(m.pid, m.sortIndex);
    else if (m.kind == "thread_sort_index" && m.hasSortIndex)
      builder_.setThreadSortIndex(m.pid, m.tid, m.sortIndex);
  }
  t.problems.merge(b.problems);
}

Trace BatchMerger::finish() {
  std::vector<std::size_t> eventsPerLane;
  std::size_t total = 0;
  for (const auto& lane : laneEvents_) total += eventsPerLane.emplace_back(lane->size());
  builder_.placeLanes(eventsPerLane);
  auto& events = builder_.trace().events;
  const auto laneCount = static_cast<LaneId>(builder_.trace().lanes.size());
  // The copy into the model is one thread's work, lane after lane. On a large trace a helper sorts
  // the flow ends meanwhile, then sorts and nests each lane as soon as it is in place, and this
  // thread joins in once the copy is done. (A small trace's take less than starting a thread.)
  std::atomic<LaneId> copied{0}, nextToFinish{0};
  auto finishLanes = [&] {
    for (LaneId l = nextToFinish++; l < laneCount; l = nextToFinish++) {
      for (LaneId c = copied.load(std::memory_order_acquire); c <= l;
           c = copied.load(std::memory_order_acquire))
        copied.wait(c, std::memory_order_acquire);
      builder_.finishLane(l);
    }
  };
  std::thread helper;
  if (total >= TraceBuilder::kParallelFrom)
    helper = std::thread([&] {
      builder_.sortFlowEnds();
      finishLanes();
    });
  for (LaneId l = 0; l < laneCount; ++l) {
    if (l < laneEvents_.size()) laneEvents_[l]->drainInto(events);
    copied.store(l + 1, std::memory_order_release);
    copied.notify_all();
  }
  finishLanes();
  if (helper.joinable()) helper.join();
  for (auto& [lane, open] : openBegins_)
    if (!open.empty())
      builder_.trace().problems.add(Severity::Warning, "'B' event without a matching 'E'",
                                    open.size(),
                                    std::string(builder_.trace().names.view(open.front().name)));
  Trace trace = builder_.finish();
  applyMetadata(trace);
  return trace;
}

void BatchMerger::applyMetadata(Trace& trace) {
  auto& meta = trace.meta;
  for (auto& [key, raw] : members_) {
    nlohmann::json value = nlohmann::json::parse(raw, nullptr, false);
    if (value.is_discarded()) {
      trace.problems.add(Severity::Warning, "top-level member that is not valid JSON", key);
      continue;
    }
    if (key == "schemaVersion") {
      meta.schemaVersion = value.is_string() ? value.get<std::string>() : value.dump();
    } else if (key == "baseTimeNanoseconds" && value.is_number_integer()) {
      meta.baseTimeNanoseconds = value.get<std::int64_t>();
    } else if (key == "traceName" && value.is_string()) {
      meta.traceName = value.get<std::string>();
    } else if (key == "deviceProperties" && value.is_array()) {
      for (const auto& d : value) {
        if (!d.is_object()) continue;
        DeviceInfo info;
        // A member of another type reads as absent (nlohmann's value() would throw on it).
        auto number = [&](const char* k) {
          const auto it = d.find(k);
          return it != d.end() && it->is_number() ? it->get<std::int64_t>() : std::int64_t{0};
        };
        const auto name = d.find("name");
        info.id = number("id");
        info.name = name != d.end() && name->is_string() ? name->get<std::string>() : "";
        info.totalGlobalMem = number("totalGlobalMem");
        info.numSms = number("numSms");
        info.rawJson = d.dump();
        meta.devices.push_back(std::move(info));
      }
    } else if (key == "distributedInfo" && value.is_object()) {
      meta.distributedInfoJson = raw;
      if (value.contains("rank") && value["rank"].is_number_integer())
        meta.rank = value["rank"].get<int>();
      if (value.contains("world_size") && value["world_size"].is_number_integer())
        meta.worldSize = value["world_size"].get<int>();
      if (value.contains("backend") && value["backend"].is_string())
        meta.distributedBackend = value["backend"].get<std::string>();
    } else {
      meta.other.emplace_back(key, raw);
    }
  }
  // Name the device columns as torch's key_averages() does.
  auto has = [&](std::string_view cat) {
    return trace.categories.find(cat) != StringTable::kMissing;
  };
  if (has("mtia_runtime") || has("mtia_ccp_events"))
    meta.deviceBackend = "MTIA";
  else if (has("xpu_runtime") || has("xpu_driver"))
    meta.deviceBackend = "XPU";
  else if (has("hpu_op"))
    meta.deviceBackend = "HPU";
  else if (has("privateuse1_runtime") || has("privateuse1_driver")) {
    meta.deviceBackend = "PRIVATEUSE1";
    for (const auto& d : meta.devices)  // a backend that names its devices: "neuron" -> "NEURON"
      if (d.name.find("neuron") != std::string::npos || d.name.find("Neuron") != std::string::npos)
        meta.deviceBackend = "NEURON";
  }
}

// One pass over the file: the trace or the error, and whether batches were cut by guessing
// (json_stream.h's speculativeSplit) or the user cancelled.
struct LoadPass {
  Result<Trace> trace;
  bool guessed = false;
  bool cancelled = false;
};

LoadPass loadPass(const std::string& path, const ProgressFn& progress, bool guessBoundaries,
                  std::size_t chunkBytes) {
  LoadPass pass{makeError(path, "not loaded")};
  auto opened = ByteSource::open(path);
  if (!opened) {
    pass.trace = opened.error();
    return pass;
  }
  ByteSource& source = **opened;

  BatchMerger merger(path);
  const unsigned workers = parseWorkerCount();
  std::vector<BatchParser> parsers;
  for (unsigned w = 0; w < BatchPipeline<ParsedBatch>::parserCount(workers); ++w)
    parsers.emplace_back(path);
  BatchPipeline<ParsedBatch> pipeline(
      workers, [&](unsigned w, const JsonBatch& batch) { return parsers[w].parse(batch); },
      [&](ParsedBatch&& batch) { merger.merge(std::move(batch)); });

  JsonStreamHandlers handlers;
  handlers.speculativeSplit = guessBoundaries;
  handlers.onBatch = [&](const JsonBatch& batch) {
    pass.guessed |= batch.speculative;
    return pipeline.submit(batch);
  };
  handlers.onBatchBuffer = [&](const JsonBatch& batch, std::vector<char>&& buffer) {
    pass.guessed |= batch.speculative;
    return pipeline.submitBuffer(batch, std::move(buffer));
  };
  handlers.spareBuffer = [&] { return pipeline.spareBuffer(); };
  handlers.onMember = [&](std::string_view key, std::string_view raw) { merger.member(key, raw); };
  if (progress)
    handlers.onProgress = [&](std::uint64_t) {
      pass.cancelled = !progress(source.fileBytesRead(), source.fileSize());
      return !pass.cancelled;
    };
  auto summary = streamJsonArray(source, "traceEvents", handlers, chunkBytes);
  auto finished = pipeline.finish();
  // A batch that failed lies before wherever the scanner stopped: its error comes first in the
  // file, and taking it first makes the message the same whichever thread noticed its error first.
  if (!finished) {
    pass.trace = finished.error();
    return pass;
  }
  if (!summary) {
    pass.trace = summary.error();
    return pass;
  }
  if (summary->speculativeBatches > 0 && summary->controlCharactersReplaced > 0) {
    // The exact scan at the end repaired them, but guessed batches are not counted, so the
    // example's element index would be wrong: the pass without guessing gives the right one.
    pass.trace = makeError(path, "control characters after guessed batches");
    return pass;
  }
  if (summary->controlCharactersReplaced > 0)
    merger.problem(Severity::Warning, "raw control characters in strings (replaced with spaces)",
                   summary->controlCharactersReplaced,
                   controlCharacterExample(*summary, "traceEvents"));
  if (!summary->foundArray) {
    for (const auto& [k, v] : merger.members()) {
      if (k != "traceEvents") continue;
      pass.trace = makeError(path, "not a Kineto trace: traceEvents is not an array (found " +
                                       std::string(jsonValueKind(v)) + ")");
      return pass;
    }
    std::string keys;
    for (const auto& [k, v] : merger.members()) keys += (keys.empty() ? "" : ", ") + k;
    pass.trace =
        makeError(path, "not a Kineto trace: no \"traceEvents\" array (top-level members: " +
                            (keys.empty() ? std::string("none") : keys) + ")");
    return pass;
  }
  pass.trace = merger.finish();
  return pass;
}

}  // namespace

namespace {

Result<Trace> readInChunks(const std::string& path, std::size_t chunkBytes,
                           const ProgressFn& progress) {
  LoadPass pass = loadPass(path, progress, true, chunkBytes);
  if (pass.trace || !pass.guessed || pass.cancelled) return std::move(pass.trace);
  // A guessed boundary did not hold, or the file has something only the exact scan checks or
  // repairs (malformed JSON, raw control characters): read it again without guessing. Its result,
  // errors included, is the exact scan's.
  return std::move(loadPass(path, progress, false, chunkBytes).trace);
}

}  // namespace

Result<Trace> readKinetoTraceInChunks(const std::string& path, std::size_t chunkBytes) {
  return readInChunks(path, chunkBytes, {});
}

Result<Trace> readKinetoTrace(const std::string& path, const ProgressFn& progress) {
  // Small chunks keep both cores busy and memory low: a batch every 512 KB (a batch costs
  // simdjson about five times its size in index and string buffers).
  return readInChunks(path, 512 << 10, progress);
}

}  // namespace sutra
