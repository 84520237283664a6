// SPDX-License-Identifier: MIT
#include "simulate/sim_knobs.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sutra {
namespace {

bool within(double x, double lo, double hi) { return std::isfinite(x) && x >= lo && x <= hi; }

// "1e+06" rather than "1000000.000000": the ranges as a user types them.
std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", x);
  return buf;
}

std::string range(double lo, double hi) { return "between " + number(lo) + " and " + number(hi); }

}  // namespace

TimeNs scaleDuration(TimeNs value, double factor) {
  if (factor == 1.0) return value;
  const double x = static_cast<double>(value) * factor;
  if (std::isnan(x)) return 0;
  if (x >= static_cast<double>(kMaxScaledNs)) return kMaxScaledNs;
  if (x <= -static_cast<double>(kMaxScaledNs)) return -kMaxScaledNs;
  return static_cast<TimeNs>(std::llround(x));
}

Result<TimeNs> launchLatencyFromMicros(double us) {
  if (!within(us, 0.0, kMaxLaunchLatencyUs))
    return Error{"launch latency " + number(us) + " us is out of range: it must be " +
                 range(0, kMaxLaunchLatencyUs) + " microseconds"};
  return static_cast<TimeNs>(std::llround(us * 1000.0));
}

namespace {

// "REGEX=FACTOR" of `option` (the last '=' splits, so the pattern may hold '='), the factor in
// [lo, hi]; `example` shows the form, `meaning` what the range means.
Result<DurationScale> parseRegexFactor(const std::string& text, const char* option,
                                       const char* example, double lo, double hi,
                                       const char* meaning) {
  const std::string quoted = std::string(option) + " '" + text + "'";
  const auto eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0)
    return Error{quoted + ": expected REGEX=FACTOR, e.g. '" + example + "'"};
  DurationScale scale;
  scale.pattern = text.substr(0, eq);
  const std::string factor = text.substr(eq + 1);
  char* end = nullptr;
  scale.factor = std::strtod(factor.c_str(), &end);
  if (factor.empty() || end != factor.c_str() + factor.size() || !std::isfinite(scale.factor))
    return Error{quoted + ": the factor '" + factor + "' is not a number"};
  if (!within(scale.factor, lo, hi))
    return Error{quoted + ": the factor '" + factor + "' is out of range: it must be " +
                 range(lo, hi) + meaning};
  return scale;
}

}  // namespace

Result<DurationScale> parseDurationScale(const std::string& text) {
  return parseRegexFactor(text, "--scale", "gemm=0.5", kMinDurationScale, kMaxDurationScale, "");
}

Result<DurationScale> parseHostScale(const std::string& text) {
  return parseRegexFactor(text, "--scale-cpu", "straggle=0", 0.0, kMaxHostScale,
                          " (0 removes the matching host time)");
}

Result<double> parseNetworkSpeed(const std::string& text) {
  char* end = nullptr;
  const double f = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() ||
      !within(f, kMinNetworkSpeed, kMaxNetworkSpeed))
    return Error{"--network-speed '" + text + "': expected a number " +
                 range(kMinNetworkSpeed, kMaxNetworkSpeed) + " (2: twice the bandwidth)"};
  return f;
}

Status validateKnobs(const SimKnobs& knobs) {
  for (const auto& s : knobs.hostScales)
    if (!within(s.factor, 0.0, kMaxHostScale))
      return Error{"CPU scale factor " + number(s.factor) + " for '" + s.pattern +
                   "' is out of range: it must be " + range(0, kMaxHostScale)};
  if (!within(knobs.networkSpeed, kMinNetworkSpeed, kMaxNetworkSpeed))
    return Error{"network speed " + number(knobs.networkSpeed) + " is out of range: it must be " +
                 range(kMinNetworkSpeed, kMaxNetworkSpeed)};
  if (auto hostScaler = DurationScaler::create(knobs.hostScales, "--scale-cpu"); !hostScaler)
    return hostScaler.error();
  for (const auto& s : knobs.scales)
    if (!within(s.factor, kMinDurationScale, kMaxDurationScale))
      return Error{"scale factor " + number(s.factor) + " for '" + s.pattern +
                   "' is out of range: it must be " + range(kMinDurationScale, kMaxDurationScale)};
  if (knobs.launchLatencyNs &&
      (*knobs.launchLatencyNs < 0 ||
       static_cast<double>(*knobs.launchLatencyNs) > kMaxLaunchLatencyUs * 1000.0))
    return Error{"launch latency " + number(static_cast<double>(*knobs.launchLatencyNs) / 1000.0) +
                 " us is out of range: it must be " + range(0, kMaxLaunchLatencyUs) +
                 " microseconds"};
  if (!within(knobs.launchLatencyScale, 0.0, kMaxLaunchLatencyScale))
    return Error{"launch latency scale " + number(knobs.launchLatencyScale) +
                 " is out of range: it must be " + range(0, kMaxLaunchLatencyScale)};
  if (!within(knobs.cpuSpeed, kMinCpuSpeed, kMaxCpuSpeed))
    return Error{"CPU speed factor " + number(knobs.cpuSpeed) + " is out of range: it must be " +
                 range(kMinCpuSpeed, kMaxCpuSpeed)};
  for (const auto& cut : knobs.hostCuts)
    if (cut.end < cut.start || cut.removeNs < 0 || cut.removeNs > cut.end - cut.start)
      return Error{"a host time cut must remove between 0 and its stretch's length (" +
                   std::to_string(cut.removeNs) + " ns of [" + std::to_string(cut.start) + ", " +
                   std::to_string(cut.end) + ") ns)"};
  for (const auto& d : knobs.deviceOpDurations)
    if (d.durationNs < 0)
      return Error{"device op " + std::to_string(d.event) + ": a negative duration (" +
                   std::to_string(d.durationNs) + " ns)"};
  auto scaler = DurationScaler::create(knobs.scales);
  if (!scaler) return scaler.error();
  return Ok{};
}

Result<DurationScaler> DurationScaler::create(const std::vector<DurationScale>& scales,
                                              const char* option) {
  DurationScaler scaler;
  for (const auto& s : scales) {
    try {
      scaler.patterns_.emplace_back(std::regex(s.pattern, std::regex::ECMAScript), s.factor);
    } catch (const std::regex_error& e) {
      return Error{std::string(option) + " pattern '" + s.pattern +
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

std::string describeKnobs(const SimKnobs& k) {
  std::string s;
  auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  for (const auto& scale : k.scales) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " x%g", scale.factor);
    add("'" + scale.pattern + "'" + buf);
  }
  for (const auto& scale : k.hostScales) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " x%g", scale.factor);
    add("host '" + scale.pattern + "'" + buf);
  }
  if (k.networkSpeed != 1.0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "network x%g", k.networkSpeed);
    add(buf);
  }
  if (k.launchLatencyNs) add("launch latency " + formatDuration(*k.launchLatencyNs));
  if (k.launchLatencyScale != 1.0) add("launch latency x" + std::to_string(k.launchLatencyScale));
  if (k.cpuSpeed != 1.0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "CPU x%g", k.cpuSpeed);
    add(buf);
  }
  if (k.dropSyncs) add("no syncs");
  if (!k.hostCuts.empty()) add(std::to_string(k.hostCuts.size()) + " host time cuts");
  if (!k.deviceOpDurations.empty())
    add(std::to_string(k.deviceOpDurations.size()) + " device op durations");
  if (!k.syncsRemoved.empty()) add(std::to_string(k.syncsRemoved.size()) + " syncs removed");
  return s;
}

}  // namespace sutra
