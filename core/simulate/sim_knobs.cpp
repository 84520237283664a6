// SPDX-License-Identifier: MIT
#include "simulate/sim_knobs.h"

#include <cmath>
#include <cstdlib>

namespace sutra {
namespace {

bool positiveFinite(double x) { return std::isfinite(x) && x > 0; }

}  // namespace

Result<DurationScale> parseDurationScale(const std::string& text) {
  const auto eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0)
    return Error{"--scale '" + text + "': expected REGEX=FACTOR, e.g. 'gemm=0.5'"};
  DurationScale scale;
  scale.pattern = text.substr(0, eq);
  const std::string number = text.substr(eq + 1);
  char* end = nullptr;
  scale.factor = std::strtod(number.c_str(), &end);
  if (number.empty() || end != number.c_str() + number.size() || !positiveFinite(scale.factor))
    return Error{"--scale '" + text + "': the factor '" + number + "' is not a positive number"};
  return scale;
}

Status validateKnobs(const SimKnobs& knobs) {
  for (const auto& s : knobs.scales)
    if (!positiveFinite(s.factor))
      return Error{"scale factor for '" + s.pattern + "' must be a positive number"};
  if (knobs.launchLatencyNs && *knobs.launchLatencyNs < 0)
    return Error{"launch latency must not be negative"};
  if (!std::isfinite(knobs.launchLatencyScale) || knobs.launchLatencyScale < 0)
    return Error{"launch latency scale must be a non-negative number"};
  if (!positiveFinite(knobs.cpuSpeed)) return Error{"CPU speed factor must be a positive number"};
  auto scaler = DurationScaler::create(knobs.scales);
  if (!scaler) return scaler.error();
  return Ok{};
}

Result<DurationScaler> DurationScaler::create(const std::vector<DurationScale>& scales) {
  DurationScaler scaler;
  for (const auto& s : scales) {
    try {
      scaler.patterns_.emplace_back(std::regex(s.pattern, std::regex::ECMAScript), s.factor);
    } catch (const std::regex_error& e) {
      return Error{"--scale pattern '" + s.pattern +
                   "' is not a valid regular expression: " + e.what()};
    }
  }
  return scaler;
}

double DurationScaler::factor(StringId name, const StringTable& names) {
  if (patterns_.empty()) return 1.0;
  if (name >= cache_.size()) cache_.resize(std::max<std::size_t>(names.size(), name + 1), -1.0);
  double& cached = cache_[name];
  if (cached < 0) {
    cached = 1.0;
    const auto text = names.view(name);
    for (const auto& [re, f] : patterns_)
      if (std::regex_search(text.begin(), text.end(), re)) cached *= f;
  }
  return cached;
}

}  // namespace sutra
