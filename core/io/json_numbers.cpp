// SPDX-License-Identifier: MIT
#include "io/json_numbers.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <string>

namespace sutra {
namespace {

std::string_view trim(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t' || t.front() == '\n' || t.front() == '\r' || t.front() == '"'))
    t.remove_prefix(1);
  while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\n' || t.back() == '\r' || t.back() == '"'))
    t.remove_suffix(1);
  return t;
}

}  // namespace

std::optional<std::int64_t> microsTextToNanos(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  // The largest whole number of microseconds whose nanoseconds (plus a fraction and its rounding)
  // still fit in int64; beyond it the value is no timestamp and reads as unparsable.
  constexpr std::int64_t kMaxWholeMicros = (INT64_MAX - 1000) / 1000;
  if (text.size() <= 18) {
    // The common case first, in one pass: a plain integer (every integer-microsecond Kineto
    // timestamp and duration). 18 digits cannot overflow int64; the range is checked after.
    std::int64_t v = 0;
    std::size_t i = 0;
    for (; i < text.size(); ++i) {
      const unsigned digit = static_cast<unsigned>(text[i] - '0');
      if (digit > 9) break;
      v = v * 10 + digit;
    }
    if (i == text.size()) return v > kMaxWholeMicros ? std::nullopt : std::optional<std::int64_t>(v * 1000);
  }
  bool exponent = false;
  for (char c : text) exponent |= (c == 'e') | (c == 'E');
  if (exponent) {
    const std::string copy(text);
    char* end = nullptr;
    const double v = std::strtod(copy.c_str(), &end);
    if (end != copy.c_str() + copy.size() || !std::isfinite(v) || std::fabs(v) > 9e15) return std::nullopt;
    return static_cast<std::int64_t>(std::llround(v * 1000.0));
  }
  bool negative = false;
  std::size_t i = 0;
  if (text[0] == '-') negative = true, i = 1;
  std::int64_t whole = 0;
  std::size_t digits = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits) {
    if (whole > kMaxWholeMicros) return std::nullopt;  // checked per digit: whole * 10 cannot overflow
    whole = whole * 10 + (text[i] - '0');
  }
  if (whole > kMaxWholeMicros) return std::nullopt;
  std::int64_t fraction = 0;
  int fractionDigits = 0;
  bool roundUp = false;
  if (i < text.size() && text[i] == '.') {
    ++i;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
      if (fractionDigits < 3) fraction = fraction * 10 + (text[i] - '0'), ++fractionDigits;
      else if (fractionDigits == 3) roundUp = text[i] >= '5', ++fractionDigits;
      ++digits;
    }
  }
  if (digits == 0 || i != text.size()) return std::nullopt;
  for (int d = std::min(fractionDigits, 3); d < 3; ++d) fraction *= 10;
  std::int64_t ns = whole * 1000 + fraction + (roundUp ? 1 : 0);
  return negative ? -ns : ns;
}

std::string_view trimJsonToken(std::string_view t) {
  while (!t.empty() && (t.back() == ' ' || t.back() == '\n' || t.back() == '\r' || t.back() == '\t'))
    t.remove_suffix(1);
  return t;
}

std::optional<std::int64_t> integerText(std::string_view text) {
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
