// SPDX-License-Identifier: MIT
#pragma once
// What-if knobs of the simulator, and their compiled form: each pattern is compiled once, and
// each distinct device-op name is matched once (names are interned), not once per op.
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "model/string_table.h"
#include "model/time.h"
#include "util/result.h"

namespace sutra {

struct DurationScale {
  std::string pattern;  // ECMAScript regex, searched anywhere in the device op's name
  double factor = 1.0;  // the matching ops' durations are multiplied by it
};

struct SimKnobs {
  std::vector<DurationScale> scales;      // every matching pattern applies (factors multiply)
  std::optional<TimeNs> launchLatencyNs;  // replaces every launch latency
  double launchLatencyScale = 1.0;        // multiplies every launch latency (after the above)
  double cpuSpeed = 1.0;                  // host CPU time is divided by it (2 = twice as fast)
  bool dropSyncs = false;                 // blocking calls and stream waits wait for nothing

  bool any() const {
    return !scales.empty() || launchLatencyNs || launchLatencyScale != 1.0 || cpuSpeed != 1.0 ||
           dropSyncs;
  }
};

// Parses "REGEX=FACTOR" (the last '=' splits, so the pattern may hold '='). Errors name the text.
Result<DurationScale> parseDurationScale(const std::string& text);

// Checks the knobs' values (factors > 0 and finite, patterns that compile).
Status validateKnobs(const SimKnobs& knobs);

// The factor of each device-op name, looked up by interned name id and matched lazily.
class DurationScaler {
 public:
  // Fails on a pattern that does not compile.
  static Result<DurationScaler> create(const std::vector<DurationScale>& scales);
  double factor(StringId name, const StringTable& names);
  bool empty() const { return patterns_.empty(); }

 private:
  std::vector<std::pair<std::regex, double>> patterns_;
  std::vector<double> cache_;  // by StringId; < 0 = not matched yet
};

}  // namespace sutra
