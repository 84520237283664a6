// SPDX-License-Identifier: MIT
#include "analysis/trace_summary.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

#include "chakra/chakra_timeline.h"
#include "io/readers.h"
#include "io/trace_cache.h"

namespace sutra {
namespace {

std::vector<std::pair<std::string, std::uint64_t>> sortedCounts(
    const std::map<std::string, std::uint64_t>& counts) {
  std::vector<std::pair<std::string, std::uint64_t>> out(counts.begin(), counts.end());
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

TraceSummary summarizeTrace(const Trace& trace) {
  TraceSummary s;
  s.path = trace.path;
  s.events = trace.events.size();
  std::vector<std::uint64_t> perCategory(trace.categories.size(), 0);
  for (const auto& e : trace.events) ++perCategory[e.category];
  std::map<std::string, std::uint64_t> counts;
  for (std::size_t c = 0; c < perCategory.size(); ++c)
    if (perCategory[c] > 0)
      counts[std::string(trace.categories.view(static_cast<StringId>(c)))] += perCategory[c];
  s.byCategory = sortedCounts(counts);
  s.lanes = trace.lanes.size();
  s.flows = trace.flows.size();
  const std::string backend = lower(trace.meta.deviceBackend);
  std::set<std::int64_t> listed;
  for (const auto& d : trace.meta.devices) {
    s.devices.push_back({backend + ":" + std::to_string(d.id), d.name});
    listed.insert(d.id);
  }
  // Devices with streams in the timeline but no deviceProperties entry.
  std::set<std::int64_t> unlisted;
  for (const auto& lane : trace.lanes)
    if (lane.kind == LaneKind::DeviceStream && lane.device >= 0 && !listed.count(lane.device))
      unlisted.insert(lane.device);
  for (auto id : unlisted) s.devices.push_back({backend + ":" + std::to_string(id), ""});
  s.spanNs = trace.events.empty() ? 0 : trace.endNs - trace.startNs;
  s.problems = trace.problems.all();
  // Events no analysis reads: a category Sutra does not know is said, not passed over.
  std::uint64_t unknown = 0;
  std::string names;
  for (const auto& [category, count] : s.byCategory) {
    if (isKnownCategory(category)) continue;
    unknown += count;
    if (names.size() < 80)
      names += (names.empty() ? "" : ", ") + category + " (" + std::to_string(count) + ")";
  }
  if (unknown > 0) {
    ProblemLog log;
    log.add(Severity::Warning,
            "events of a category Sutra does not know (no op, runtime call or device op to any "
            "analysis)",
            unknown, names);
    s.problems.push_back(log.all().front());
  }
  return s;
}

TraceSummary summarizeEt(const EtTrace& et) {
  TraceSummary s;
  s.path = et.path;
  s.schema = et.schema;
  s.events = et.nodes.size();
  std::map<std::string, std::uint64_t> counts;
  std::set<std::int64_t> tids;
  std::set<std::string> devices;
  for (const auto& n : et.nodes) {
    std::string category = n.isRoot() ? "process root" : n.isThreadRoot() ? "thread root" : "";
    if (category.empty()) {
      category = std::string(n.category());
      if (category.empty()) category = "operator";
      tids.insert(n.tid);
    }
    ++counts[category];
    for (const auto* side : {&n.inputs, &n.outputs})
      for (const auto& t : side->tensors)
        if (!t.device.empty()) devices.emplace(t.device);
  }
  s.byCategory = sortedCounts(counts);
  s.lanes = tids.size();
  for (const auto& d : devices) s.devices.push_back({d, ""});
  if (et.startTs > 0 && et.finishTs >= et.startTs) s.spanNs = (et.finishTs - et.startTs) * 1000000;
  s.problems = et.problems.all();
  return s;
}

Result<TraceSummary> summarizeTraceFile(const DiscoveredFile& file) {
  TraceSummary s;
  switch (file.kind) {
    case FileKind::KinetoTrace: {
      // Through the trace cache, as the session reads it: a second `info` of a big file maps it.
      auto [trace, fromCache, cacheNote] = readKinetoTraceCached(
          file.path, KinetoReadOptions{}, {}, TraceCacheOptions::fromEnvironment());
      if (!trace) return trace.error();
      if (!cacheNote.empty())
        trace->problems.add(Severity::Info, "trace cache not used", cacheNote);
      s = summarizeTrace(*trace);
      s.schema = trace->meta.schemaVersion.empty() ? file.schema : trace->meta.schemaVersion;
      break;
    }
    case FileKind::PytorchEt:
    case FileKind::LinkedEt: {
      auto et = readPytorchEt(file.path);
      if (!et) return et.error();
      s = summarizeEt(*et);
      break;
    }
    case FileKind::ChakraEt: {
      auto trace = chakra::readChakraTimeline(file.path);
      if (!trace) return trace.error();
      s = summarizeTrace(*trace);
      s.schema = file.schema;
      break;
    }
    case FileKind::Unknown:
      return makeError(file.path, file.reason);
  }
  s.path = file.path;
  s.kind = file.kind;
  s.rank = file.rank;
  return s;
}

}  // namespace sutra
