// SPDX-License-Identifier: MIT
// A run's events, flows, counters and launches as columns: one NumPy array per column over all the
// ranks asked for, filled with the GIL released and handed to NumPy without a copy; names as codes
// into one table shared by the ranks (pandas.Categorical.from_codes builds the names column from
// them without a Python string per event). Every event of one rank: the fields an event holds as
// they are (times, ids, depth, parent) are read-only arrays strided over the trace's own events
// (mapped from the trace cache for a big trace), not copies.
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "link/launch_index.h"
#include "numpy_array.h"
#include "run_handle.h"

namespace sutra::python {
namespace {

// Strings interned across ranks: code i is names[i].
class SharedNames {
 public:
  std::int32_t code(std::string_view text) {
    auto [it, added] = codes_.try_emplace(text, static_cast<std::int32_t>(names_.size()));
    if (added) names_.push_back(text);
    return it->second;
  }
  std::size_t size() const { return names_.size(); }
  nb::list list() const {
    nb::list out;
    for (std::string_view n : names_) out.append(nb::str(n.data(), n.size()));
    return out;
  }

 private:
  std::unordered_map<std::string_view, std::int32_t> codes_;
  std::vector<std::string_view> names_;
};

const Trace& traceOf(const RunHandle& h, std::size_t index) {
  if (index >= h.run.ranks.size()) throw nb::index_error("no such rank index");
  const auto& rank = h.run.ranks[index];
  if (!rank->trace) throw CoreError(rank->path() + ": a Chakra graph alone has no Kineto events");
  return *rank->trace;
}

// A rank's string table mapped onto the shared one, code by StringId.
std::vector<std::int32_t> mapNames(const StringTable& table, SharedNames& shared) {
  std::vector<std::int32_t> codes(table.size());
  for (std::size_t i = 0; i < table.size(); ++i)
    codes[i] = shared.code(table.view(static_cast<StringId>(i)));
  return codes;
}

// One field of every event of `trace`, where the events lie: a read-only array strided over them
// (a row of Event's bytes per value), which keeps the trace, and so its mapping, alive.
template <class T>
nb::object eventField(const std::shared_ptr<const Trace>& trace, std::size_t offset) {
  static_assert(sizeof(Event) % sizeof(T) == 0);
  auto* keeper = new std::shared_ptr<const Trace>(trace);
  nb::capsule owner(keeper,
                    [](void* p) noexcept { delete static_cast<std::shared_ptr<const Trace>*>(p); });
  const Column<Event>& events = trace->events;
  const auto* first =
      reinterpret_cast<const T*>(reinterpret_cast<const std::byte*>(events.data()) + offset);
  const std::size_t shape[1] = {events.size()};
  const std::int64_t strides[1] = {static_cast<std::int64_t>(sizeof(Event) / sizeof(T))};
  return nb::cast(nb::ndarray<nb::numpy, const T, nb::ndim<1>>(first, 1, shape, owner, strides));
}

// Category codes in the narrowest integer type pandas keeps for that many categories
// (pandas.core.dtypes.cast.coerce_indexer_dtype: int8 below 127, int16 below 32767, else int32),
// so that Categorical.from_codes adopts the array as it is: int32 codes would be copied into a
// narrower array while the int32 one is still held, 4 bytes an event a column at the peak.
class CodeColumn {
 public:
  void reserve(std::size_t categories, std::size_t rows) {
    width_ = categories < 127 ? 1 : categories < 32767 ? 2 : 4;
    if (width_ == 1) c8_.reserve(rows);
    if (width_ == 2) c16_.reserve(rows);
    if (width_ == 4) c32_.reserve(rows);
  }
  void push(std::int32_t code) {
    if (width_ == 1)
      c8_.push_back(static_cast<std::int8_t>(code));
    else if (width_ == 2)
      c16_.push_back(static_cast<std::int16_t>(code));
    else
      c32_.push_back(code);
  }
  nb::object toNumpy() && {
    if (width_ == 1) return nb::cast(python::toNumpy(std::move(c8_)));
    if (width_ == 2) return nb::cast(python::toNumpy(std::move(c16_)));
    return nb::cast(python::toNumpy(std::move(c32_)));
  }

 private:
  int width_ = 4;
  std::vector<std::int8_t> c8_;
  std::vector<std::int16_t> c16_;
  std::vector<std::int32_t> c32_;
};

struct EventColumns {
  std::vector<std::int32_t> rank;
  CodeColumn name, category, pid, tid;
  std::vector<std::uint32_t> id, parent;  // parent: kNoEvent where none
  std::vector<std::int64_t> ts, dur, stream, externalId, correlation;  // ids: kNoId where none
  std::vector<std::int8_t> kind;  // CategoryClass: the codes of the kind names (a few dozen)
  std::vector<std::uint16_t> depth;
};

// A rank's names, categories and lanes as codes into the tables shared by the ranks.
struct RankCodes {
  std::vector<std::int32_t> name, category, lanePid, laneTid;
};

// The events frame's columns, in its order; `events` builds the ones asked for.
constexpr const char* kEventColumns[] = {
    "rank", "id",  "ts_ns",  "dur_ns", "name",   "category",    "kind",
    "pid",  "tid", "stream", "depth",  "parent", "external_id", "correlation"};

// Which of kEventColumns `asked` names (every one where it is empty); an unknown name is an error
// that lists the known ones.
std::unordered_map<std::string_view, bool> wantedColumns(const std::vector<std::string>& asked) {
  std::unordered_map<std::string_view, bool> wanted;
  for (const char* column : kEventColumns) wanted[column] = asked.empty();
  for (const std::string& column : asked) {
    auto it = wanted.find(column);
    if (it == wanted.end()) {
      std::string known;
      for (const char* k : kEventColumns) known += std::string(known.empty() ? "" : ", ") + k;
      throw nb::value_error(
          ("no event column \"" + column + "\" (the columns: " + known + ")").c_str());
    }
    it->second = true;
  }
  return wanted;
}

nb::dict events(const RunHandle& h, const std::vector<std::size_t>& ranks,
                const std::vector<int>& kinds, const std::vector<std::string>& columns) {
  for (std::size_t index : ranks) traceOf(h, index);  // fail before the work
  // Only the columns asked for are made: on a trace of tens of millions of events each is hundreds
  // of megabytes, and a groupby over two of them should not pay for fourteen.
  const auto wanted = wantedColumns(columns);
  const auto want = [&](const char* column) { return wanted.at(column); };
  const bool wantRank = want("rank"), wantId = want("id"), wantName = want("name"),
             wantCategory = want("category"), wantKind = want("kind"), wantPid = want("pid"),
             wantTid = want("tid"), wantStream = want("stream");
  // Every event of one rank: the fields kept as they are read where they lie (eventField).
  const bool inPlace = ranks.size() == 1 && kinds.empty() && !traceOf(h, ranks[0]).events.empty();
  EventColumns c;
  SharedNames names, categories, pids, tids;
  {
    nb::gil_scoped_release release;
    bool kindWanted[256] = {};
    for (int k : kinds) kindWanted[static_cast<std::uint8_t>(k)] = true;
    auto wanted = [&](const Event& e) {
      return kinds.empty() || kindWanted[static_cast<std::uint8_t>(e.klass)];
    };
    // First the shared tables (their sizes choose the code widths) and the exact row count, so
    // every column is allocated once at its final size.
    std::vector<RankCodes> codes;
    std::size_t total = 0;
    for (std::size_t index : ranks) {
      const Trace& trace = traceOf(h, index);
      RankCodes& rc = codes.emplace_back();
      rc.name = mapNames(trace.names, names);
      rc.category = mapNames(trace.categories, categories);
      for (const Lane& lane : trace.lanes) {
        rc.lanePid.push_back(pids.code(lane.pid));
        rc.laneTid.push_back(tids.code(lane.tid));
      }
      if (kinds.empty())
        total += trace.events.size();
      else
        for (const Event& e : trace.events) total += wanted(e) ? 1 : 0;
    }
    if (wantName) c.name.reserve(names.size(), total);
    if (wantCategory) c.category.reserve(categories.size(), total);
    if (wantPid) c.pid.reserve(pids.size(), total);
    if (wantTid) c.tid.reserve(tids.size(), total);
    if (wantRank) c.rank.reserve(total);
    if (wantStream) c.stream.reserve(total);
    if (wantId) c.id.reserve(total);
    if (wantKind) c.kind.reserve(total);
    // Copied only where they cannot be read where they lie.
    const bool copyTs = !inPlace && want("ts_ns"), copyDur = !inPlace && want("dur_ns"),
               copyDepth = !inPlace && want("depth"), copyParent = !inPlace && want("parent"),
               copyExternalId = !inPlace && want("external_id"),
               copyCorrelation = !inPlace && want("correlation");
    if (copyTs) c.ts.reserve(total);
    if (copyDur) c.dur.reserve(total);
    if (copyDepth) c.depth.reserve(total);
    if (copyParent) c.parent.reserve(total);
    if (copyExternalId) c.externalId.reserve(total);
    if (copyCorrelation) c.correlation.reserve(total);
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      const Trace& trace = traceOf(h, ranks[r]);
      const int rank = h.run.ranks[ranks[r]]->rank;
      const RankCodes& rc = codes[r];
      for (std::size_t i = 0; i < trace.events.size(); ++i) {
        const Event& e = trace.events[i];
        if (!wanted(e)) continue;
        const Lane& lane = trace.lanes[e.lane];
        if (wantRank) c.rank.push_back(rank);
        if (wantId) c.id.push_back(static_cast<std::uint32_t>(i));
        if (wantName) c.name.push(rc.name[e.name]);
        if (wantCategory) c.category.push(rc.category[e.category]);
        if (wantKind) c.kind.push_back(static_cast<std::int8_t>(e.klass));
        if (wantPid) c.pid.push(rc.lanePid[e.lane]);
        if (wantTid) c.tid.push(rc.laneTid[e.lane]);
        if (wantStream) c.stream.push_back(lane.kind == LaneKind::DeviceStream ? lane.stream : -1);
        if (copyTs) c.ts.push_back(e.start);
        if (copyDur) c.dur.push_back(e.dur);
        if (copyDepth) c.depth.push_back(e.depth);
        if (copyParent) c.parent.push_back(e.parent);
        if (copyExternalId) c.externalId.push_back(e.externalId);
        if (copyCorrelation) c.correlation.push_back(e.correlation);
      }
    }
  }
  nb::dict out;
  if (wantRank) out["rank"] = toNumpy(std::move(c.rank));
  if (wantId) out["id"] = toNumpy(std::move(c.id));
  // A field an event holds: read where the events lie (one rank, every event), else the copy
  // made above.
  const std::shared_ptr<const Trace>* trace = inPlace ? &h.run.ranks[ranks[0]]->trace : nullptr;
  const auto field = [&]<class T>(const char* column, std::size_t offset, std::vector<T>& copy) {
    if (want(column))
      out[column] = trace ? eventField<T>(*trace, offset) : nb::cast(toNumpy(std::move(copy)));
  };
  field("ts_ns", offsetof(Event, start), c.ts);
  field("dur_ns", offsetof(Event, dur), c.dur);
  field("depth", offsetof(Event, depth), c.depth);
  field("parent", offsetof(Event, parent), c.parent);
  field("external_id", offsetof(Event, externalId), c.externalId);
  field("correlation", offsetof(Event, correlation), c.correlation);
  if (wantName) out["name"] = std::move(c.name).toNumpy();
  if (wantCategory) out["category"] = std::move(c.category).toNumpy();
  if (wantKind) out["kind"] = toNumpy(std::move(c.kind));
  if (wantPid) out["pid"] = std::move(c.pid).toNumpy();
  if (wantTid) out["tid"] = std::move(c.tid).toNumpy();
  if (wantStream) out["stream"] = toNumpy(std::move(c.stream));
  out["no_id"] = kNoId;        // external_id and correlation where the event has none
  out["no_event"] = kNoEvent;  // parent where the event has none
  out["names"] = names.list();
  out["categories"] = categories.list();
  out["pids"] = pids.list();
  out["tids"] = tids.list();
  return out;
}

nb::dict flows(const RunHandle& h, const std::vector<std::size_t>& ranks) {
  std::vector<std::int32_t> rank, category;
  std::vector<std::int64_t> id, from, to, fromTs, toTs;
  SharedNames categories;
  {
    nb::gil_scoped_release release;
    for (std::size_t index : ranks) {
      const Trace& trace = traceOf(h, index);
      const auto categoryCodes = mapNames(trace.categories, categories);
      for (const Flow& f : trace.flows) {
        rank.push_back(h.run.ranks[index]->rank);
        id.push_back(f.id);
        category.push_back(categoryCodes[f.category]);
        from.push_back(f.from == kNoEvent ? -1 : std::int64_t(f.from));
        to.push_back(f.to == kNoEvent ? -1 : std::int64_t(f.to));
        fromTs.push_back(f.from == kNoEvent ? -1 : trace.events[f.from].start);
        toTs.push_back(f.to == kNoEvent ? -1 : trace.events[f.to].start);
      }
    }
  }
  nb::dict out;
  out["rank"] = toNumpy(std::move(rank));
  out["flow_id"] = toNumpy(std::move(id));
  out["category"] = toNumpy(std::move(category));
  out["from_id"] = toNumpy(std::move(from));
  out["to_id"] = toNumpy(std::move(to));
  out["from_ts_ns"] = toNumpy(std::move(fromTs));
  out["to_ts_ns"] = toNumpy(std::move(toTs));
  out["categories"] = categories.list();
  return out;
}

nb::dict counters(const RunHandle& h, const std::vector<std::size_t>& ranks) {
  std::vector<std::int32_t> rank, name, pid;
  std::vector<std::int64_t> ts;
  std::vector<double> value;
  SharedNames names, pids;
  {
    nb::gil_scoped_release release;
    for (std::size_t index : ranks) {
      const Trace& trace = traceOf(h, index);
      for (const CounterSeries& series : trace.counters) {
        const std::int32_t nameCode = names.code(series.name);
        const std::int32_t pidCode = pids.code(series.pid);
        for (const auto& [t, v] : series.samples) {
          rank.push_back(h.run.ranks[index]->rank);
          name.push_back(nameCode);
          pid.push_back(pidCode);
          ts.push_back(t);
          value.push_back(v);
        }
      }
    }
  }
  nb::dict out;
  out["rank"] = toNumpy(std::move(rank));
  out["name"] = toNumpy(std::move(name));
  out["pid"] = toNumpy(std::move(pid));
  out["ts_ns"] = toNumpy(std::move(ts));
  out["value"] = toNumpy(std::move(value));
  out["names"] = names.list();
  out["pids"] = pids.list();
  return out;
}

// Every device op with the runtime call that launched it and the framework op around that call.
nb::dict launches(const RunHandle& h, const std::vector<std::size_t>& ranks) {
  std::vector<std::int32_t> rank, opName, callName, launcherName;
  std::vector<std::int64_t> op, opTs, opDur, call, callTs, launcher;
  SharedNames names;
  {
    nb::gil_scoped_release release;
    for (std::size_t index : ranks) {
      const Trace& trace = traceOf(h, index);
      const auto& runRank = *h.run.ranks[index];
      if (!runRank.launches()) throw CoreError(runRank.path() + ": not linked (open until 'link')");
      const auto nameCodes = mapNames(trace.names, names);
      for (const DeviceLaunch& l : runRank.launches()->launches()) {
        const Event& e = trace.events[l.deviceOp];
        rank.push_back(runRank.rank);
        op.push_back(l.deviceOp);
        opName.push_back(nameCodes[e.name]);
        opTs.push_back(e.start);
        opDur.push_back(e.dur);
        const bool called = l.runtimeCall != kNoEvent;
        call.push_back(called ? std::int64_t(l.runtimeCall) : -1);
        callName.push_back(called ? nameCodes[trace.events[l.runtimeCall].name] : -1);
        callTs.push_back(called ? trace.events[l.runtimeCall].start : -1);
        const bool launched = l.launcher != kNoEvent;
        launcher.push_back(launched ? std::int64_t(l.launcher) : -1);
        launcherName.push_back(launched ? nameCodes[trace.events[l.launcher].name] : -1);
      }
    }
  }
  nb::dict out;
  out["rank"] = toNumpy(std::move(rank));
  out["device_op_id"] = toNumpy(std::move(op));
  out["device_op"] = toNumpy(std::move(opName));
  out["ts_ns"] = toNumpy(std::move(opTs));
  out["dur_ns"] = toNumpy(std::move(opDur));
  out["runtime_call_id"] = toNumpy(std::move(call));
  out["runtime_call"] = toNumpy(std::move(callName));
  out["runtime_call_ts_ns"] = toNumpy(std::move(callTs));
  out["launcher_id"] = toNumpy(std::move(launcher));
  out["launcher"] = toNumpy(std::move(launcherName));
  out["names"] = names.list();
  return out;
}

}  // namespace

void bindColumns(nb::module_& m) {
  m.def("event_columns", &events, nb::arg("run"), nb::arg("ranks"), nb::arg("kinds"),
        nb::arg("columns") = std::vector<std::string>{},
        "The events of the ranks (indexes into the run's ranks) whose kind is one of `kinds` "
        "(CategoryClass values; all where empty), as NumPy columns: those named in `columns` "
        "(all where empty).");
  m.def("flow_columns", &flows, nb::arg("run"), nb::arg("ranks"));
  m.def("counter_columns", &counters, nb::arg("run"), nb::arg("ranks"));
  m.def("launch_columns", &launches, nb::arg("run"), nb::arg("ranks"));
  nb::list kinds;
  for (int k = 0; k <= static_cast<int>(CategoryClass::TraceSpan); ++k)
    kinds.append(std::string(categoryClassName(static_cast<CategoryClass>(k))));
  m.attr("KIND_NAMES") = kinds;
}

}  // namespace sutra::python
