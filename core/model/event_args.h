// SPDX-License-Identifier: MIT
#pragma once
// Reading one value from an event's args once they are parsed (the selection panel, sync
// dependencies, collective matching): Kineto writes ids and streams as numbers in some versions
// and as strings of digits in others, so both read as the same integer.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>

namespace sutra {

// args[key] as an integer: a JSON integer or a string holding only a whole number; else nullopt.
std::optional<std::int64_t> integerArg(const nlohmann::json& args, const char* key);

}  // namespace sutra
