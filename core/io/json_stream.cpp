// SPDX-License-Identifier: MIT
#include "io/json_stream.h"

#include <algorithm>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <optional>
#include <vector>

namespace sutra {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// The most a single element or member value may take while it is read: memory stays bounded
// whatever the input holds.
constexpr std::size_t kMaxPendingBytes = std::size_t{256} << 20;

// Byte classes for the hot loops: which bytes end a run of uninteresting ones.
struct ByteTables {
  bool structural[256] = {};  // " { } [ ] , and a backslash (no JSON outside a string)
  bool stringStop[256] = {};  // " and backslash, and control bytes (invalid raw in strings)
  constexpr ByteTables() {
    for (unsigned char c : {'"', '{', '}', '[', ']', ',', '\\'}) structural[c] = true;
    stringStop[static_cast<unsigned char>('"')] = true;
    stringStop[static_cast<unsigned char>('\\')] = true;
    for (int c = 0; c < 0x20; ++c) stringStop[c] = true;
  }
};
constexpr ByteTables kTables;

// The first byte at or after i (before n) that is structural, or n. A backslash counts: outside a
// string it is malformed JSON, and the 64-byte scan would read it as an escape. SSE2 (the x86-64
// baseline) looks at 16 bytes a step: pretty-printed traces are mostly indentation, which this
// skips at about one instruction a byte (measured with callgrind: the scalar loop took 4).
inline std::size_t findStructural(const char* p, std::size_t i, std::size_t n) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
  const __m128i openSquare = _mm_set1_epi8('['), closeSquare = _mm_set1_epi8(']'),
                comma = _mm_set1_epi8(','), backslash = _mm_set1_epi8('\\');
  while (i + 16 <= n) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i hit = _mm_or_si128(
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, open)),
                     _mm_or_si128(_mm_cmpeq_epi8(v, close), _mm_cmpeq_epi8(v, openSquare))),
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, closeSquare), _mm_cmpeq_epi8(v, comma)),
                     _mm_cmpeq_epi8(v, backslash)));
    const int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    i += 16;
  }
#endif
  while (i < n && !kTables.structural[static_cast<unsigned char>(p[i])]) ++i;
  return i;
}

// The first quote, backslash or control byte at or after i (before n), or n.
inline std::size_t findStringStop(const char* p, std::size_t i, std::size_t n) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i controlMax = _mm_set1_epi8(0x1f);
  while (i + 16 <= n) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i control = _mm_cmpeq_epi8(_mm_max_epu8(v, controlMax), controlMax);  // v <= 0x1f
    const int mask = _mm_movemask_epi8(_mm_or_si128(
        _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), control));
    if (mask != 0) return i + static_cast<std::size_t>(__builtin_ctz(static_cast<unsigned>(mask)));
    i += 16;
  }
#endif
  while (i < n && !kTables.stringStop[static_cast<unsigned char>(p[i])]) ++i;
  return i;
}

#if defined(__SSE2__)
// One 64-byte block's byte classes as bit masks (bit k = byte k), computed 16 bytes a step.
struct BlockMasks {
  std::uint64_t quote = 0, backslash = 0, control = 0, structural = 0;  // structural: { } [ ] ,
};

inline BlockMasks classifyBlock(const char* p) {
  BlockMasks m;
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  const __m128i controlMax = _mm_set1_epi8(0x1f), lower = _mm_set1_epi8(0x20);
  const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}'), comma = _mm_set1_epi8(',');
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const __m128i folded =
        _mm_or_si128(v, lower);  // '[' -> '{', ']' -> '}'; nothing else maps there
    const auto bits = [](__m128i x) {
      return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(x)));
    };
    const int shift = 16 * k;
    m.quote |= bits(_mm_cmpeq_epi8(v, quote)) << shift;
    m.backslash |= bits(_mm_cmpeq_epi8(v, backslash)) << shift;
    m.control |= bits(_mm_cmpeq_epi8(_mm_max_epu8(v, controlMax), controlMax)) << shift;
    m.structural |=
        bits(_mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(folded, open), _mm_cmpeq_epi8(folded, close)),
                          _mm_cmpeq_epi8(v, comma)))
        << shift;
  }
  return m;
}

// Bit k set where an odd number of the bits 0..k of x are set: "inside a string" from the quotes.
inline std::uint64_t prefixXor(std::uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

// The bytes escaped by a backslash (simdjson's branchless method): a run of backslashes escapes
// the byte after it when the run is odd. `carry` says whether the block's first byte is escaped by
// the previous block and is updated for the next.
inline std::uint64_t escapedBytes(std::uint64_t backslash, std::uint64_t& carry) {
  backslash &= ~carry;
  const std::uint64_t followsEscape = (backslash << 1) | carry;
  constexpr std::uint64_t kEvenBits = 0x5555555555555555ULL;
  const std::uint64_t oddStarts = backslash & ~kEvenBits & ~followsEscape;
  std::uint64_t evenStarts = 0;
  carry = __builtin_add_overflow(oddStarts, backslash, &evenStarts) ? 1 : 0;
  return (kEvenBits ^ (evenStarts << 1)) & followsEscape;
}
#endif

std::string describeByte(char c) {
  if (c >= 0x20 && c < 0x7f) return std::string("'") + c + "'";
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(c));
  return hex;
}

// The scanner's position in the top-level structure.
enum class Where {
  BeforeRoot,  // nothing but whitespace seen
  ExpectKey,   // inside the root object, before a member's key (or '}')
  InKey,       // inside a member's key string
  ExpectColon,
  ExpectValue,
  InValue,     // inside a member value that is captured as raw text
  InArray,     // inside the streamed array
  AfterValue,  // after a member value: ',' or '}'
  Done,        // the root value is closed
};

class Streamer {
 public:
  Streamer(ByteSource& source, std::string_view arrayKey, const JsonStreamHandlers& handlers,
           std::size_t chunk)
      : source_(source), arrayKey_(arrayKey), handlers_(handlers), chunk_(chunk) {}

  Result<JsonStreamSummary> run();

 private:
  Status scan();                         // scans buf_[pos_, filled_)
  JsonBatch frameBatch();                // the complete elements, framed in place and counted
  Status flushBatch();                   // hands complete elements to the caller
  Status handOverBatch();                // the same with the buffer that holds them (onBatchBuffer)
  std::size_t scanArray(std::size_t i);  // the hot loop inside the streamed array
  std::size_t scanArrayBlocks(std::size_t i);        // its 64-bytes-a-step part
  bool arrayByte(std::size_t i, std::size_t& next);  // one structural byte in the array
  void noteControlCharacter(std::size_t at);
  std::size_t skipString(std::size_t i);  // from inside a string to just past its closing quote
  Error malformed(std::size_t at, const std::string& what) const {
    return makeError(source_.path(),
                     "malformed JSON at byte " + std::to_string(base_ + at) + ": " + what);
  }
  std::uint64_t offset(std::size_t at) const { return base_ + at; }

  ByteSource& source_;
  std::string_view arrayKey_;
  const JsonStreamHandlers& handlers_;
  std::size_t chunk_;

  std::vector<char> buf_;
  std::size_t filled_ = 0;  // valid bytes in buf_
  std::size_t pos_ = 0;     // next byte to scan
  std::uint64_t base_ = 0;  // content offset of buf_[0]

  Where where_ = Where::BeforeRoot;
  int depth_ = 0;
  bool inString_ = false;
  int arrayDepth_ = 0;        // depth of the streamed array's elements
  std::size_t keyStart_ = 0;  // InKey: index of the key's first byte
  std::string key_;
  std::size_t valueStart_ = 0;       // InValue: index of the value's first byte
  int valueDepth_ = 0;               // depth at which the captured value ends
  std::size_t batchStart_ = 0;       // InArray: the delimiter before the first unflushed element
  std::size_t lastComplete_ = 0;     // InArray: the delimiter after the last complete element
  std::size_t pendingElements_ = 0;  // complete elements after batchStart_
  bool elementContent_ = false;      // non-space seen since the last delimiter
  bool arrayClosed_ = false;
  bool escapePending_ = false;  // a chunk ended between a backslash and the byte it escapes
  std::optional<Error> error_;  // set by the hot loops, which return positions
  JsonStreamSummary summary_;
  bool hasContent(std::size_t from, std::size_t to) const;
  std::size_t keptFrom() const;  // the first byte the buffer must keep
  Status checkZeros(std::size_t atLeast) const;
  Status checkGrowth() const;
  std::size_t likelyBoundary() const;
  Status handOverSpeculative(std::size_t boundary);
  void resumeExactScan();
  bool speculating_ = false;      // the bytes after batchStart_ are not scanned
  bool speculationOver_ = false;  // the end of the input: scan exactly to the end
};

Result<JsonStreamSummary> Streamer::run() {
  buf_.resize(chunk_ + kJsonPadding);
  for (;;) {
    // Only whitespace since the last delimiter in the array (a file padded with blanks): the
    // delimiter moves to the last blank and the rest goes, so blanks never pile up in memory.
    // (After a speculative hand-over the bytes after the boundary hold its '{': never blank.)
    if (where_ == Where::InArray && !inString_ && pendingElements_ == 0 && pos_ > batchStart_ + 1 &&
        !hasContent(batchStart_ + 1, pos_)) {
      buf_[pos_ - 1] = buf_[batchStart_];
      batchStart_ = lastComplete_ = pos_ - 1;
    }
    // Between chunks, inside the array, the scan may give way to guessing (speculativeSplit):
    // what it knows of the partial element after batchStart_ is dropped, and the guess starts
    // from batchStart_.
    if (handlers_.speculativeSplit && where_ == Where::InArray && !speculating_ &&
        !speculationOver_)
      speculating_ = true;
    // Keep what is still needed: the unflushed part of the array, or the member being captured.
    std::size_t keep = pos_;
    if (where_ == Where::InArray)
      keep = batchStart_;
    else if (where_ == Where::InValue)
      keep = valueStart_;
    else if (where_ == Where::InKey)
      keep = keyStart_;
    if (keep > 0) {
      std::memmove(buf_.data(), buf_.data() + keep, filled_ - keep);
      filled_ -= keep;
      pos_ -= keep;
      base_ += keep;
      batchStart_ -= std::min(batchStart_, keep);
      lastComplete_ -= std::min(lastComplete_, keep);
      valueStart_ -= std::min(valueStart_, keep);
      keyStart_ -= std::min(keyStart_, keep);
    }
    // An element larger than what is free (or a chunk filled by a partial element) grows the
    // buffer, up to a bound: no trace event or node is that large, and zeros or blanks must not
    // take the memory of their decompressed size.
    if (buf_.size() - kJsonPadding - filled_ < std::max<std::size_t>(chunk_ / 2, 1)) {
      if (auto s = checkGrowth(); !s) return s.error();
      buf_.resize(2 * (buf_.size() - kJsonPadding) + kJsonPadding);
    }
    const std::size_t wanted = buf_.size() - kJsonPadding - filled_;
    auto n = source_.read(buf_.data() + filled_, wanted);
    if (!n) return n.error();
    const bool atEnd = *n == 0;
    filled_ += *n;
    if (speculating_) {
      // A short read is the input's last (ByteSource fills the buffer until the end): it holds
      // the array's end and what follows, where "}, {" may be no element boundary at all.
      const bool last = *n < wanted;
      if (const std::size_t boundary = last ? 0 : likelyBoundary(); boundary != 0) {
        if (auto s = handOverSpeculative(boundary); !s) return s.error();
        if (handlers_.onProgress && !handlers_.onProgress(base_ + filled_))
          return makeError(source_.path(), "loading cancelled");
        continue;
      }
      // No boundary in sight (an element larger than a chunk, or the end of the input): the
      // exact scan goes on from the last boundary handed over.
      resumeExactScan();
      speculationOver_ = last;
    } else if (atEnd) {
      break;
    }
    if (auto s = scan(); !s) return s.error();
    // (At least a megabyte, so that a small input reads alike in any chunk size.)
    if (auto s = checkZeros(std::max<std::size_t>(chunk_ / 2, 1 << 20)); !s) return s.error();
    if (where_ == Where::InArray && pendingElements_ > 0 && handlers_.onBatchBuffer) {
      if (auto s = handOverBatch(); !s) return s.error();
    } else if (where_ == Where::InArray || arrayClosed_) {
      if (auto s = flushBatch(); !s) return s.error();
    }
    if (handlers_.onProgress && !handlers_.onProgress(base_ + filled_))
      return makeError(source_.path(), "loading cancelled");
  }
  summary_.contentBytes = base_ + filled_;
  const std::uint64_t end = base_ + filled_;
  if (where_ == Where::BeforeRoot)
    return makeError(source_.path(), "no JSON content (only whitespace)");
  if (where_ != Where::Done) {
    // Zeros where the rest of the document should be (a header, then a preallocated file's
    // zeros) are said as such, not as "truncated".
    if (auto z = checkZeros(0); !z) return z.error();
    std::string inside = inString_ ? "inside a string"
                         : where_ == Where::InArray
                             ? "inside the \"" + std::string(arrayKey_) + "\" array"
                             : "before the document is closed";
    return makeError(source_.path(),
                     "truncated JSON: the file ends at byte " + std::to_string(end) + " " + inside);
  }
  return summary_;
}

JsonBatch Streamer::frameBatch() {
  // '[' over the byte before the first element, ']' over the comma after the last: the complete
  // elements since batchStart_ read as one JSON array where they lie.
  char* data = buf_.data() + batchStart_;
  data[0] = '[';
  buf_[lastComplete_] = ']';
  JsonBatch batch;
  batch.data = data;
  batch.size = lastComplete_ - batchStart_ + 1;
  batch.capacity = buf_.size() - batchStart_;
  batch.fileOffset = offset(batchStart_);
  batch.elements = pendingElements_;
  batch.speculative = speculating_;
  summary_.elements += pendingElements_;
  pendingElements_ = 0;
  return batch;
}

Status Streamer::flushBatch() {
  if (pendingElements_ == 0) {
    arrayClosed_ = false;
    return Ok{};
  }
  const JsonBatch batch = frameBatch();
  batchStart_ = lastComplete_;
  arrayClosed_ = false;
  if (handlers_.onBatch) return handlers_.onBatch(batch);
  return Ok{};
}

Status Streamer::handOverBatch() {
  // The part after the last complete element goes on in the next buffer; the batch, framed as
  // flushBatch() frames it, leaves with the buffer that holds it, uncopied.
  std::vector<char> next = handlers_.spareBuffer ? handlers_.spareBuffer() : std::vector<char>{};
  if (next.size() < buf_.size()) next.resize(buf_.size());
  const std::size_t tail = filled_ - lastComplete_;
  std::memcpy(next.data(), buf_.data() + lastComplete_, tail);
  const JsonBatch batch = frameBatch();
  base_ += lastComplete_;
  pos_ -= lastComplete_;
  filled_ = tail;
  batchStart_ = lastComplete_ = 0;
  std::swap(buf_, next);
  return handlers_.onBatchBuffer(batch, std::move(next));
}

// The comma of the last "}, {" (whitespace allowed around the comma) after batchStart_, or 0.
// Searched backwards: an element boundary is usually among the last few hundred bytes.
std::size_t Streamer::likelyBoundary() const {
  const char* const p = buf_.data();
  const std::size_t from = batchStart_ + 1;   // the batch keeps at least one element
  auto skipSpaceBack = [&](std::size_t at) {  // the first of the spaces that end at `at`
    while (at > from && isSpace(p[at - 1])) --at;
    return at;
  };
  std::size_t end = filled_;
  while (end > from) {
    const void* open = ::memrchr(p + from, '{', end - from);
    if (!open) return 0;
    end = static_cast<std::size_t>(static_cast<const char*>(open) - p);
    const std::size_t afterComma = skipSpaceBack(end);
    if (afterComma <= from || p[afterComma - 1] != ',') continue;
    const std::size_t comma = afterComma - 1;
    const std::size_t afterClose = skipSpaceBack(comma);
    if (afterClose > from && p[afterClose - 1] == '}') return comma;
  }
  return 0;
}

Status Streamer::handOverSpeculative(std::size_t boundary) {
  lastComplete_ = boundary;
  pendingElements_ = 0;  // not counted: the parser counts them
  pos_ = filled_;
  ++summary_.speculativeBatches;
  if (handlers_.onBatchBuffer) return handOverBatch();
  const JsonBatch batch = frameBatch();
  batchStart_ = lastComplete_;
  return handlers_.onBatch ? handlers_.onBatch(batch) : Status(Ok{});
}

void Streamer::resumeExactScan() {
  speculating_ = false;
  depth_ = arrayDepth_;
  inString_ = escapePending_ = elementContent_ = false;
  lastComplete_ = batchStart_;
  pendingElements_ = 0;
  pos_ = batchStart_ + 1;
}

Status Streamer::scan() {
  char* const p = buf_.data();
  std::size_t i = pos_;
  const std::size_t n = filled_;
  while (i < n) {
    if (inString_) {
      if (escapePending_) {  // the byte escaped at the end of the previous chunk
        escapePending_ = false;
        ++i;
        continue;
      }
      i = skipString(i);
      if (inString_) break;
      if (where_ == Where::InKey) {
        key_.assign(p + keyStart_, i - 1 - keyStart_);
        where_ = Where::ExpectColon;
      }
      continue;
    }
    const char c = p[i];
    switch (where_) {
      case Where::InArray:
        i = scanArray(i);
        if (error_) return *error_;
        continue;
      case Where::InValue:
        switch (c) {
          case '"':
            inString_ = true;
            break;
          case '{':
          case '[':
            ++depth_;
            break;
          case '}':
          case ']':
            if (depth_ == valueDepth_) {  // a scalar value ends at the object's close
              if (c != '}') return malformed(i, "unexpected ']'");
              if (handlers_.onMember)
                handlers_.onMember(key_, std::string_view(p + valueStart_, i - valueStart_));
              --depth_;
              where_ = Where::Done;
              break;
            }
            --depth_;
            if (depth_ == valueDepth_) {
              if (handlers_.onMember)
                handlers_.onMember(key_, std::string_view(p + valueStart_, i + 1 - valueStart_));
              where_ = Where::AfterValue;
            }
            break;
          case ',':
            if (depth_ == valueDepth_) {
              std::size_t end = i;
              while (end > valueStart_ && isSpace(p[end - 1])) --end;
              if (handlers_.onMember)
                handlers_.onMember(key_, std::string_view(p + valueStart_, end - valueStart_));
              where_ = Where::ExpectKey;
            }
            break;
          default:
            break;
        }
        break;
      default:
        if (isSpace(c)) break;
        switch (where_) {
          case Where::BeforeRoot:
            if (c == '{') {
              depth_ = 1;
              where_ = Where::ExpectKey;
            } else if (c == '[') {
              depth_ = 1;
              arrayDepth_ = 1;
              where_ = Where::InArray;
              summary_.topLevelArray = true;
              batchStart_ = lastComplete_ = i;
              elementContent_ = false;
            } else if (offset(i) == 0 && i + 2 < n && c == '\xEF' && p[i + 1] == '\xBB' &&
                       p[i + 2] == '\xBF') {
              i += 2;  // a UTF-8 byte-order mark, as some editors write: skipped
            } else {
              return makeError(source_.path(), "not JSON: expected '{' or '[' at byte " +
                                                   std::to_string(offset(i)) + ", found " +
                                                   describeByte(c));
            }
            break;
          case Where::ExpectKey:
            if (c == '"') {
              inString_ = true;
              keyStart_ = i + 1;
              where_ = Where::InKey;
            } else if (c == '}') {
              depth_ = 0;
              where_ = Where::Done;
            } else {
              return malformed(i, "expected a member name, found " + describeByte(c));
            }
            break;
          case Where::ExpectColon:
            if (c != ':')
              return malformed(i, "expected ':' after \"" + key_ + "\", found " + describeByte(c));
            where_ = Where::ExpectValue;
            break;
          case Where::ExpectValue:
            if (c == '[' && key_ == arrayKey_ && !summary_.foundArray) {
              depth_ = 2;
              arrayDepth_ = 2;
              where_ = Where::InArray;
              batchStart_ = lastComplete_ = i;
              elementContent_ = false;
              pendingElements_ = 0;
            } else {
              valueStart_ = i;
              valueDepth_ = depth_;
              where_ = Where::InValue;
              continue;  // rescan this byte as part of the value
            }
            break;
          case Where::AfterValue:
            if (c == ',')
              where_ = Where::ExpectKey;
            else if (c == '}') {
              depth_ = 0;
              where_ = Where::Done;
            } else
              return malformed(i, "expected ',' or '}' after a member, found " + describeByte(c));
            break;
          case Where::Done:
            return malformed(i, "unexpected " + describeByte(c) + " after the end of the document");
          default:
            break;
        }
    }
    ++i;
  }
  pos_ = i;
  return Ok{};
}

std::size_t Streamer::skipString(std::size_t i) {
  char* const p = buf_.data();
  const std::size_t n = filled_;
  for (;;) {
    i = findStringStop(p, i, n);
    if (i >= n) return n;  // the string goes on in the next chunk
    if (static_cast<unsigned char>(p[i]) < 0x20) {
      noteControlCharacter(i++);
      continue;
    }
    if (p[i] == '\\') {
      i += 2;       // an escape: skip the escaped byte too
      if (i > n) {  // the escaped byte is in the next chunk
        escapePending_ = true;
        return n;
      }
      continue;
    }
    inString_ = false;
    return i + 1;
  }
}

// Handles the structural byte at i ({ } [ ] , outside strings) inside the streamed array. Returns
// false where scanning stops: the array closed (next is the byte after it) or an error (error_).
bool Streamer::arrayByte(std::size_t i, std::size_t& next) {
  char* const p = buf_.data();
  switch (p[i]) {
    case '{':
    case '[':
      ++depth_;
      elementContent_ = true;
      return true;
    case '}':
    case ']':
      if (depth_ == arrayDepth_) {
        if (p[i] != ']') {
          error_ = malformed(i, "unexpected '}' closing the array");
          next = filled_;
          return false;
        }
        if (!elementContent_) elementContent_ = hasContent(lastComplete_ + 1, i);
        if (elementContent_) ++pendingElements_;
        lastComplete_ = i;
        --depth_;
        summary_.foundArray = true;
        if (auto s = flushBatch(); !s) {
          error_ = s.error();
          next = filled_;
          return false;
        }
        where_ = depth_ == 0 ? Where::Done : Where::AfterValue;
        next = i + 1;
        return false;
      }
      --depth_;
      return true;
    case '\\':
      // Both scans stop here, so that malformed input fails alike whatever the blocks' alignment
      // (the 64-byte scan would take the backslash for an escape, the byte-wise one would not).
      error_ = malformed(i, "a backslash outside a string");
      next = filled_;
      return false;
    case ',':
      if (depth_ == arrayDepth_) {
        // Objects, arrays and strings mark content as they open; a bare scalar is found here.
        if (!elementContent_ && !hasContent(lastComplete_ + 1, i)) {
          error_ = malformed(i, "empty array element");
          next = filled_;
          return false;
        }
        ++pendingElements_;
        lastComplete_ = i;
        elementContent_ = false;
      }
      return true;
    default:
      return true;
  }
}

void Streamer::noteControlCharacter(std::size_t at) {
  // Real traces carry raw control characters in names; JSON forbids them and simdjson rejects the
  // whole chunk. They become spaces, counted (with the first's place) for the problems panel.
  if (summary_.controlCharactersReplaced++ == 0) {
    summary_.firstControlCharacterOffset = offset(at);
    if (where_ == Where::InArray)
      summary_.firstControlCharacterElement = summary_.elements + pendingElements_;
  }
  buf_[at] = ' ';
}

// The array 64 bytes a step: quotes, escapes and "inside a string" become bit masks, so only the
// braces, brackets and commas outside strings are looked at one by one (about 15 in a compact
// Kineto event of 190 bytes; the byte-wise scan stopped at every quote and comma, about 40).
// Stops before the last partial block, at the array's end, or inside a string at a block's end
// (scan() finishes that string); returns where the byte-wise scan goes on.
std::size_t Streamer::scanArrayBlocks(std::size_t i) {
#if defined(__SSE2__)
  char* const p = buf_.data();
  const std::size_t n = filled_;
  std::uint64_t escapeCarry = 0, inStringCarry = 0;
  while (i + 64 <= n) {
    const BlockMasks m = classifyBlock(p + i);
    const std::uint64_t escaped = escapedBytes(m.backslash, escapeCarry);
    const std::uint64_t quotes = m.quote & ~escaped;
    const std::uint64_t inString = prefixXor(quotes) ^ inStringCarry;
    inStringCarry = static_cast<std::uint64_t>(static_cast<std::int64_t>(inString) >> 63);
    std::uint64_t control = m.control & inString & ~quotes;
    // A backslash outside a string is malformed JSON: arrayByte() says so, as the byte-wise scan.
    std::uint64_t structural = (m.structural | m.backslash) & ~inString;
    while (structural) {
      const std::size_t at = i + static_cast<std::size_t>(__builtin_ctzll(structural));
      structural &= structural - 1;
      while (control && i + static_cast<std::size_t>(__builtin_ctzll(control)) < at) {
        noteControlCharacter(i + static_cast<std::size_t>(__builtin_ctzll(control)));
        control &= control - 1;
      }
      // The common cases inline: a bracket inside an element, a comma between elements.
      const char c = p[at];
      if (c == '{' || c == '[') {
        ++depth_;
        elementContent_ = true;
        continue;
      }
      if (depth_ != arrayDepth_ && c != '\\') {
        if (c != ',') --depth_;
        continue;
      }
      if (c == ',' && elementContent_) {
        ++pendingElements_;
        lastComplete_ = at;
        elementContent_ = false;
        continue;
      }
      std::size_t next = 0;
      if (!arrayByte(at, next)) return next;
    }
    for (; control; control &= control - 1)
      noteControlCharacter(i + static_cast<std::size_t>(__builtin_ctzll(control)));
    i += 64;
  }
  if (inStringCarry) {
    // The block ended inside a string: scan() finishes it byte-wise (an escape pending too).
    inString_ = true;
    escapePending_ = escapeCarry != 0;
    elementContent_ = true;
  }
#endif
  return i;
}

std::size_t Streamer::scanArray(std::size_t i) {
  char* const p = buf_.data();
  const std::size_t n = filled_;
  i = scanArrayBlocks(i);
  if (inString_ || error_ || where_ != Where::InArray) return i;
  while (i < n) {  // the last partial block, byte-wise
    i = findStructural(p, i, n);
    if (i >= n) break;
    if (p[i] == '"') {
      elementContent_ = true;
      inString_ = true;
      i = skipString(i + 1);
      if (inString_) return n;
      continue;
    }
    std::size_t next = 0;
    if (!arrayByte(i, next)) return next;
    ++i;
  }
  return i;
}

std::size_t Streamer::keptFrom() const {
  return where_ == Where::InArray   ? batchStart_
         : where_ == Where::InValue ? valueStart_
         : where_ == Where::InKey   ? keyStart_
                                    : pos_;
}

Status Streamer::checkZeros(std::size_t atLeast) const {
  // Asked after an exact scan that left `atLeast` bytes or more pending (an element not closed
  // yet, which is rare): a zero byte there lies outside every string, since the scan turned
  // those inside strings into spaces, and JSON has none there. Zeros after a header are told at
  // once, instead of after reading gigabytes of them as one element.
  // Only the streamed array: its elements are parsed, so zeros there fail the read in any case
  // (a member value elsewhere may be one the reader ignores).
  if (where_ != Where::InArray || pendingElements_ > 0) return Ok{};
  const std::size_t from = keptFrom();
  if (pos_ <= from || pos_ - from < atLeast) return Ok{};
  if (const void* zero = std::memchr(buf_.data() + from, '\0', pos_ - from))
    return malformed(static_cast<std::size_t>(static_cast<const char*>(zero) - buf_.data()),
                     "found 0x00 (zero bytes are no JSON)");
  return Ok{};
}

Status Streamer::checkGrowth() const {
  const std::size_t from = keptFrom();
  if (filled_ - from >= kMaxPendingBytes) {
    const std::string what = where_ == Where::InArray
                                 ? "an element of the \"" + std::string(arrayKey_) + "\" array"
                                 : "a value";
    return makeError(source_.path(),
                     what + " at byte " + std::to_string(offset(from)) + " is larger than " +
                         std::to_string(kMaxPendingBytes >> 20) + " MB: not a trace (or corrupt)");
  }
  return Ok{};
}

bool Streamer::hasContent(std::size_t from, std::size_t to) const {
  for (std::size_t k = from; k < to; ++k)
    if (!isSpace(buf_[k])) return true;
  return false;
}

}  // namespace

std::string controlCharacterExample(const JsonStreamSummary& summary, std::string_view arrayKey) {
  std::string text = "byte " + std::to_string(summary.firstControlCharacterOffset);
  if (summary.firstControlCharacterElement != JsonStreamSummary::kNotInArray)
    text += ", in " + std::string(arrayKey) + "[" +
            std::to_string(summary.firstControlCharacterElement) + "]";
  return text;
}

std::string_view jsonValueKind(std::string_view raw) {
  const std::size_t at = raw.find_first_not_of(" \t\r\n");
  if (at == std::string_view::npos) return "nothing";
  switch (raw[at]) {
    case '{':
      return "an object";
    case '[':
      return "an array";
    case '"':
      return "a string";
    case 't':
    case 'f':
      return "a boolean";
    case 'n':
      return "null";
    default:
      return "a number";
  }
}

Result<JsonStreamSummary> streamJsonArray(ByteSource& source, std::string_view arrayKey,
                                          const JsonStreamHandlers& handlers,
                                          std::size_t chunkBytes) {
  Streamer streamer(source, arrayKey, handlers, chunkBytes);
  return streamer.run();
}

}  // namespace sutra
