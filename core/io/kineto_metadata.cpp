// SPDX-License-Identifier: MIT
#include "io/kineto_metadata.h"

#include <nlohmann/json.hpp>

#include "io/json_numbers.h"

namespace sutra {

void applyKinetoMembers(const std::vector<std::pair<std::string, std::string>>& members,
                        Trace& trace) {
  auto& meta = trace.meta;
  for (const auto& [key, raw] : members) {
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
          // As text: nlohmann's get of a float beyond int64's range is undefined behaviour.
          return it != d.end() && it->is_number() ? integerText(it->dump()).value_or(0)
                                                  : std::int64_t{0};
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

}  // namespace sutra
