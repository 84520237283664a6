// SPDX-License-Identifier: MIT
#include "simulate/timeline_export.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

namespace sutra {
namespace {

// Microseconds with three decimals from integer ns, exactly (no double on epoch-sized values).
void appendMicros(std::string& out, TimeNs ns) {
  if (ns < 0) {
    out.push_back('-');
    ns = -ns;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%lld.%03lld", static_cast<long long>(ns / 1000),
                static_cast<long long>(ns % 1000));
  out += buf;
}

std::string jsonString(std::string_view text) {
  return nlohmann::json(std::string(text)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

Status writeSimulatedTimeline(const std::string& path, std::span<const SimulatedRank> ranks) {
  const std::string tmp = path + ".tmp";
  FILE* file = std::fopen(tmp.c_str(), "wb");
  if (!file) return makeError(path, std::string("cannot write: ") + std::strerror(errno));
  std::string out;
  out.reserve(1 << 20);
  bool ok = true;
  auto flush = [&](bool force) {
    if (!force && out.size() < (1 << 20)) return;
    if (std::fwrite(out.data(), 1, out.size(), file) != out.size()) ok = false;
    out.clear();
  };
  out += "{\"displayTimeUnit\":\"ms\",\"traceName\":\"Sutra simulated timeline\",\"traceEvents\":[";
  bool first = true;
  auto begin = [&]() {
    if (!first) out.push_back(',');
    first = false;
    out += "\n";
  };
  int nextPid = 1;
  for (const auto& r : ranks) {
    const SimGraph& g = *r.graph;
    const Trace& trace = *g.trace;
    // Numeric pids and tids per (process, thread) as written, named in metadata events.
    std::map<std::string, int> pids;
    std::vector<int> pidOfTrack(g.tracks.size()), tidOfTrack(g.tracks.size());
    std::map<std::string, int> tidsPerPid;
    for (std::uint32_t t = 0; t < g.tracks.size(); ++t) {
      const Lane& lane = trace.lanes[g.tracks[t].lane];
      auto [it, inserted] = pids.emplace(lane.pid, nextPid);
      if (inserted) {
        ++nextPid;
        std::string name = lane.processName.empty() ? "pid " + lane.pid : lane.processName;
        if (ranks.size() > 1) name = "rank " + std::to_string(r.rank) + " " + name;
        begin();
        out += "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(it->second) +
               ",\"args\":{\"name\":" + jsonString(name + " (simulated)") + "}}";
      }
      pidOfTrack[t] = it->second;
      tidOfTrack[t] = ++tidsPerPid[lane.pid];
      std::string threadName = g.tracks[t].device ? "stream " + lane.tid
                               : lane.threadName.empty() ? "thread " + lane.tid : lane.threadName;
      begin();
      out += "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(pidOfTrack[t]) +
             ",\"tid\":" + std::to_string(tidOfTrack[t]) + ",\"args\":{\"name\":" + jsonString(threadName) + "}}";
    }
    std::vector<std::string> nameCache(trace.names.size()), catCache(trace.categories.size());
    for (EventId e = 0; e < trace.events.size(); ++e) {
      const Event& ev = trace.events[e];
      const auto track = g.trackOfLane[ev.lane];
      if (track == kNoTrack) continue;
      const auto times = simulatedTimes(g, *r.run, e);
      if (!times) continue;
      if (nameCache[ev.name].empty()) nameCache[ev.name] = jsonString(trace.name(ev));
      if (catCache[ev.category].empty()) catCache[ev.category] = jsonString(trace.category(ev));
      begin();
      out += "{\"ph\":\"X\",\"name\":";
      out += nameCache[ev.name];
      out += ",\"cat\":";
      out += catCache[ev.category];
      out += ",\"pid\":" + std::to_string(pidOfTrack[track]) + ",\"tid\":" + std::to_string(tidOfTrack[track]);
      out += ",\"ts\":";
      appendMicros(out, times->first);
      out += ",\"dur\":";
      appendMicros(out, times->second - times->first);
      out += ",\"args\":{\"measured_ts\":";
      appendMicros(out, ev.start);
      out += ",\"measured_dur\":";
      appendMicros(out, ev.dur);
      out += "}}";
      flush(false);
    }
  }
  out += "\n]}\n";
  flush(true);
  if (std::fclose(file) != 0) ok = false;
  if (!ok) {
    std::remove(tmp.c_str());
    return makeError(path, "write failed (disk full?)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::remove(tmp.c_str());
    return makeError(path, "cannot replace: " + ec.message());
  }
  return Ok{};
}

}  // namespace sutra
