// SPDX-License-Identifier: MIT
#include "model/event_args.h"

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

}  // namespace sutra
