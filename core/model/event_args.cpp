// SPDX-License-Identifier: MIT
#include "model/event_args.h"

#include <algorithm>
#include <cstdlib>
#include <string>

namespace sutra {

std::optional<std::int64_t> integerArg(const nlohmann::json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<std::int64_t>();
  if (it->is_string()) {
    const auto& text = it->get_ref<const std::string&>();
    char* end = nullptr;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (!text.empty() && end == text.c_str() + text.size()) return v;
  }
  return std::nullopt;
}

std::int64_t elementBytesOfType(std::string_view t) {
  auto has = [&](std::string_view part) { return t.find(part) != std::string_view::npos; };
  if (has("Float8") || has("bool") || has("Bool") || has("char") || has("Byte") || has("int8"))
    return 1;
  if (has("double") || has("Double") || has("long") || has("Long") || has("int64") ||
      has("complex<float>") || has("ComplexFloat"))
    return 8;
  if (has("Half") || has("half") || has("BFloat16") || has("bfloat16") || has("short") ||
      has("Short"))
    return 2;
  if (has("float") || has("Float") || t == "int" || t == "Int" || has("int32")) return 4;
  return 0;
}

std::int64_t commMessageBytes(const nlohmann::json& args) {
  if (!args.is_object()) return 0;
  const auto in = integerArg(args, "In msg nelems").value_or(0);
  const auto out = integerArg(args, "Out msg nelems").value_or(0);
  const auto dtype = args.find("dtype");
  if (std::max(in, out) > 0 && dtype != args.end() && dtype->is_string())
    return std::max(in, out) * elementBytesOfType(dtype->get_ref<const std::string&>());
  const auto dims = args.find("Input Dims");
  const auto types = args.find("Input type");
  if (dims == args.end() || types == args.end() || !dims->is_array() || !types->is_array())
    return 0;
  std::int64_t bytes = 0;
  for (std::size_t i = 0; i < dims->size() && i < types->size(); ++i) {
    const auto& d = (*dims)[i];
    const auto& type = (*types)[i];
    if (!d.is_array() || d.empty() || !type.is_string()) continue;
    const std::int64_t size = elementBytesOfType(type.get_ref<const std::string&>());
    std::int64_t n = 1;
    for (const auto& x : d)
      n *= x.is_number_integer() ? std::max<std::int64_t>(x.get<std::int64_t>(), 0) : 0;
    bytes += n * size;
  }
  return bytes;
}

}  // namespace sutra
