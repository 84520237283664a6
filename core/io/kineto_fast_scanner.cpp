// SPDX-License-Identifier: MIT
#include "io/kineto_fast_scanner.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "io/json_numbers.h"

namespace sutra {
namespace {

inline bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// Skips a run of whitespace that starts at p. Pretty-printed traces (torch.profiler's own) put a
// newline and an indent before most tokens: runs longer than a byte go 16 bytes a step. The batch
// ends with ']' and padding, so the loads stay inside the buffer. It takes and gives back the
// position by value: a position passed by reference to a call not inlined must live in memory, and
// every step of the scan then waited for a store and a load (a tenth of the scan's time).
[[gnu::noinline]] const char* skipSpaceRun(const char* p) {
  ++p;
#if defined(__SSE2__)
  if (!isSpace(*p)) return p;
  const __m128i space = _mm_set1_epi8(' '), newline = _mm_set1_epi8('\n');
  const __m128i tab = _mm_set1_epi8('\t'), cr = _mm_set1_epi8('\r');
  for (;;) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const __m128i ws =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, space), _mm_cmpeq_epi8(v, newline)),
                     _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, cr)));
    const unsigned notSpace = ~static_cast<unsigned>(_mm_movemask_epi8(ws)) & 0xffffu;
    if (notSpace != 0) return p + __builtin_ctz(notSpace);
    p += 16;
  }
#else
  while (isSpace(*p)) ++p;
  return p;
#endif
}

// Compact traces have no whitespace between most tokens: that test stays inline.
[[gnu::always_inline]] inline void skipSpace(const char*& p) {
  if (isSpace(*p)) p = skipSpaceRun(p);
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

// A scalar as the simdjson path reads it (kineto_simdjson_parse.cpp's scalarText()): a string
// without escapes, or a number's / literal's token. Inlined, so that the position stays in a
// register (skipSpaceRun() says why).
[[gnu::always_inline]] inline bool scalar(const char*& p, const char* end, std::string_view& out) {
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

// Skips an array or object from its opening bracket: p just past its close, or null where the
// brackets do not match in kind or nest too deep. By value, as skipSpaceRun().
[[gnu::noinline]] const char* skipContainer(const char* p, const char* end) {
  constexpr int kMaxDepth = 64;
  char closers[kMaxDepth];
  int depth = 0;
  while (p < end) {
    const char b = *p++;
    if (b == '"') {
      if (!skipString(p, end)) return nullptr;
    } else if (b == '{' || b == '[') {
      if (depth == kMaxDepth) return nullptr;
      closers[depth++] = b == '{' ? '}' : ']';
    } else if (b == '}' || b == ']') {
      if (depth == 0 || closers[--depth] != b) return nullptr;
      if (depth == 0) return p;
    }
  }
  return nullptr;
}

// Skips any value (most are the scalars of args not read: inlined, as scalar()).
[[gnu::always_inline]] inline bool skipValue(const char*& p, const char* end) {
  const char c = *p;
  if (c == '"') return skipString(++p, end);
  if (c != '{' && c != '[') {
    std::string_view token;
    return scalar(p, end, token);
  }
  p = skipContainer(p, end);
  return p != nullptr;
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

// The bytes between the members' values in the object before of the same kind (an event, or an
// event's args), place by place: from the '{' or the end of the value before to the start of the
// member's value ("{\"ph\":", ",\"ts\":", ", \"External id\": "). Kineto writes every event of a
// kind with the same keys in the same order and the same spacing, so one compare of 16 bytes most
// often steps over the separator, the key and the colon at once. Walking them token by token made
// each step wait for the load before it, and that chain was most of the scan's time.
class MemberOrder {
 public:
  // Where the bytes at p are the ones remembered for `place`: p at the member's value, its field
  // and key.
  [[gnu::always_inline]] bool skipToValue(std::size_t place, const char*& p, Field& field,
                                          std::string_view& key) const {
    if (place >= kPlaces) return false;
    const Guess& g = guesses_[place];
    // Batches are padded: 16 bytes are there. An unset guess has a zero mask and length 0.
    if (g.length == 0 || (load8(p) & g.mask[0]) != g.bytes[0] ||
        (load8(p + 8) & g.mask[1]) != g.bytes[1])
      return false;
    field = g.field;
    key = std::string_view(p + g.keyAt, g.keyLength);
    p += g.length;
    return true;
  }
  // The member at `place` read token by token: its bytes from `from` to its value at `value`.
  void remember(std::size_t place, const char* from, const char* value, Field field,
                std::string_view key) {
    if (place >= kPlaces) return;
    Guess& g = guesses_[place];
    const auto length = static_cast<std::size_t>(value - from);
    g.length = 0;
    if (length > 16) return;
    for (int half = 0; half < 2; ++half) {
      const std::size_t bytes = std::clamp<std::size_t>(length, 8 * half, 8 * half + 8) - 8 * half;
      g.mask[half] = bytes == 0 ? 0 : ~std::uint64_t{0} >> (64 - 8 * bytes);
      g.bytes[half] = load8(from + 8 * half) & g.mask[half];
    }
    g.field = field;
    g.keyAt = static_cast<std::uint8_t>(key.data() - from);
    g.keyLength = static_cast<std::uint8_t>(key.size());
    g.length = static_cast<std::uint8_t>(length);
  }

 private:
  static std::uint64_t load8(const char* p) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);  // little-endian: p[0] is the low byte
    return v;
  }
  struct Guess {
    std::uint64_t bytes[2] = {0, 0}, mask[2] = {0, 0};
    std::uint8_t length = 0;  // 0: nothing remembered
    std::uint8_t keyAt = 0, keyLength = 0;
    Field field = Field::Other;
  };
  static constexpr std::size_t kPlaces = 16;
  Guess guesses_[kPlaces];
};

// An object's members, from its '{' to just past its '}': each member's key by `order` or, where
// the bytes differ from the object before's, by `classify`; then `value(field, key)` reads the
// value from p.
template <typename Classify, typename Value>
[[gnu::always_inline]] inline bool members(const char*& p, const char* end, MemberOrder& order,
                                           Classify classify, Value value) {
  for (std::size_t place = 0;; ++place) {
    Field field;
    std::string_view key;
    const char* const from = p;  // the '{', or just past the value before
    if (!order.skipToValue(place, p, field, key)) {
      skipSpace(p);
      if (*p == '}' && place > 0) {
        ++p;
        return true;
      }
      if (*p != (place == 0 ? '{' : ',')) return false;
      ++p;
      skipSpace(p);
      if (*p == '}' && place == 0) {
        ++p;
        return true;
      }
      if (!memberKey(p, end, classify, field, key)) return false;
      order.remember(place, from, p, field, key);
    } else {
      skipSpace(p);  // where the value is further on than in the object before
    }
    if (!value(field, key)) return false;
  }
}

// Both objects' member orders: an event's and its args'.
struct MemberOrders {
  MemberOrder event, args;
};

// An event's args, from their '{': the ids Sutra reads, a metadata event's name and sort index,
// a counter's values, and the whole object's text.
bool argsObject(const char*& p, const char* end, RawEvent& raw, MemberOrder& order) {
  const char* const start = p;
  const bool counter = raw.isCounter();
  const auto value = [&](Field argField, std::string_view keyText) {
    const bool read = argField == Field::ExternalId || argField == Field::Correlation ||
                      argField == Field::RecordFunctionId ||
                      ((argField == Field::Name || argField == Field::SortIndex) && !counter) ||
                      counter;
    std::string_view text;
    if (!read || *p == '{' || *p == '[') {
      // Not read, or a container where a scalar is read: simdjson's scalarText() refuses those.
      return skipValue(p, end);
    }
    if (!scalar(p, end, text)) return false;
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
      raw.counterValues.emplace_back(std::string(keyText),
                                     std::strtod(std::string(text).c_str(), nullptr));
    }
    return true;
  };
  if (!members(p, end, order, argFieldOf, value)) return false;
  skipSpace(p);  // simdjson's raw_json() of an object runs to the next token
  raw.argsRaw = std::string_view(start, static_cast<std::size_t>(p - start));
  return true;
}

// One event, from its '{': its fields into `raw`, and p just past its '}'.
bool eventObject(const char*& p, const char* end, RawEvent& raw, MemberOrders& orders) {
  return members(p, end, orders.event, fieldOf, [&](Field field, std::string_view) {
    if (std::string_view* slot = raw.slotFor(field)) return scalar(p, end, *slot);
    if (field == Field::Args) return *p == '{' && argsObject(p, end, raw, orders.args);
    return skipValue(p, end);
  });
}

}  // namespace

bool scanPlainKinetoEvents(const JsonBatch& batch, RawEventSink& sink) {
  const char* p = batch.data;
  const char* const end = batch.data + batch.size;
  if (batch.size < 2 || *p != '[' || end[-1] != ']') return false;
  if (!simdjson::validate_utf8(batch.data, batch.size)) return false;
  ++p;
  skipSpace(p);
  if (*p == ']') return p + 1 == end;
  RawEvent raw;  // one for every event (RawEvent::reset() says why)
  MemberOrders orders;
  for (;;) {
    if (*p != '{') return false;
    raw.reset();
    if (!eventObject(p, end, raw, orders)) return false;
    sink.event(raw);
    skipSpace(p);
    if (*p == ',') {
      ++p;
      skipSpace(p);
      continue;
    }
    return *p == ']' && p + 1 == end;
  }
}

}  // namespace sutra
