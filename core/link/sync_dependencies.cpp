// SPDX-License-Identifier: MIT
#include "link/sync_dependencies.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "model/event_args.h"

namespace sutra {

std::string_view syncKindName(SyncKind kind) {
  switch (kind) {
    case SyncKind::ContextSync:
      return "Context Sync";
    case SyncKind::StreamSync:
      return "Stream Sync";
    case SyncKind::EventSync:
      return "Event Sync";
    case SyncKind::StreamWaitEvent:
      return "Stream Wait Event";
    case SyncKind::BlockingCall:
      return "Blocking call";
  }
  return "Stream Sync";
}

namespace {

using StreamKey = std::pair<std::int64_t, std::int64_t>;  // (device, stream)

// A position in launch order: the launching call's start, then its event id (within one lane the
// id follows the lane's order, which settles equal starts in integer-microsecond traces).
using LaunchKey = std::pair<TimeNs, EventId>;

struct LaunchedOp {
  LaunchKey key;
  TimeNs deviceStart = 0;
  EventId op = kNoEvent;
};

std::string_view stripBackendPrefix(std::string_view name) {
  if (name.starts_with("cuda")) return name.substr(4);
  if (name.starts_with("hip")) return name.substr(3);
  return name;
}

std::optional<std::int64_t> intArg(const nlohmann::json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<std::int64_t>();
}

class SyncFinder {
 public:
  SyncFinder(const Trace& trace, const LaunchIndex& launches, ProblemLog* problems)
      : trace_(trace), launches_(launches), problems_(problems) {
    for (const auto& l : launches.launches()) {
      if (l.runtimeCall == kNoEvent) continue;
      const Event& op = trace.events[l.deviceOp];
      const Lane& lane = trace.lanes[op.lane];
      streams_[{lane.pidNumber, lane.tidNumber}].push_back(
          {keyOf(l.runtimeCall), op.start, l.deviceOp});
      const Event& call = trace.events[l.runtimeCall];
      threadLaunches_[call.lane].push_back({keyOf(l.runtimeCall), op.start, l.deviceOp});
    }
    auto byLaunch = [](const LaunchedOp& a, const LaunchedOp& b) {
      if (a.key != b.key) return a.key < b.key;
      if (a.deviceStart != b.deviceStart) return a.deviceStart < b.deviceStart;
      return a.op < b.op;
    };
    for (EventId i = 0; i < trace.events.size(); ++i) {
      const Event& e = trace.events[i];
      if ((e.klass == CategoryClass::Runtime || e.klass == CategoryClass::Driver) &&
          stripBackendPrefix(trace.name(e)) == "EventRecord")
        records_[e.lane].push_back(i);
    }
    for (auto& [key, ops] : streams_) std::sort(ops.begin(), ops.end(), byLaunch);
    for (auto& [lane, ops] : threadLaunches_) std::sort(ops.begin(), ops.end(), byLaunch);
  }

  std::vector<SyncDependency> run() {
    std::unordered_set<std::int64_t> coveredCalls;  // correlations that have a cuda_sync event
    for (EventId i = 0; i < trace_.events.size(); ++i) {
      if (trace_.events[i].klass != CategoryClass::Sync) continue;
      if (trace_.events[i].correlation != kNoId) coveredCalls.insert(trace_.events[i].correlation);
      fromSyncEvent(i);
    }
    for (EventId i = 0; i < trace_.events.size(); ++i) {
      const Event& e = trace_.events[i];
      if (e.klass != CategoryClass::Runtime && e.klass != CategoryClass::Driver) continue;
      if (e.correlation != kNoId && coveredCalls.count(e.correlation)) continue;
      fromBlockingCall(i);
    }
    std::sort(deps_.begin(), deps_.end(), [](const SyncDependency& a, const SyncDependency& b) {
      if (a.waiter != b.waiter) return a.waiter < b.waiter;
      if (a.waitedOn != b.waitedOn) return a.waitedOn < b.waitedOn;
      return a.kind < b.kind;
    });
    deps_.erase(std::unique(deps_.begin(), deps_.end(),
                            [](const SyncDependency& a, const SyncDependency& b) {
                              return a.waiter == b.waiter && a.waitedOn == b.waitedOn;
                            }),
                deps_.end());
    for (const auto& [what, entry] : unresolved_)
      if (problems_) problems_->add(Severity::Info, what, entry.first, entry.second);
    return std::move(deps_);
  }

 private:
  LaunchKey keyOf(EventId call) const { return {trace_.events[call].start, call}; }

  // The last op on `stream` launched before the call `before`.
  EventId lastLaunchedBefore(const StreamKey& stream, EventId before) const {
    auto it = streams_.find(stream);
    if (it == streams_.end()) return kNoEvent;
    const auto& ops = it->second;
    const LaunchKey key = keyOf(before);
    auto pos =
        std::lower_bound(ops.begin(), ops.end(), key,
                         [](const LaunchedOp& op, const LaunchKey& k) { return op.key < k; });
    return pos == ops.begin() ? kNoEvent : std::prev(pos)->op;
  }

  // The first op on `stream` launched after the call `after`.
  EventId firstLaunchedAfter(const StreamKey& stream, EventId after) const {
    auto it = streams_.find(stream);
    if (it == streams_.end()) return kNoEvent;
    const auto& ops = it->second;
    const LaunchKey key = keyOf(after);
    auto pos =
        std::upper_bound(ops.begin(), ops.end(), key,
                         [](const LaunchKey& k, const LaunchedOp& op) { return k < op.key; });
    return pos == ops.end() ? kNoEvent : pos->op;
  }

  // The stream that `thread` last launched to before `call`, if any.
  std::optional<StreamKey> lastStreamOfThread(EventId call) const {
    auto it = threadLaunches_.find(trace_.events[call].lane);
    if (it == threadLaunches_.end()) return std::nullopt;
    const auto& ops = it->second;
    auto pos =
        std::lower_bound(ops.begin(), ops.end(), keyOf(call),
                         [](const LaunchedOp& op, const LaunchKey& k) { return op.key < k; });
    if (pos == ops.begin()) return std::nullopt;
    const Lane& lane = trace_.lanes[trace_.events[std::prev(pos)->op].lane];
    return StreamKey{lane.pidNumber, lane.tidNumber};
  }

  void add(SyncKind kind, EventId waiter, EventId waitedOn, EventId syncEvent) {
    if (waiter == kNoEvent || waitedOn == kNoEvent) return;
    deps_.push_back({kind, waiter, waitedOn, syncEvent});
  }

  void unresolved(const std::string& what, EventId example) {
    auto& entry = unresolved_[what];
    if (entry.first++ == 0) {
      const Event& e = trace_.events[example];
      entry.second = std::string(trace_.name(e)) + " at " + std::to_string(e.start) + " ns";
      if (e.correlation != kNoId) entry.second += ", correlation " + std::to_string(e.correlation);
    }
  }

  void allStreamsOfDevice(std::int64_t device, SyncKind kind, EventId call, EventId syncEvent) {
    for (const auto& [key, ops] : streams_)
      if (key.first == device) add(kind, call, lastLaunchedBefore(key, call), syncEvent);
  }

  void fromSyncEvent(EventId id) {
    const Event& e = trace_.events[id];
    const std::string_view name = trace_.name(e);
    const EventId call =
        e.correlation != kNoId ? launches_.runtimeCallByCorrelation(e.correlation) : kNoEvent;
    if (call == kNoEvent) {
      unresolved("cuda_sync event with no runtime call of its correlation id", id);
      return;
    }
    const auto args = nlohmann::json::parse(trace_.argsJson(e), nullptr, false);
    const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json& a = args.is_object() ? args : empty;
    const Lane& lane = trace_.lanes[e.lane];
    const std::int64_t device = intArg(a, "device").value_or(lane.pidNumber);
    const std::int64_t stream = intArg(a, "stream").value_or(lane.tidNumber);

    if (name == "Context Sync") {
      allStreamsOfDevice(device, SyncKind::ContextSync, call, id);
    } else if (name == "Stream Sync") {
      add(SyncKind::StreamSync, call, lastLaunchedBefore({device, stream}, call), id);
    } else if (name == "Event Sync" || name == "Stream Wait Event") {
      const auto recordCorrelation = intArg(a, "wait_on_cuda_event_record_corr_id");
      const auto recordStream = intArg(a, "wait_on_stream");
      if (!recordCorrelation || *recordCorrelation <= 0 || !recordStream || *recordStream < 0) {
        unresolved("event wait on an event with no recorded cudaEventRecord", id);
        return;
      }
      const EventId record = launches_.runtimeCallByCorrelation(*recordCorrelation);
      if (record == kNoEvent) {
        unresolved("event wait whose cudaEventRecord is not in the trace", id);
        return;
      }
      const EventId source = lastLaunchedBefore({device, *recordStream}, record);
      if (source == kNoEvent) {
        unresolved("event wait on an event recorded before any launch on its stream", id);
        return;
      }
      if (name == "Event Sync") {
        add(SyncKind::EventSync, call, source, id);
      } else if (stream != *recordStream) {
        const EventId next = firstLaunchedAfter({device, stream}, call);
        if (next == kNoEvent) {
          unresolved("stream wait event followed by no launch on the waiting stream", id);
          return;
        }
        add(SyncKind::StreamWaitEvent, next, source, id);
      }
    } else {
      unresolved("cuda_sync event of an unknown kind", id);
    }
  }

  void fromBlockingCall(EventId call) {
    const std::string_view name = stripBackendPrefix(trace_.name(trace_.events[call]));
    if (name == "DeviceSynchronize") {
      if (auto stream = lastStreamOfThread(call)) {
        allStreamsOfDevice(stream->first, SyncKind::BlockingCall, call, kNoEvent);
      } else {
        // A thread that never launched: every device's streams.
        for (const auto& [key, ops] : streams_)
          add(SyncKind::BlockingCall, call, lastLaunchedBefore(key, call), kNoEvent);
      }
    } else if (name == "StreamSynchronize") {
      if (auto stream = lastStreamOfThread(call))
        add(SyncKind::BlockingCall, call, lastLaunchedBefore(*stream, call), kNoEvent);
    } else if (name == "EventSynchronize") {
      const EventId record = lastRecordOnThread(call);
      if (record == kNoEvent) return;
      if (auto stream = lastStreamOfThread(record))
        add(SyncKind::BlockingCall, call, lastLaunchedBefore(*stream, record), kNoEvent);
    } else if (name.starts_with("Memcpy") && name.find("Async") == std::string_view::npos) {
      const auto ops = launches_.deviceOpsOf(call);
      if (!ops.empty()) add(SyncKind::BlockingCall, call, ops.back(), kNoEvent);
    } else if (isBackendSynchronize(call)) {
      fromBackendSynchronize(call);
    }
  }

  // MTIA, PrivateUse1 and other non-CUDA backends: a runtime call whose name holds "synchronize"
  // ("synchronize", "synchronizeStream", "aclrtSynchronizeDevice" ...). Their device ops carry no
  // correlation to a launch, so what the call waited on is read from device time: on each stream
  // it covers, the last op that started before the call ended and ended by then (the call
  // returned after it), and that was not launched after the call began. A "stream" synchronize
  // covers the stream in its args (stream_id or stream), else every stream of the device (args
  // device, else every device). Event synchronizes are not covered. The device's own record of the
  // call (a runtime event on the device's process, as MTIA writes one) waits on nothing.
  bool isBackendSynchronize(EventId call) const {
    const Event& e = trace_.events[call];
    const std::string_view category = trace_.category(e);
    if (category.starts_with("cuda") || category.starts_with("hip")) return false;
    std::string name(trace_.name(e));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    return name.find("synchronize") != std::string::npos && name.find("event") == std::string::npos;
  }

  void fromBackendSynchronize(EventId call) {
    indexBackendStreams();
    const Event& e = trace_.events[call];
    if (devicePids_.count(trace_.lanes[e.lane].pidNumber)) return;
    const auto args = nlohmann::json::parse(trace_.argsJson(e), nullptr, false);
    const nlohmann::json empty = nlohmann::json::object();
    const nlohmann::json& a = args.is_object() ? args : empty;
    std::optional<std::int64_t> stream = integerArg(a, "stream_id");
    if (!stream) stream = integerArg(a, "stream");
    const std::optional<std::int64_t> device = integerArg(a, "device");
    std::string name(trace_.name(e));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    const bool oneStream = name.find("stream") != std::string::npos && stream;
    bool any = false;
    for (const auto& [key, ops] : backendStreams_) {
      if (oneStream ? key.second != *stream || (device && key.first != *device)
                    : device && key.first != *device)
        continue;
      // ops by start; the last one that started before the call ended, ended by then, and was
      // not launched after the call began (by another thread, while this one waited).
      auto waitable = [&](EventId op) {
        if (trace_.events[op].end() > e.end()) return false;
        const EventId launch = launches_.runtimeCallOf(op);
        return launch == kNoEvent || trace_.events[launch].start <= e.start;
      };
      auto pos = std::upper_bound(ops.begin(), ops.end(), e.end(), [&](TimeNs t, EventId op) {
        return t < trace_.events[op].start;
      });
      while (pos != ops.begin() && !waitable(*std::prev(pos))) --pos;
      if (pos == ops.begin()) continue;
      add(SyncKind::BlockingCall, call, *std::prev(pos), kNoEvent);
      any = true;
    }
    if (!any)
      unresolved("backend synchronize with no device op that ended before it returned", call);
  }

  // Device ops by (device, stream), the stream from their args ("stream") or their lane; built
  // once, the first time a backend synchronize is met.
  void indexBackendStreams() {
    if (backendIndexed_) return;
    backendIndexed_ = true;
    for (EventId i = 0; i < trace_.events.size(); ++i) {
      const Event& op = trace_.events[i];
      if (!isDeviceOp(op.klass)) continue;
      const Lane& lane = trace_.lanes[op.lane];
      devicePids_.insert(lane.pidNumber);
      std::int64_t stream = lane.tidNumber;
      const std::string_view text = trace_.argsJson(op);
      if (text.find("\"stream\"") != std::string_view::npos) {
        const auto args = nlohmann::json::parse(text, nullptr, false);
        if (args.is_object())
          if (auto s = integerArg(args, "stream")) stream = *s;
      }
      backendStreams_[{lane.pidNumber, stream}].push_back(i);
    }
    for (auto& [key, ops] : backendStreams_)
      std::stable_sort(ops.begin(), ops.end(), [&](EventId a, EventId b) {
        return trace_.events[a].start < trace_.events[b].start;
      });
  }

  // The latest cudaEventRecord/hipEventRecord on the call's thread before it.
  EventId lastRecordOnThread(EventId call) const {
    auto it = records_.find(trace_.events[call].lane);
    if (it == records_.end()) return kNoEvent;
    auto pos =
        std::lower_bound(it->second.begin(), it->second.end(), call);  // ids follow lane order
    return pos == it->second.begin() ? kNoEvent : *std::prev(pos);
  }

  const Trace& trace_;
  const LaunchIndex& launches_;
  ProblemLog* problems_;
  std::map<StreamKey, std::vector<LaunchedOp>> streams_;
  std::unordered_map<LaneId, std::vector<LaunchedOp>> threadLaunches_;
  std::unordered_map<LaneId, std::vector<EventId>> records_;  // event record calls per thread
  bool backendIndexed_ = false;
  std::map<StreamKey, std::vector<EventId>> backendStreams_;  // device ops by start, per stream
  std::unordered_set<std::int64_t> devicePids_;               // processes that hold device ops
  std::vector<SyncDependency> deps_;
  std::map<std::string, std::pair<std::uint64_t, std::string>> unresolved_;
};

}  // namespace

std::vector<SyncDependency> findSyncDependencies(const Trace& trace, const LaunchIndex& launches,
                                                 ProblemLog* problems) {
  return SyncFinder(trace, launches, problems).run();
}

}  // namespace sutra
