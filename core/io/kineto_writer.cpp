// SPDX-License-Identifier: MIT
#include "io/kineto_writer.h"

#include <cstdio>
#include <set>
#include <string_view>

#include "io/chrome_trace_stream.h"

namespace sutra {
namespace {

// The top-level members the reader parsed into TraceMetadata, back as raw JSON.
std::string topLevelMembers(const TraceMetadata& meta) {
  std::string out;
  auto member = [&out](std::string_view key, std::string_view rawValue) {
    if (!out.empty()) out += ',';
    out += jsonQuoted(key);
    out += ':';
    out += rawValue;
  };
  if (!meta.schemaVersion.empty()) {
    const bool numeric = meta.schemaVersion.find_first_not_of("0123456789") == std::string::npos;
    member("schemaVersion", numeric ? meta.schemaVersion : jsonQuoted(meta.schemaVersion));
  }
  if (meta.baseTimeNanoseconds)
    member("baseTimeNanoseconds", std::to_string(*meta.baseTimeNanoseconds));
  if (!meta.traceName.empty()) member("traceName", jsonQuoted(meta.traceName));
  if (!meta.devices.empty()) {
    std::string devices = "[";
    for (std::size_t i = 0; i < meta.devices.size(); ++i) {
      if (i) devices += ',';
      devices += meta.devices[i].rawJson;
    }
    member("deviceProperties", devices + "]");
  }
  if (!meta.distributedInfoJson.empty()) member("distributedInfo", meta.distributedInfoJson);
  for (const auto& [key, raw] : meta.other)
    if (key != "traceEvents") member(key, raw);
  return out;
}

class Writer {
 public:
  Writer(const Trace& trace, ChromeTraceStream& out, const KinetoWriteOptions& options)
      : t_(trace), out_(out), window_(options.window) {}

  void write() {
    kept_.assign(t_.events.size(), false);
    names_.resize(t_.names.size());
    categories_.resize(t_.categories.size());
    for (LaneId l = 0; l < t_.lanes.size(); ++l) laneMetadata(l);
    // The reader numbers lanes in the order their first event or instant appears, so each lane's
    // events and instants are written together, lane by lane: the ids come back the same.
    std::vector<std::vector<std::uint32_t>> instantsOfLane(t_.lanes.size());
    for (std::uint32_t i = 0; i < t_.instants.size(); ++i)
      instantsOfLane[t_.instants[i].lane].push_back(i);
    for (LaneId l = 0; l < t_.lanes.size(); ++l) {
      for (EventId e = t_.lanes[l].firstEvent; e < t_.lanes[l].endEvent; ++e) {
        const Event& ev = t_.events[e];
        if (window_ && !keptByWindow(ev, *window_)) continue;
        kept_[e] = true;
        complete(ev);
      }
      for (auto i : instantsOfLane[l])
        if (!window_ || window_->contains(t_.instants[i].time)) instant(t_.instants[i]);
    }
    for (const Flow& f : t_.flows)
      if (f.from != kNoEvent && f.to != kNoEvent && kept_[f.from] && kept_[f.to]) flow(f);
    for (const CounterSeries& c : t_.counters) counter(c);
  }

 private:
  const std::string& name(StringId id) {
    if (names_[id].empty()) names_[id] = jsonQuoted(t_.names.view(id));
    return names_[id];
  }
  const std::string& category(std::uint16_t id) {
    if (categories_[id].empty()) categories_[id] = jsonQuoted(t_.categories.view(id));
    return categories_[id];
  }
  void place(std::string& s, const Lane& lane) {
    s += "\"pid\":";
    s += jsonPidOrTid(lane.pid);
    s += ",\"tid\":";
    s += jsonPidOrTid(lane.tid);
  }
  // `,"pid":P,"tid":T,"ts":US` then `,"args":{...}` where there are args, and the closing brace.
  void placeAndClose(std::string& s, const Lane& lane, TimeNs ts, std::string_view args) {
    s += ',';
    place(s, lane);
    s += ",\"ts\":";
    appendMicros(s, ts);
    if (!args.empty()) {
      s += ",\"args\":";
      s += args;
    }
    s += '}';
  }

  void metadata(const Lane& lane, std::string_view what, const std::string& args) {
    std::string& s = out_.event();
    s += "{\"ph\":\"M\",\"name\":\"";
    s += what;
    s += "\",";
    place(s, lane);
    s += ",\"args\":{" + args + "}}";
  }

  void laneMetadata(LaneId l) {
    const Lane& lane = t_.lanes[l];
    // A process's name and order are written with its first lane.
    if (seenProcesses_.insert(lane.pid).second) {
      if (!lane.processName.empty())
        metadata(lane, "process_name", "\"name\":" + jsonQuoted(lane.processName));
      if (lane.processSortIndex != 0)
        metadata(lane, "process_sort_index",
                 "\"sort_index\":" + std::to_string(lane.processSortIndex));
    }
    if (!lane.threadName.empty())
      metadata(lane, "thread_name", "\"name\":" + jsonQuoted(lane.threadName));
    if (lane.threadSortIndex != 0)
      metadata(lane, "thread_sort_index", "\"sort_index\":" + std::to_string(lane.threadSortIndex));
  }

  void complete(const Event& ev) {
    std::string& s = out_.event();
    s += "{\"ph\":\"X\",\"cat\":";
    s += category(ev.category);
    s += ",\"name\":";
    s += name(ev.name);
    s += ",\"dur\":";
    appendMicros(s, ev.dur);
    placeAndClose(s, t_.lanes[ev.lane], ev.start, t_.argsJson(ev));
  }

  void flowEnd(const Flow& f, const Event& at, bool start) {
    std::string& s = out_.event();
    s += start ? "{\"ph\":\"s\"" : "{\"ph\":\"f\",\"bp\":\"e\"";
    s += ",\"id\":" + std::to_string(f.id) + ",\"cat\":";
    s += category(f.category);
    s += ",\"name\":";
    s += category(f.category);
    placeAndClose(s, t_.lanes[at.lane], at.start, {});
  }
  void flow(const Flow& f) {
    flowEnd(f, t_.events[f.from], true);
    flowEnd(f, t_.events[f.to], false);
  }

  void instant(const Instant& i) {
    std::string& s = out_.event();
    s += "{\"ph\":\"i\",\"s\":\"";
    s += i.scope;
    s += "\",\"name\":";
    s += name(i.name);
    placeAndClose(s, t_.lanes[i.lane], i.time,
                  i.args == kNoArgs ? std::string_view{} : t_.args.get(i.args));
  }

  // The reader names a series "<counter>/<key>", or "<counter>" alone for a single series of
  // that name; one "C" event per sample gives the same series back.
  void counter(const CounterSeries& c) {
    const auto slash = c.name.rfind('/');
    const std::string counterName = slash == std::string::npos ? c.name : c.name.substr(0, slash);
    const std::string key = slash == std::string::npos ? c.name : c.name.substr(slash + 1);
    const std::string head = "{\"ph\":\"C\",\"name\":" + jsonQuoted(counterName) +
                             ",\"pid\":" + jsonPidOrTid(c.pid) + ",\"ts\":";
    const std::string argsHead = ",\"args\":{" + jsonQuoted(key) + ':';
    for (const auto& [time, value] : c.samples) {
      if (window_ && !window_->contains(time)) continue;
      std::string& s = out_.event();
      s += head;
      appendMicros(s, time);
      s += argsHead;
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", value);
      s += buf;
      s += "}}";
    }
  }

  const Trace& t_;
  ChromeTraceStream& out_;
  std::optional<TimeWindow> window_;
  std::vector<bool> kept_;
  std::vector<std::string> names_, categories_;
  std::set<std::string> seenProcesses_;
};

}  // namespace

bool keptByWindow(const Event& event, const TimeWindow& window) {
  return window.overlaps(event.start, event.end() + (event.dur == 0 ? 1 : 0));
}

Status writeKinetoTrace(const Trace& trace, const std::string& path,
                        const KinetoWriteOptions& options) {
  if (options.window && options.window->length() <= 0)
    return makeError(path, "the time window to export is empty");
  AtomicFileOptions file;
  file.gzip = hasGzipSuffix(path);
  file.protectedPaths = options.protectedPaths;
  auto stream = ChromeTraceStream::open(path, topLevelMembers(trace.meta), file);
  if (!stream) return stream.error();
  Writer(trace, *stream, options).write();
  return stream->finish();
}

}  // namespace sutra
