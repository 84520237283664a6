// SPDX-License-Identifier: MIT
#include "model/time.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sutra {

std::string formatDuration(TimeNs ns) {
  const double magnitude = std::llabs(ns);
  const char* unit = "ns";
  double value = static_cast<double>(ns);
  if (magnitude >= 1e9) {
    value /= 1e9, unit = "s";
  } else if (magnitude >= 1e6) {
    value /= 1e6, unit = "ms";
  } else if (magnitude >= 1e3) {
    value /= 1e3, unit = "us";
  } else {
    return std::to_string(ns) + " ns";
  }
  char buffer[48];
  const double a = std::fabs(value);
  const int decimals = a >= 100 ? 1 : (a >= 10 ? 2 : 3);
  std::snprintf(buffer, sizeof buffer, "%.*f %s", decimals, value, unit);
  return buffer;
}

std::string formatBytes(std::int64_t bytes) {
  const double v = double(bytes);
  const double a = v < 0 ? -v : v;
  char buf[48];
  if (a >= 1024.0 * 1024 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f GiB", v / (1024.0 * 1024 * 1024));
  else if (a >= 1024.0 * 1024)
    std::snprintf(buf, sizeof buf, "%.2f MiB", v / (1024.0 * 1024));
  else if (a >= 1024.0)
    std::snprintf(buf, sizeof buf, "%.2f KiB", v / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%lld B", static_cast<long long>(bytes));
  return buf;
}

}  // namespace sutra
