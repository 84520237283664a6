// SPDX-License-Identifier: MIT
#include "simulate/timeline_export.h"

#include <map>

#include "io/chrome_trace_stream.h"
#include "io/discover.h"

namespace sutra {

Status writeSimulatedTimeline(const std::string& path, std::span<const SimulatedRank> ranks) {
  AtomicFileOptions file;
  file.gzip = hasGzipSuffix(path);
  for (const auto& r : ranks) file.protectedPaths.push_back(r.graph->trace->path);
  auto stream = ChromeTraceStream::open(
      path,
      "\"displayTimeUnit\":\"ms\",\"traceName\":\"" + std::string(kSimulatedTimelineName) + "\"",
      file);
  if (!stream) return stream.error();
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
        stream->event() +=
            "{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(it->second) +
            ",\"args\":{\"name\":" + jsonQuoted(name + " (simulated)") + "}}";
      }
      pidOfTrack[t] = it->second;
      tidOfTrack[t] = ++tidsPerPid[lane.pid];
      std::string threadName = g.tracks[t].device        ? "stream " + lane.tid
                               : lane.threadName.empty() ? "thread " + lane.tid
                                                         : lane.threadName;
      stream->event() +=
          "{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(pidOfTrack[t]) +
          ",\"tid\":" + std::to_string(tidOfTrack[t]) +
          ",\"args\":{\"name\":" + jsonQuoted(threadName) + "}}";
    }
    std::vector<std::string> nameCache(trace.names.size()), catCache(trace.categories.size());
    for (EventId e = 0; e < trace.events.size(); ++e) {
      const Event& ev = trace.events[e];
      const auto track = g.trackOfLane[ev.lane];
      if (track == kNoTrack) continue;
      const auto times = simulatedTimes(g, *r.run, e);
      if (!times) continue;
      if (nameCache[ev.name].empty()) nameCache[ev.name] = jsonQuoted(trace.name(ev));
      if (catCache[ev.category].empty()) catCache[ev.category] = jsonQuoted(trace.category(ev));
      std::string& out = stream->event();
      out += "{\"ph\":\"X\",\"name\":";
      out += nameCache[ev.name];
      out += ",\"cat\":";
      out += catCache[ev.category];
      out += ",\"pid\":" + std::to_string(pidOfTrack[track]) +
             ",\"tid\":" + std::to_string(tidOfTrack[track]);
      out += ",\"ts\":";
      appendMicros(out, times->first);
      out += ",\"dur\":";
      appendMicros(out, times->second - times->first);
      out += ",\"args\":{\"measured_ts\":";
      appendMicros(out, ev.start);
      out += ",\"measured_dur\":";
      appendMicros(out, ev.dur);
      out += "}}";
    }
  }
  return stream->finish();
}

}  // namespace sutra
