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
#include "model/trace.h"
#include "util/result.h"

namespace sutra {

struct DurationScale {
  std::string pattern;  // ECMAScript regex, searched anywhere in the device op's name
  double factor = 1.0;  // the matching ops' durations are multiplied by it
};

// Targeted what-ifs: one fix applied to named events of one rank (the advice prices each finding
// with them). `rankIndex` is the rank's position among the graphs simulated together.

// A stretch of one host thread whose CPU time a fix takes away: `removeNs` of the measured time in
// [start, end) on `lane`, spread over that stretch in proportion (a fused sequence replaced by one
// op, dispatch overhead gone, a straggler's delay removed).
struct HostTimeCut {
  std::uint32_t rankIndex = 0;
  LaneId lane = 0;
  TimeNs start = 0;
  TimeNs end = 0;
  TimeNs removeNs = 0;
};

// A device op that takes `durationNs` instead of what was measured (a fused kernel, a pinned copy).
struct DeviceOpDuration {
  std::uint32_t rankIndex = 0;
  EventId event = kNoEvent;
  TimeNs durationNs = 0;
};

// A blocking call (its event) that no longer blocks the host: the wait becomes an event wait.
struct SyncRemoved {
  std::uint32_t rankIndex = 0;
  EventId call = kNoEvent;
};

struct SimKnobs {
  std::vector<DurationScale> scales;  // every matching pattern applies (factors multiply)
  // Host ops and annotations by name (--scale-cpu): each matching event's time on its thread is
  // multiplied by the factor (0 removes it), the outermost match of a nesting only, and what waited
  // on that thread moves with it. Chakra CPU nodes of a matching name likewise.
  std::vector<DurationScale> hostScales;
  // The network's bandwidth times this (--network-speed): the bandwidth part of every matched
  // collective's and point-to-point's transfer is divided by it (the latency part and what the
  // network model leaves unexplained are held); a communication op no other rank was loaded with
  // has its whole duration divided by it.
  double networkSpeed = 1.0;
  std::optional<TimeNs> launchLatencyNs;  // replaces every launch latency
  double launchLatencyScale = 1.0;        // multiplies every launch latency (after the above)
  double cpuSpeed = 1.0;                  // host CPU time is divided by it (2 = twice as fast)
  bool dropSyncs = false;                 // blocking calls and stream waits wait for nothing
  std::vector<HostTimeCut> hostCuts;
  std::vector<DeviceOpDuration> deviceOpDurations;
  std::vector<SyncRemoved> syncsRemoved;

  bool any() const {
    return !scales.empty() || !hostScales.empty() || networkSpeed != 1.0 || launchLatencyNs ||
           launchLatencyScale != 1.0 || cpuSpeed != 1.0 || dropSyncs || !hostCuts.empty() ||
           !deviceOpDurations.empty() || !syncsRemoved.empty();
  }
};

// The sane range of each knob: what a what-if question can mean. Outside it a projection is no
// longer an answer (a kernel 10^18 times slower overflows the clock; a CPU 10^-300 as fast never
// finishes), so such values are refused, by the CLI and the GUI alike.
inline constexpr double kMinDurationScale = 1e-6;  // --scale REGEX=FACTOR
inline constexpr double kMaxDurationScale = 1e6;
inline constexpr double kMaxHostScale = 1e3;      // --scale-cpu REGEX=FACTOR (0 allowed)
inline constexpr double kMinNetworkSpeed = 1e-3;  // --network-speed
inline constexpr double kMaxNetworkSpeed = 1e6;
inline constexpr double kMinCpuSpeed = 1e-3;  // --cpu-speed
inline constexpr double kMaxCpuSpeed = 1e3;
inline constexpr double kMaxLaunchLatencyScale = 1e6;  // --launch-latency-scale (0 allowed)
inline constexpr double kMaxLaunchLatencyUs = 1e6;     // --launch-latency-us: one second

// The knobs in a few words, for the CLI and the window alike: "'gemm' x0.5, CPU x2, no syncs".
std::string describeKnobs(const SimKnobs& knobs);

// Parses "REGEX=FACTOR" (the last '=' splits, so the pattern may hold '='). Errors name the text
// and the range.
Result<DurationScale> parseDurationScale(const std::string& text);
// The same for --scale-cpu: the factor may be 0 (the events removed), at most kMaxHostScale.
Result<DurationScale> parseHostScale(const std::string& text);
// --network-speed F: a number in [kMinNetworkSpeed, kMaxNetworkSpeed].
Result<double> parseNetworkSpeed(const std::string& text);

// A launch latency given in microseconds, as the simulator's integer nanoseconds: refused when
// not a number in [0, kMaxLaunchLatencyUs] (so the conversion can never overflow).
Result<TimeNs> launchLatencyFromMicros(double us);

// Checks the knobs' values: each within its range above (finite, never overflowing the clock),
// patterns that compile.
Status validateKnobs(const SimKnobs& knobs);

// value * factor in integer ns, rounded, saturating at +-kMaxScaledNs instead of overflowing
// (several factors of a pattern multiply).
inline constexpr TimeNs kMaxScaledNs = 1'000'000'000'000'000'000;  // 10^18 ns, ~31 years
TimeNs scaleDuration(TimeNs value, double factor);

// The factor of each device-op name, looked up by interned name id and matched lazily.
class DurationScaler {
 public:
  // Fails on a pattern that does not compile.
  static Result<DurationScaler> create(const std::vector<DurationScale>& scales,
                                       const char* option = "--scale");
  double factor(StringId name, const StringTable& names);
  bool empty() const { return patterns_.empty(); }

 private:
  std::vector<std::pair<std::regex, double>> patterns_;
  std::vector<double> cache_;  // by StringId; < 0 = not matched yet
};

}  // namespace sutra
