// SPDX-License-Identifier: MIT
#include "io/json_numbers.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

namespace sutra {
namespace {

std::string_view trim(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t' || t.front() == '\n' ||
                        t.front() == '\r' || t.front() == '"'))
    t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\n' ||
                        t.back() == '\r' || t.back() == '"'))
    t.remove_suffix(1);
  return t;
}

// Reads 8 ASCII digits at p into `value` (SWAR: three multiplications instead of eight steps);
// false, with `value` unspecified, when any of the 8 bytes is not a digit.
bool eightDigits(const char* p, std::uint64_t& value) {
  std::uint64_t v;
  std::memcpy(&v, p, 8);  // little-endian: p[0] is the low byte
  // Every byte in '0'..'9': its high nibble is 3, and adding 6 leaves it 3.
  if ((v & 0xF0F0F0F0F0F0F0F0ULL) != 0x3030303030303030ULL ||
      ((v + 0x0606060606060606ULL) & 0xF0F0F0F0F0F0F0F0ULL) != 0x3030303030303030ULL)
    return false;
  v -= 0x3030303030303030ULL;
  v = (v * 10) + (v >> 8);  // pairs of digits
  value = (((v & 0x000000FF000000FFULL) * (100 + (1000000ULL << 32))) +
           (((v >> 16) & 0x000000FF000000FFULL) * (1 + (10000ULL << 32)))) >>
          32;
  return true;
}

}  // namespace

std::optional<std::int64_t> microsTextToNanos(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  // The largest whole number of microseconds whose nanoseconds (plus a fraction and its rounding)
  // still fit in int64; beyond it the value is no timestamp and reads as unparsable.
  constexpr std::int64_t kMaxWholeMicros = (INT64_MAX - 1000) / 1000;
  if (text.size() <= 22) {
    // The common cases first, in one pass: a plain integer (every integer-microsecond Kineto
    // timestamp and duration), or one with up to three decimals. At most 18 digits are read here,
    // which cannot overflow int64; the range is checked after. Eight digits at a time where there
    // are eight (a microsecond timestamp has 16).
    const std::size_t digitsAtMost = std::min<std::size_t>(text.size(), 18);
    std::int64_t v = 0;
    std::size_t i = 0;
    for (std::uint64_t eight = 0; i + 8 <= digitsAtMost && eightDigits(text.data() + i, eight);
         i += 8)
      v = v * 100000000 + static_cast<std::int64_t>(eight);
    for (; i < digitsAtMost; ++i) {
      const unsigned digit = static_cast<unsigned>(text[i] - '0');
      if (digit > 9) break;
      v = v * 10 + digit;
    }
    if (i == text.size())
      return v > kMaxWholeMicros ? std::nullopt : std::optional<std::int64_t>(v * 1000);
    // Microseconds with one to three decimals, as torch.profiler writes every timestamp and
    // duration ("5600997226489.400", "1689180448573897.250"): whole nanoseconds, nothing to round.
    if (i > 0 && text[i] == '.' && text.size() - i - 1 >= 1 && text.size() - i - 1 <= 3 &&
        v <= kMaxWholeMicros) {
      std::int64_t fraction = 0;
      std::size_t f = i + 1;
      for (; f < text.size(); ++f) {
        const unsigned digit = static_cast<unsigned>(text[f] - '0');
        if (digit > 9) break;
        fraction = fraction * 10 + digit;
      }
      if (f == text.size()) {
        for (std::size_t d = text.size() - i - 1; d < 3; ++d) fraction *= 10;
        return v * 1000 + fraction;
      }
    }
  }
  bool exponent = false;
  for (char c : text) exponent |= (c == 'e') | (c == 'E');
  if (exponent) {
    const std::string copy(text);
    char* end = nullptr;
    const double v = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(v) || std::fabs(v) > 9e15)
      return std::nullopt;
    return static_cast<std::int64_t>(std::llround(v * 1000.0));
  }
  bool negative = false;
  std::size_t i = 0;
  if (text[0] == '-') negative = true, i = 1;
  std::int64_t whole = 0;
  std::size_t digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
    if (whole > kMaxWholeMicros)
      return std::nullopt;  // checked per digit: whole * 10 cannot overflow
    whole = whole * 10 + (text[i] - '0');
  }
  if (whole > kMaxWholeMicros) return std::nullopt;
  std::int64_t fraction = 0;
  int fractionDigits = 0;
  bool roundUp = false;
  if (i < text.size() && text[i] == '.') {
    ++i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      if (fractionDigits < 3)
        fraction = fraction * 10 + (text[i] - '0'), ++fractionDigits;
      else if (fractionDigits == 3)
        roundUp = text[i] >= '5', ++fractionDigits;
      ++digits;
    }
  }
  if (digits == 0 || i != text.size()) return std::nullopt;
  for (int d = std::min(fractionDigits, 3); d < 3; ++d) fraction *= 10;
  std::int64_t ns = whole * 1000 + fraction + (roundUp ? 1 : 0);
  return negative ? -ns : ns;
}

std::string_view trimJsonToken(std::string_view t) {
  while (!t.empty() &&
         (t.back() == ' ' || t.back() == '\n' || t.back() == '\r' || t.back() == '\t'))
    t.remove_suffix(1);
  return t;
}

std::optional<std::int64_t> integerText(std::string_view text) {
  if (!text.empty() && text.size() <= 18) {  // the common case: an id of plain digits (no overflow)
    std::int64_t v = 0;
    std::size_t i = 0;
    for (; i < text.size(); ++i) {
      const unsigned digit = static_cast<unsigned>(text[i] - '0');
      if (digit > 9) break;
      v = v * 10 + digit;
    }
    if (i == text.size()) return v;
  }
  text = trim(text);
  std::int64_t v = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec == std::errc() && ptr == text.data() + text.size()) return v;
  if (ec == std::errc() && *ptr == '.') {  // "3.0"
    for (const char* q = ptr + 1; q < text.data() + text.size(); ++q)
      if (*q != '0') return std::nullopt;
    return v;
  }
  return std::nullopt;
}

}  // namespace sutra
