// SPDX-License-Identifier: MIT
#pragma once
// Numbers as JSON text, read exactly: Kineto's microsecond timestamps with three decimals on an
// epoch base (~1.7e15) need 19 significant digits, more than a double holds, so they are parsed as
// decimal text straight into integer nanoseconds.
#include <cstdint>
#include <optional>
#include <string_view>

namespace sutra {

// "1689180448563241" -> 1689180448563241000; "4203669604595.407" -> 4203669604595407000;
// "1.5e3" -> 1500000 (exponents go through a double). Rounds beyond nanoseconds. nullopt if not a
// number or out of range.
std::optional<std::int64_t> microsTextToNanos(std::string_view text);

// A JSON token without the whitespace simdjson's raw_json_token() leaves after it.
std::string_view trimJsonToken(std::string_view token);

// A JSON integer (or an integral float such as "3.0") as int64; nullopt otherwise.
std::optional<std::int64_t> integerText(std::string_view text);

}  // namespace sutra
