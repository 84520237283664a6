// SPDX-License-Identifier: MIT
#include "analysis/device_time.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <map>

#include "analysis/breakdown.h"
#include "link/launch_index.h"
#include "link/steps.h"

namespace sutra {
namespace {

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Bits of the types HTA's kernel type breakdown reports, in its order.
constexpr std::array<KernelType, 3> kReportedTypes = {
    KernelType::Computation, KernelType::Communication, KernelType::Memory};

int typeBit(KernelType type) {
  for (std::size_t i = 0; i < kReportedTypes.size(); ++i)
    if (kReportedTypes[i] == type) return 1 << i;
  return 0;
}

std::string typesName(int mask) {
  std::string out;
  for (std::size_t i = 0; i < kReportedTypes.size(); ++i) {
    if (!(mask & (1 << i))) continue;
    if (!out.empty()) out += " overlapping ";
    out += kernelTypeName(kReportedTypes[i]);
  }
  return out;
}

struct Edge {
  TimeNs time;
  int delta;
  KernelType type;
};

}  // namespace

KernelType kernelTypeOf(const Trace& trace, const Event& deviceOp) {
  if (isCommunicationOp(trace, deviceOp)) return KernelType::Communication;
  const std::string_view name = trace.name(deviceOp);
  if (startsWith(name, "Memcpy") || startsWith(name, "Memset") || startsWith(name, "dma"))
    return KernelType::Memory;
  // HTA: not re.match(r"(^nccl.*Kernel)|(.*(Memcpy)|(Memset))|(.*Sync)", name).
  if (name.find("Memcpy") != std::string_view::npos || startsWith(name, "Memset") ||
      name.find("Sync") != std::string_view::npos)
    return KernelType::Other;
  return KernelType::Computation;
}

std::string_view kernelTypeName(KernelType type) {
  switch (type) {
    case KernelType::Computation:
      return "computation";
    case KernelType::Communication:
      return "communication";
    case KernelType::Memory:
      return "memory";
    case KernelType::Other:
      return "other";
  }
  return "other";
}

std::optional<double> DeviceTime::overlapRatio() const {
  if (communication <= 0) return std::nullopt;
  return double(computationWithCommunication) / double(communication);
}

DeviceTime deviceTime(const Trace& trace, const LaunchIndex& launches, const TimeWindow& window) {
  DeviceTime out;
  std::vector<Edge> edges;
  for (EventId id : deviceOpsInWindow(trace, launches, window)) {
    const Event& e = trace.events[id];
    const KernelType type = kernelTypeOf(trace, e);
    if (out.ops == 0) {
      out.first = e.start;
      out.last = e.end();
    }
    out.first = std::min(out.first, e.start);
    out.last = std::max(out.last, e.end());
    ++out.ops;
    edges.push_back({e.start, +1, type});
    edges.push_back({e.end(), -1, type});
  }
  std::sort(edges.begin(), edges.end(),
            [](const Edge& a, const Edge& b) { return a.time < b.time; });
  // Ops running of each type (KernelType's order) after every edge at one time is applied.
  std::array<int, 4> running{};
  std::map<int, TimeNs> byMask;
  for (std::size_t i = 0; i < edges.size();) {
    const TimeNs now = edges[i].time;
    for (; i < edges.size() && edges[i].time == now; ++i)
      running[std::size_t(edges[i].type)] += edges[i].delta;
    if (i == edges.size()) break;
    const TimeNs length = edges[i].time - now;
    int mask = 0;
    for (KernelType type : kReportedTypes)
      if (running[std::size_t(type)] > 0) mask |= typeBit(type);
    const bool busy = mask != 0 || running[std::size_t(KernelType::Other)] > 0;
    if (busy) out.busy += length;
    if (mask == 0) continue;
    byMask[mask] += length;
    if (mask & typeBit(KernelType::Computation)) out.computation += length;
    if (mask & typeBit(KernelType::Communication)) out.communication += length;
    if (mask & typeBit(KernelType::Memory)) out.memory += length;
    const int both = typeBit(KernelType::Computation) | typeBit(KernelType::Communication);
    if ((mask & both) == both) out.computationWithCommunication += length;
  }
  for (const auto& [mask, time] : byMask) out.byKernelTypes.push_back({typesName(mask), time});
  std::stable_sort(
      out.byKernelTypes.begin(), out.byKernelTypes.end(),
      [](const KernelTypeTime& a, const KernelTypeTime& b) { return a.time > b.time; });
  return out;
}

nlohmann::json deviceTimeJson(const DeviceTime& time) {
  nlohmann::json types = nlohmann::json::array();
  for (const auto& t : time.byKernelTypes)
    types.push_back({{"types", t.types}, {"time_ns", t.time}});
  const auto ratio = time.overlapRatio();
  return {{"ops", time.ops},
          {"first_ns", time.first},
          {"last_ns", time.last},
          {"span_ns", time.span()},
          {"busy_ns", time.busy},
          {"idle_ns", time.idle()},
          {"computation_ns", time.computation},
          {"non_computation_ns", time.nonComputation()},
          {"communication_ns", time.communication},
          {"memory_ns", time.memory},
          {"computation_with_communication_ns", time.computationWithCommunication},
          {"overlap_ratio", ratio ? nlohmann::json(*ratio) : nlohmann::json(nullptr)},
          {"kernel_types", std::move(types)}};
}

std::string deviceTimeText(const DeviceTime& time) {
  if (time.ops == 0) return "No device ops.\n";
  const auto percent = [&](TimeNs part) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%5.1f %%",
                  time.span() > 0 ? 100.0 * double(part) / double(time.span()) : 0.0);
    return std::string(buf);
  };
  std::string out = std::to_string(time.ops) + " device ops over " + formatDuration(time.span()) +
                    " (first start to last end):\n";
  out += "  computation      " + percent(time.computation) + "  " +
         formatDuration(time.computation) + "\n";
  out += "  non-computation  " + percent(time.nonComputation()) + "  " +
         formatDuration(time.nonComputation()) + "\n";
  out += "  idle             " + percent(time.idle()) + "  " + formatDuration(time.idle()) + "\n";
  out += "By kernel types (each instant once):\n";
  for (const auto& t : time.byKernelTypes)
    out += "  " + t.types + ": " + formatDuration(t.time) + "\n";
  if (const auto ratio = time.overlapRatio()) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "%.1f %%", 100.0 * *ratio);
    out += "Communication overlapped by computation: " + std::string(buf) + " of " +
           formatDuration(time.communication) + "\n";
  } else {
    out += "No communication kernels: no communication/computation overlap.\n";
  }
  return out;
}

}  // namespace sutra
