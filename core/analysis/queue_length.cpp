// SPDX-License-Identifier: MIT
#include "analysis/queue_length.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <tuple>

#include "link/launch_index.h"
#include "link/steps.h"

namespace sutra {
namespace {

// pandas' quantile with linear interpolation over sorted values.
double quantile(const std::vector<int>& sorted, double q) {
  const double pos = q * double(sorted.size() - 1);
  const auto below = std::size_t(std::floor(pos));
  const std::size_t above = std::min(below + 1, sorted.size() - 1);
  return sorted[below] + (pos - double(below)) * (sorted[above] - sorted[below]);
}

QueueLengthSummary summarize(const std::vector<std::pair<TimeNs, int>>& series) {
  QueueLengthSummary s;
  s.count = series.size();
  if (series.empty()) return s;
  std::vector<int> values;
  values.reserve(series.size());
  double sum = 0;
  for (const auto& [time, length] : series) {
    values.push_back(length);
    sum += length;
  }
  s.mean = sum / double(values.size());
  if (values.size() > 1) {
    double squares = 0;
    for (int v : values) squares += (v - s.mean) * (v - s.mean);
    s.std = std::sqrt(squares / double(values.size() - 1));
  }
  std::sort(values.begin(), values.end());
  s.min = values.front();
  s.max = values.back();
  s.p25 = quantile(values, 0.25);
  s.p50 = quantile(values, 0.5);
  s.p75 = quantile(values, 0.75);
  const TimeNs length = series.back().first - series.front().first;
  if (length > 0) {
    double area = 0;
    for (std::size_t i = 0; i + 1 < series.size(); ++i)
      area += double(series[i].second) * double(series[i + 1].first - series[i].first);
    s.timeWeightedMean = area / double(length);
  } else {
    s.timeWeightedMean = series.back().second;
  }
  return s;
}

}  // namespace

std::vector<StreamQueueLength> queueLengths(const Trace& trace, const LaunchIndex& launches,
                                            const TimeWindow& window) {
  // (time, +1 rise / -1 fall) per stream.
  std::map<std::tuple<std::int32_t, std::int64_t, LaneId>, std::vector<std::pair<TimeNs, int>>>
      changes;
  for (EventId id : deviceOpsInWindow(trace, launches, window)) {
    const EventId call = launches.runtimeCallOf(id);
    if (call == kNoEvent) continue;
    const Event& op = trace.events[id];
    const Lane& lane = trace.lanes[op.lane];
    auto& list = changes[{lane.device, lane.stream, op.lane}];
    list.push_back({trace.events[call].start, +1});
    list.push_back({op.start, -1});
  }
  std::vector<StreamQueueLength> out;
  for (auto& [key, list] : changes) {
    std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
      return a.first != b.first ? a.first < b.first : a.second > b.second;
    });
    StreamQueueLength s;
    s.device = std::get<0>(key);
    s.stream = std::get<1>(key);
    s.lane = std::get<2>(key);
    int length = 0;
    s.series.reserve(list.size());
    for (const auto& [time, delta] : list) s.series.push_back({time, length += delta});
    s.summary = summarize(s.series);
    out.push_back(std::move(s));
  }
  return out;
}

nlohmann::json queueLengthJson(const std::vector<StreamQueueLength>& streams) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& s : streams) {
    const QueueLengthSummary& q = s.summary;
    list.push_back({{"device", s.device},
                    {"stream", s.stream},
                    {"count", q.count},
                    {"mean", q.mean},
                    {"std", q.std},
                    {"min", q.min},
                    {"p25", q.p25},
                    {"p50", q.p50},
                    {"p75", q.p75},
                    {"max", q.max},
                    {"time_weighted_mean", q.timeWeightedMean}});
  }
  return {{"streams", std::move(list)}};
}

std::string queueLengthText(const std::vector<StreamQueueLength>& streams) {
  if (streams.empty()) return "No launched device ops.\n";
  std::string out =
      "Ops queued on each stream (launched, not yet started), one sample per change:\n";
  char line[256];
  std::snprintf(line, sizeof line, "  %-16s %8s %8s %8s %6s %6s %6s %6s %10s\n", "device/stream",
                "samples", "mean", "std", "p25", "p50", "p75", "max", "time mean");
  out += line;
  for (const auto& s : streams) {
    const QueueLengthSummary& q = s.summary;
    const std::string name = std::to_string(s.device) + "/" + std::to_string(s.stream);
    std::snprintf(line, sizeof line, "  %-16s %8zu %8.2f %8.2f %6.1f %6.1f %6.1f %6.0f %10.2f\n",
                  name.c_str(), q.count, q.mean, q.std, q.p25, q.p50, q.p75, q.max,
                  q.timeWeightedMean);
    out += line;
  }
  return out;
}

}  // namespace sutra
