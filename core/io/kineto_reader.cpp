// SPDX-License-Identifier: MIT
// Kineto / Chrome-trace JSON -> Trace. The traceEvents array is streamed in chunks (json_stream.h)
// and each chunk parsed with simdjson On Demand; the other top-level members (deviceProperties,
// distributedInfo, baseTimeNanoseconds ...) are small and parsed with nlohmann.
#include <simdjson.h>

#include <nlohmann/json.hpp>
#include <unordered_map>

#include "io/byte_source.h"
#include "io/json_numbers.h"
#include "io/json_stream.h"
#include "io/readers.h"
#include "model/trace_builder.h"

namespace sutra {
namespace {

namespace od = simdjson::ondemand;

std::string_view trimToken(std::string_view t) {
  while (!t.empty() && (t.back() == ' ' || t.back() == '\n' || t.back() == '\r' || t.back() == '\t'))
    t.remove_suffix(1);
  return t;
}

// The text of a scalar: a string's content, or a number's / literal's JSON token.
bool scalarText(od::value& v, std::string_view& out) {
  od::json_type type;
  if (v.type().get(type)) return false;
  if (type == od::json_type::string) return !v.get_string().get(out);
  if (type == od::json_type::object || type == od::json_type::array) return false;
  out = trimToken(v.raw_json_token());
  return true;
}

// One event's fields as read; which of them matter depends on the phase.
struct RawEvent {
  std::string_view ph, name, cat, pid, tid, ts, dur, id, bp, scope;
  std::string_view argsRaw;
  bool hasPid = false, hasTid = false, hasTs = false, hasDur = false, hasId = false;
  std::int64_t externalId = kNoId, correlation = kNoId, recordFunctionId = kNoId;
  std::string_view metaName;      // M: args.name
  std::int64_t metaSortIndex = 0; // M: args.sort_index
  bool hasMetaSortIndex = false;
};

class KinetoReader {
 public:
  explicit KinetoReader(const std::string& path) : builder_(path) {}

  Result<Trace> read(ByteSource& source, const ProgressFn& progress);

 private:
  Status parseBatch(const JsonBatch& batch);
  Status parseEvent(od::object& object);
  void addEvent(RawEvent& raw, std::uint64_t where);
  void onMember(std::string_view key, std::string_view raw);
  LaneId laneFor(std::string_view pid, std::string_view tid);
  std::uint16_t categoryId(std::string_view cat);
  void finishMetadata(Trace& trace);

  TraceBuilder builder_;
  od::parser parser_;
  std::vector<CategoryClass> classOfCategory_;
  // Events come grouped per thread: remembering the last lane saves building a key per event.
  std::string lastPid_, lastTid_;
  LaneId lastLane_ = 0;
  bool haveLastLane_ = false;
  // "B"/"E" pairs, per lane.
  std::unordered_map<LaneId, std::vector<Event>> openBegins_;
  std::vector<std::pair<std::string, std::string>> members_;
  std::uint64_t batchOffset_ = 0;
  std::vector<std::pair<std::string, double>> counterValues_;  // the current "C" event's series
};

std::uint16_t KinetoReader::categoryId(std::string_view cat) {
  Trace& t = builder_.trace();
  const StringId id = t.categories.intern(cat);
  if (id >= classOfCategory_.size()) {
    classOfCategory_.resize(id + 1, CategoryClass::Other);
    classOfCategory_[id] = classifyCategory(cat);
  }
  return static_cast<std::uint16_t>(id);
}

LaneId KinetoReader::laneFor(std::string_view pid, std::string_view tid) {
  if (haveLastLane_ && pid == lastPid_ && tid == lastTid_) return lastLane_;
  lastLane_ = builder_.lane(pid, tid);
  lastPid_.assign(pid);
  lastTid_.assign(tid);
  haveLastLane_ = true;
  return lastLane_;
}

void KinetoReader::onMember(std::string_view key, std::string_view raw) {
  members_.emplace_back(std::string(key), std::string(raw));
}

Status KinetoReader::parseBatch(const JsonBatch& batch) {
  batchOffset_ = batch.fileOffset;
  od::document doc;
  const std::string& path = builder_.trace().path;
  auto fail = [&](simdjson::error_code code, const char* location) -> Status {
    std::uint64_t at = batch.fileOffset;
    if (location && location >= batch.data && location <= batch.data + batch.size) at += location - batch.data;
    return makeError(path, "malformed JSON near byte " + std::to_string(at) + " in traceEvents: " +
                               simdjson::error_message(code));
  };
  if (auto err = parser_.iterate(batch.data, batch.size, batch.capacity).get(doc)) return fail(err, nullptr);
  od::array events;
  if (auto err = doc.get_array().get(events)) return fail(err, nullptr);
  for (auto element : events) {
    od::object object;
    if (auto err = element.get_object().get(object)) {
      const char* loc = nullptr;
      if (auto where = doc.current_location(); !where.error()) loc = where.value_unsafe();
      if (err == simdjson::INCORRECT_TYPE) {
        builder_.trace().problems.add(Severity::Warning, "trace event that is not a JSON object");
        continue;
      }
      return fail(err, loc);
    }
    if (auto s = parseEvent(object); !s) return s;
  }
  return Ok{};
}

Status KinetoReader::parseEvent(od::object& object) {
  RawEvent raw;
  const std::string& path = builder_.trace().path;
  for (auto field : object) {
    od::raw_json_string key;
    if (auto err = field.key().get(key)) return makeError(path, std::string("malformed event key: ") + simdjson::error_message(err));
    od::value v = field.value();
    std::string_view* slot = nullptr;
    if (key == "ph") slot = &raw.ph;
    else if (key == "name") slot = &raw.name;
    else if (key == "cat") slot = &raw.cat;
    else if (key == "pid") slot = &raw.pid, raw.hasPid = true;
    else if (key == "tid") slot = &raw.tid, raw.hasTid = true;
    else if (key == "ts") slot = &raw.ts, raw.hasTs = true;
    else if (key == "dur") slot = &raw.dur, raw.hasDur = true;
    else if (key == "id") slot = &raw.id, raw.hasId = true;
    else if (key == "bp") slot = &raw.bp;
    else if (key == "s") slot = &raw.scope;
    else if (key == "args") {
      od::object args;
      if (v.get_object().get(args)) continue;  // non-object args are ignored
      if (args.raw_json().get(raw.argsRaw)) return makeError(path, "malformed args object near byte " + std::to_string(batchOffset_));
      if (args.reset().error()) continue;
      for (auto arg : args) {
        od::raw_json_string argKey;
        if (arg.key().get(argKey)) break;
        od::value av = arg.value();
        std::string_view text;
        if (argKey == "External id") {
          if (scalarText(av, text)) raw.externalId = integerText(text).value_or(kNoId);
        } else if (argKey == "correlation") {
          if (scalarText(av, text)) raw.correlation = integerText(text).value_or(kNoId);
        } else if (argKey == "Record function id") {
          if (scalarText(av, text)) raw.recordFunctionId = integerText(text).value_or(kNoId);
        } else if (argKey == "name") {
          if (scalarText(av, text)) raw.metaName = text;
          // The view points into the parser's string buffer, valid until the next document.
        } else if (argKey == "sort_index") {
          if (scalarText(av, text)) {
            raw.metaSortIndex = integerText(text).value_or(0);
            raw.hasMetaSortIndex = true;
          }
        } else if (!raw.ph.empty() && raw.ph[0] == 'C') {
          // Counter series: every numeric arg is one. ("ph" comes first in Kineto's events.)
          std::string_view k;
          if (scalarText(av, text) && !arg.unescaped_key().get(k))
            counterValues_.emplace_back(std::string(k), std::strtod(std::string(text).c_str(), nullptr));
        }
      }
      continue;
    } else {
      continue;  // unknown fields are data we do not need
    }
    if (!scalarText(v, *slot)) *slot = {};
    // Strings from get_string() live in the parser's buffer until the next document: fine here,
    // every view is consumed before the next element.
  }
  addEvent(raw, batchOffset_);
  return Ok{};
}

void KinetoReader::addEvent(RawEvent& raw, std::uint64_t where) {
  Trace& t = builder_.trace();
  const char ph = raw.ph.empty() ? '\0' : raw.ph[0];
  auto time = [&](std::string_view text, const char* field) -> std::optional<TimeNs> {
    auto v = microsTextToNanos(text);
    if (!v) t.problems.add(Severity::Warning, std::string("event with an unreadable '") + field + "'",
                           std::string(raw.name) + " near byte " + std::to_string(where));
    return v;
  };
  switch (ph) {
    case 'X':
    case 'B':
    case 'E': {
      if (!raw.hasTs) {
        t.problems.add(Severity::Warning, "event without a timestamp, skipped", std::string(raw.name));
        return;
      }
      auto start = time(raw.ts, "ts");
      if (!start) return;
      Event e;
      e.start = *start;
      if (ph == 'X') {
        if (raw.hasDur) {
          auto dur = time(raw.dur, "dur");
          e.dur = dur.value_or(0);
        } else {
          t.problems.add(Severity::Info, "complete event without a duration", std::string(raw.name));
        }
        if (e.dur < 0) {
          t.problems.add(Severity::Warning, "event with negative duration (set to 0)",
                         std::string(raw.name) + " dur " + std::string(raw.dur));
          e.dur = 0;
        }
      }
      e.lane = laneFor(raw.pid, raw.tid);
      e.name = t.names.intern(raw.name);
      e.category = categoryId(raw.cat);
      e.klass = classOfCategory_[e.category];
      e.externalId = raw.externalId;
      e.correlation = raw.correlation;
      e.recordFunctionId = raw.recordFunctionId;
      if (ph == 'X') {
        builder_.addEvent(e, raw.argsRaw);
      } else if (ph == 'B') {
        if (!raw.argsRaw.empty()) e.args = t.args.add(raw.argsRaw);
        openBegins_[e.lane].push_back(e);
      } else {
        auto& open = openBegins_[e.lane];
        if (open.empty()) {
          t.problems.add(Severity::Warning, "'E' event without a matching 'B'", std::string(raw.name));
          return;
        }
        Event begun = open.back();
        open.pop_back();
        begun.dur = std::max<TimeNs>(0, e.start - begun.start);
        builder_.trace().events.push_back(begun);
      }
      return;
    }
    case 'i':
    case 'I': {
      auto at = time(raw.ts, "ts");
      if (!at) return;
      Instant instant;
      instant.time = *at;
      instant.name = t.names.intern(raw.name);
      instant.lane = laneFor(raw.pid, raw.tid);
      instant.scope = raw.scope.empty() ? 't' : raw.scope[0];
      builder_.addInstant(instant, raw.argsRaw);
      return;
    }
    case 's':
    case 'f': {
      auto at = time(raw.ts, "ts");
      if (!at) return;
      auto id = integerText(raw.id);
      if (!id) {
        t.problems.add(Severity::Warning, "flow event without a numeric id", std::string(raw.name));
        return;
      }
      FlowEnd end;
      end.id = *id;
      end.category = categoryId(raw.cat);
      end.lane = laneFor(raw.pid, raw.tid);
      end.time = *at;
      end.isStart = ph == 's';
      end.bindEnclosing = raw.bp == "e";
      builder_.addFlowEnd(end);
      return;
    }
    case 'M': {
      if (raw.name == "process_name") builder_.setProcessName(raw.pid, raw.metaName);
      else if (raw.name == "thread_name") builder_.setThreadName(raw.pid, raw.tid, raw.metaName);
      else if (raw.name == "process_sort_index" && raw.hasMetaSortIndex) builder_.setProcessSortIndex(raw.pid, raw.metaSortIndex);
      else if (raw.name == "thread_sort_index" && raw.hasMetaSortIndex) builder_.setThreadSortIndex(raw.pid, raw.tid, raw.metaSortIndex);
      return;  // process_labels and others carry nothing Sutra uses
    }
    case 'C': {
      auto at = time(raw.ts, "ts");
      if (at) {
        for (auto& [key, value] : counterValues_) {
          const std::string series = counterValues_.size() == 1 && key == raw.name
                                         ? std::string(raw.name)
                                         : std::string(raw.name) + "/" + key;
          builder_.addCounterSample(raw.pid, series, *at, value);
        }
      }
      counterValues_.clear();
      return;
    }
    default:
      t.problems.add(Severity::Info, "event phase Sutra does not use, skipped",
                     "ph '" + std::string(raw.ph) + "' (" + std::string(raw.name) + ")");
  }
}

void KinetoReader::finishMetadata(Trace& trace) {
  auto& meta = trace.meta;
  for (auto& [key, raw] : members_) {
    nlohmann::json value = nlohmann::json::parse(raw, nullptr, false);
    if (value.is_discarded()) {
      trace.problems.add(Severity::Warning, "top-level member that is not valid JSON", key);
      continue;
    }
    if (key == "schemaVersion") {
      meta.schemaVersion = value.is_string() ? value.get<std::string>() : value.dump();
    } else if (key == "baseTimeNanoseconds" && value.is_number_integer()) {
      meta.baseTimeNanoseconds = value.get<std::int64_t>();
    } else if (key == "traceName" && value.is_string()) {
      meta.traceName = value.get<std::string>();
    } else if (key == "deviceProperties" && value.is_array()) {
      for (const auto& d : value) {
        if (!d.is_object()) continue;
        DeviceInfo info;
        info.id = d.value("id", 0);
        info.name = d.value("name", "");
        info.totalGlobalMem = d.value("totalGlobalMem", std::int64_t{0});
        info.numSms = d.value("numSms", std::int64_t{0});
        info.rawJson = d.dump();
        meta.devices.push_back(std::move(info));
      }
    } else if (key == "distributedInfo" && value.is_object()) {
      meta.distributedInfoJson = raw;
      if (value.contains("rank") && value["rank"].is_number_integer()) meta.rank = value["rank"].get<int>();
      if (value.contains("world_size") && value["world_size"].is_number_integer())
        meta.worldSize = value["world_size"].get<int>();
      if (value.contains("backend") && value["backend"].is_string())
        meta.distributedBackend = value["backend"].get<std::string>();
    } else {
      meta.other.emplace_back(key, std::move(raw));
    }
  }
  // Name the device columns as torch's key_averages() does.
  auto has = [&](std::string_view cat) { return trace.categories.find(cat) != StringTable::kMissing; };
  if (has("mtia_runtime") || has("mtia_ccp_events")) meta.deviceBackend = "MTIA";
  else if (has("xpu_runtime") || has("xpu_driver")) meta.deviceBackend = "XPU";
  else if (has("hpu_op")) meta.deviceBackend = "HPU";
  else if (has("privateuse1_runtime") || has("privateuse1_driver")) {
    meta.deviceBackend = "PRIVATEUSE1";
    for (const auto& d : meta.devices)  // a backend that names itself: "neuron" -> "NEURON"
      if (d.name.find("neuron") != std::string::npos || d.name.find("Neuron") != std::string::npos)
        meta.deviceBackend = "NEURON";
  }
}

Result<Trace> KinetoReader::read(ByteSource& source, const ProgressFn& progress) {
  JsonStreamHandlers handlers;
  handlers.onBatch = [this](const JsonBatch& batch) { return parseBatch(batch); };
  handlers.onMember = [this](std::string_view key, std::string_view raw) { onMember(key, raw); };
  const std::uint64_t total = source.fileSize();
  if (progress)
    handlers.onProgress = [&](std::uint64_t) { return progress(source.fileBytesRead(), total); };
  auto summary = streamJsonArray(source, "traceEvents", handlers);
  if (!summary) return summary.error();
  if (!summary->foundArray) {
    std::string keys;
    for (const auto& [k, v] : members_) keys += (keys.empty() ? "" : ", ") + k;
    return makeError(source.path(), "not a Kineto trace: no \"traceEvents\" array (top-level members: " +
                                        (keys.empty() ? std::string("none") : keys) + ")");
  }
  for (auto& [lane, open] : openBegins_)
    if (!open.empty())
      builder_.trace().problems.add(Severity::Warning, "'B' event without a matching 'E'", open.size(),
                                    std::string(builder_.trace().names.view(open.front().name)));
  Trace trace = builder_.finish();
  finishMetadata(trace);
  return trace;
}

}  // namespace

Result<Trace> readKinetoTrace(const std::string& path, const ProgressFn& progress) {
  auto source = ByteSource::open(path);
  if (!source) return source.error();
  KinetoReader reader(path);
  return reader.read(**source, progress);
}

}  // namespace sutra
