// SPDX-License-Identifier: MIT
#pragma once
// Reading one value from an event's args once they are parsed (the selection panel, sync
// dependencies, collective matching): Kineto writes ids and streams as numbers in some versions
// and as strings of digits in others, so both read as the same integer.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

namespace sutra {

// args[key] as an integer: a JSON integer or a string holding only a whole number; else nullopt.
std::optional<std::int64_t> integerArg(const nlohmann::json& args, const char* key);

// The size of one element of a tensor type as the profiler names it ("float", "c10::BFloat16",
// "long int") or record_param_comms' dtype does ("Float", "BFloat16"); 0 when it names none.
std::int64_t elementBytesOfType(std::string_view type);

// The bytes a communication op moves per rank, from its args: record_param_comms' "In msg
// nelems" / "Out msg nelems" and "dtype" (the larger), else its tensor inputs' "Input Dims" and
// "Input type" (record_shapes; a gloo worker's annotation has them); 0 where neither is there.
std::int64_t commMessageBytes(const nlohmann::json& args);

}  // namespace sutra
