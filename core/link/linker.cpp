// SPDX-License-Identifier: MIT
// linkTraces: ET + Kineto -> LinkedTrace. See linked_trace.h for what comes out; the steps are:
//  1. match ET nodes to Kineto CPU ops, by rf_id where Kineto records "Record function id", else
//     by aligning each ET thread's op names (pre-order = ET id order) with the op names of its
//     Kineto thread inside a candidate iteration window, and taking the window with fewest edits;
//  2. give each device op the linked CPU op that encloses its launch call (LaunchIndex);
//  3. times, exclusive durations, inter-thread and synchronization dependencies.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "link/launch_index.h"
#include "link/linked_trace.h"
#include "link/sequence_alignment.h"
#include "link/sync_dependencies.h"

namespace sutra {
namespace {

constexpr std::uint32_t kUnmatched = UINT32_MAX;

struct Window {
  TimeNs start = 0;
  TimeNs end = 0;  // exclusive
  EventId annotation = kNoEvent;
};

std::string nodeExample(const EtNode& n) {
  return "ET node " + std::to_string(n.id) + " '" + std::string(n.name) + "' on ET thread " +
         std::to_string(n.tid);
}

class Linker {
 public:
  Linker(std::shared_ptr<const EtTrace> et, std::shared_ptr<const Trace> kineto,
         const LinkOptions& options)
      : et_(std::move(et)),
        kineto_(std::move(kineto)),
        k_(*kineto_),
        options_(options),
        launches_(options.launches ? *options.launches : ownLaunches_) {}

  Result<LinkedTrace> run() {
    out_.kineto = kineto_;
    out_.et = et_;
    out_.rank = options_.rank;
    if (!options_.launches) ownLaunches_ = LaunchIndex::build(k_, &out_.problems);
    etHasAnnotations_ =
        et_ && std::any_of(et_->nodes.begin(), et_->nodes.end(),
                           [&](const EtNode& n) { return isAnnotationName(n.name); });
    findAnnotationWindows();
    if (auto status = matchCpuOps(); !status.ok()) return status.error();
    buildOps();
    computeTimes();
    computeInterThreadDeps();
    computeSyncDeps();
    finishReport();
    if (!options_.force)
      if (auto status = checkSameRun(); !status.ok()) return status.error();
    return std::move(out_);
  }

 private:
  // ---------------------------------------------------------------- Kineto side
  bool isAnnotationName(std::string_view name) const {
    const std::string& a = options_.annotation;
    return !a.empty() && name.starts_with(a) && (name.size() == a.size() || name[a.size()] == '#');
  }

  // A Kineto event that can stand for an ET node: cpu_op and user_annotation (the ET records every
  // RecordFunction, both kinds). The iteration annotation counts only where the ET has it too.
  bool linkable(const Event& e) const {
    if (e.klass != CategoryClass::CpuOp && e.klass != CategoryClass::UserAnnotation) return false;
    return etHasAnnotations_ || !isAnnotationName(k_.name(e));
  }

  EventId linkableParent(EventId id) const {
    for (EventId p = k_.events[id].parent; p != kNoEvent; p = k_.events[p].parent)
      if (linkable(k_.events[p])) return p;
    return kNoEvent;
  }

  void findAnnotationWindows() {
    for (EventId i = 0; i < k_.events.size(); ++i) {
      const Event& e = k_.events[i];
      if (isFramework(e.klass) && isAnnotationName(k_.name(e)))
        annotationWindows_.push_back({e.start, e.end(), i});
    }
    std::sort(annotationWindows_.begin(), annotationWindows_.end(),
              [](const Window& a, const Window& b) { return a.start < b.start; });
  }

  // The window the options select (step or instance), if any; an Error if they name one that is
  // not there.
  Result<std::optional<Window>> selectedWindow() const {
    const std::string where = k_.path.empty() ? std::string("Kineto trace") : k_.path;
    if (options_.step) {
      const std::string wanted = options_.annotation + "#" + std::to_string(*options_.step);
      for (const auto& w : annotationWindows_)
        if (k_.name(k_.events[w.annotation]) == wanted) return std::optional<Window>(w);
      return makeError(where, "no " + wanted + " annotation (the trace has " +
                                  std::to_string(annotationWindows_.size()) + " " +
                                  options_.annotation + " windows)");
    }
    if (options_.instance) {
      if (*options_.instance < 0 ||
          static_cast<std::size_t>(*options_.instance) >= annotationWindows_.size())
        return makeError(where, "no instance " + std::to_string(*options_.instance) + " of " +
                                    options_.annotation + " (the trace has " +
                                    std::to_string(annotationWindows_.size()) + ")");
      return std::optional<Window>(
          annotationWindows_[static_cast<std::size_t>(*options_.instance)]);
    }
    return std::optional<Window>();
  }

  // ---------------------------------------------------------------- matching
  Status matchCpuOps() {
    if (!et_) return matchKinetoOnly();
    etToEvent_.assign(et_->nodes.size(), kNoEvent);
    for (std::uint32_t i = 0; i < et_->nodes.size(); ++i) {
      const EtNode& n = et_->nodes[i];
      if (n.isOperator()) etThreads_[n.tid].push_back(i);
    }
    for (auto& [tid, nodes] : etThreads_)
      std::sort(nodes.begin(), nodes.end(),
                [&](auto a, auto b) { return et_->nodes[a].id < et_->nodes[b].id; });
    auto selected = selectedWindow();
    if (!selected.ok()) return selected.error();
    if (tryRfIdMatching(*selected)) return Ok{};
    return matchByAlignment(*selected);
  }

  Status matchKinetoOnly() {
    out_.report.matching = "kineto_only";
    auto selected = selectedWindow();
    if (!selected.ok()) return selected.error();
    window_ = selected->value_or(Window{k_.startNs, k_.endNs + 1, kNoEvent});
    for (EventId i = 0; i < k_.events.size(); ++i) {
      const Event& e = k_.events[i];
      if (k_.lanes[e.lane].kind != LaneKind::HostThread || !linkable(e)) continue;
      if (e.start < window_.start || e.start >= window_.end) continue;
      kinetoOnlyOps_.push_back(i);
    }
    return Ok{};
  }

  bool tryRfIdMatching(const std::optional<Window>& selected) {
    std::unordered_map<std::int64_t, EventId> byRfId;
    for (EventId i = 0; i < k_.events.size(); ++i) {
      const Event& e = k_.events[i];
      if (e.recordFunctionId != kNoId && e.recordFunctionId > 0 &&
          (e.klass == CategoryClass::CpuOp || e.klass == CategoryClass::UserAnnotation))
        byRfId.emplace(e.recordFunctionId, i);
    }
    if (byRfId.empty()) return false;
    std::size_t found = 0;
    for (const auto& n : et_->nodes)
      if (n.isOperator() && n.rfId > 0 && byRfId.count(n.rfId)) ++found;
    if (found == 0) {
      out_.problems.add(Severity::Warning,
                        "Kineto records Record function ids but none equals an ET rf_id: linked by "
                        "alignment instead (ET and Kineto recorded in different processes?)",
                        k_.path);
      return false;
    }
    out_.report.matching = "rf_id";
    TimeNs lo = INT64_MAX, hi = INT64_MIN;
    std::map<std::int64_t, std::map<LaneId, std::size_t>> votes;
    for (std::uint32_t i = 0; i < et_->nodes.size(); ++i) {
      const EtNode& n = et_->nodes[i];
      if (!n.isOperator()) continue;
      auto it = n.rfId > 0 ? byRfId.find(n.rfId) : byRfId.end();
      if (it == byRfId.end()) {
        unlinked("ET op whose rf_id is not in the Kineto trace", nodeExample(n));
        continue;
      }
      const Event& e = k_.events[it->second];
      if (selected && (e.start < selected->start || e.start >= selected->end)) {
        unlinked("ET op outside the selected window", nodeExample(n));
        continue;
      }
      etToEvent_[i] = it->second;
      lo = std::min(lo, e.start);
      hi = std::max(hi, e.end());
      ++votes[n.tid][e.lane];
    }
    for (const auto& [tid, lanes] : votes) {
      auto best = std::max_element(lanes.begin(), lanes.end(), [](const auto& a, const auto& b) {
        return a.second < b.second;
      });
      threadLane_[tid] = best->first;
    }
    window_ = selected ? *selected : Window{lo, hi + 1, kNoEvent};
    if (lo == INT64_MAX) window_ = selected ? *selected : Window{k_.startNs, k_.startNs, kNoEvent};
    return true;
  }

  // Maps each ET thread to the Kineto host thread whose op-name histogram is closest (cosine).
  void mapThreads() {
    std::unordered_map<LaneId, std::unordered_map<StringId, double>> laneCounts;
    for (const auto& e : k_.events)
      if (linkable(e) && k_.lanes[e.lane].kind == LaneKind::HostThread)
        laneCounts[e.lane][e.name] += 1;
    struct Score {
      double score;
      std::int64_t tid;
      LaneId lane;
    };
    std::vector<Score> scores;
    for (const auto& [tid, nodes] : etThreads_) {
      std::unordered_map<StringId, double> counts;
      double etNorm = 0;
      for (auto i : nodes) counts[k_.names.find(et_->nodes[i].name)] += 1;
      for (const auto& [name, c] : counts) etNorm += c * c;
      for (const auto& [lane, lc] : laneCounts) {
        double dot = 0, laneNorm = 0;
        for (const auto& [name, c] : lc) {
          laneNorm += c * c;
          if (auto it = counts.find(name); it != counts.end()) dot += c * it->second;
        }
        if (dot > 0) scores.push_back({dot / std::sqrt(etNorm * laneNorm), tid, lane});
      }
    }
    std::sort(scores.begin(), scores.end(), [](const Score& a, const Score& b) {
      if (a.score != b.score) return a.score > b.score;
      if (a.tid != b.tid) return a.tid < b.tid;
      return a.lane < b.lane;
    });
    std::set<LaneId> usedLanes;
    for (const auto& s : scores) {
      if (threadLane_.count(s.tid) || usedLanes.count(s.lane)) continue;
      threadLane_[s.tid] = s.lane;
      usedLanes.insert(s.lane);
    }
  }

  // The linkable events of `lane` starting in the window, in lane order.
  std::vector<EventId> laneOpsIn(LaneId lane, const Window& w) const {
    std::vector<EventId> ops;
    const auto& l = k_.lanes[lane];
    for (EventId i = k_.lowerBound(lane, w.start); i < l.endEvent && k_.events[i].start < w.end;
         ++i)
      if (linkable(k_.events[i])) ops.push_back(i);
    return ops;
  }

  std::vector<std::uint32_t> etNames(const std::vector<std::uint32_t>& nodes) const {
    std::vector<std::uint32_t> names;
    names.reserve(nodes.size());
    for (auto i : nodes) names.push_back(k_.names.find(et_->nodes[i].name));
    return names;
  }
  std::vector<std::uint32_t> kinetoNames(const std::vector<EventId>& ops) const {
    std::vector<std::uint32_t> names;
    names.reserve(ops.size());
    for (auto i : ops) names.push_back(k_.events[i].name);
    return names;
  }

  // Candidate iteration windows when the trace has no annotation windows: the places where the
  // anchor ET thread's top-level op sequence occurs among its Kineto thread's top-level ops
  // (exactly; else with the fewest edits), each running to the next top-level op after it.
  std::vector<Window> derivedWindows() {
    std::int64_t anchorTid = 0;
    std::int64_t firstId = INT64_MAX;
    for (const auto& [tid, nodes] : etThreads_)
      if (threadLane_.count(tid) && !nodes.empty() && et_->nodes[nodes.front()].id < firstId) {
        firstId = et_->nodes[nodes.front()].id;
        anchorTid = tid;
      }
    if (firstId == INT64_MAX) return {};
    std::vector<std::uint32_t> topNodes;
    for (auto i : etThreads_[anchorTid]) {
      const EtNode* parent = et_->find(et_->nodes[i].parent);
      if (!parent || !parent->isOperator()) topNodes.push_back(i);
    }
    const auto a = etNames(topNodes);
    const LaneId lane = threadLane_[anchorTid];
    std::vector<EventId> tops;
    const auto& l = k_.lanes[lane];
    for (EventId i = l.firstEvent; i < l.endEvent; ++i)
      if (linkable(k_.events[i]) && linkableParent(i) == kNoEvent) tops.push_back(i);
    const auto b = kinetoNames(tops);
    const std::size_t m = a.size();
    std::vector<Window> windows;
    auto windowAt = [&](std::size_t first, std::size_t count) {
      const TimeNs start = k_.events[tops[first]].start;
      const TimeNs end =
          first + count < tops.size() ? k_.events[tops[first + count]].start : k_.endNs + 1;
      return Window{start, end, kNoEvent};
    };
    if (m == 0 || b.size() < m) {
      if (!b.empty()) windows.push_back(windowAt(0, b.size()));
      return windows;
    }
    for (std::size_t i = 0; i + m <= b.size();) {
      if (std::equal(a.begin(), a.end(), b.begin() + static_cast<std::ptrdiff_t>(i))) {
        windows.push_back(windowAt(i, m));
        i += m;
      } else {
        ++i;
      }
    }
    if (!windows.empty()) return windows;
    // No exact occurrence: the starts whose next m top-level ops are fewest edits away.
    std::size_t best = SIZE_MAX;
    std::vector<std::size_t> bestStarts;
    const bool anyFirst = std::find(b.begin(), b.end(), a.front()) != b.end();
    for (std::size_t i = 0; i < b.size(); ++i) {
      if (anyFirst && b[i] != a.front()) continue;
      const std::size_t len = std::min(m, b.size() - i);
      const auto edits = alignSequences(a, std::span<const std::uint32_t>(b).subspan(i, len)).edits;
      if (edits < best) best = edits, bestStarts.clear();
      if (edits == best && (bestStarts.empty() || i >= bestStarts.back() + m))
        bestStarts.push_back(i);
    }
    for (auto i : bestStarts) windows.push_back(windowAt(i, std::min(m, b.size() - i)));
    return windows;
  }

  Status matchByAlignment(const std::optional<Window>& selected) {
    out_.report.matching = "alignment";
    mapThreads();
    const std::string where = k_.path.empty() ? std::string("Kineto trace") : k_.path;
    if (threadLane_.empty())
      return makeError(where,
                       "no CPU op of the Kineto trace shares a name with the execution trace " +
                           et_->path + ": they are not from the same program");
    std::vector<Window> candidates;
    if (selected)
      candidates.push_back(*selected);
    else if (!annotationWindows_.empty())
      candidates = annotationWindows_;
    else
      candidates = derivedWindows();
    if (candidates.empty()) candidates.push_back({k_.startNs, k_.endNs + 1, kNoEvent});

    std::vector<std::size_t> edits(candidates.size(), 0);
    for (std::size_t c = 0; c < candidates.size(); ++c)
      for (const auto& [tid, nodes] : etThreads_) {
        auto lane = threadLane_.find(tid);
        if (lane == threadLane_.end()) continue;
        edits[c] +=
            alignSequences(etNames(nodes), kinetoNames(laneOpsIn(lane->second, candidates[c])))
                .edits;
      }
    std::size_t chosen = 0;
    if (options_.iteration && !selected) {
      if (*options_.iteration < 0 ||
          static_cast<std::size_t>(*options_.iteration) >= candidates.size())
        return makeError(where, "no iteration " + std::to_string(*options_.iteration) +
                                    " (the trace has " + std::to_string(candidates.size()) +
                                    " candidate iterations)");
      chosen = static_cast<std::size_t>(*options_.iteration);
    } else {
      chosen =
          static_cast<std::size_t>(std::min_element(edits.begin(), edits.end()) - edits.begin());
    }
    const std::size_t bestEdits = *std::min_element(edits.begin(), edits.end());
    out_.report.candidateIterations =
        static_cast<int>(std::count(edits.begin(), edits.end(), bestEdits));
    out_.report.iteration = static_cast<int>(chosen);
    out_.report.iterationCount = static_cast<int>(candidates.size());
    out_.report.iterationEdits = edits[chosen];
    window_ = candidates[chosen];

    for (const auto& [tid, nodes] : etThreads_) {
      auto lane = threadLane_.find(tid);
      if (lane == threadLane_.end()) {
        for (auto i : nodes)
          unlinked("ET op on an ET thread matched to no Kineto thread", nodeExample(et_->nodes[i]));
        continue;
      }
      const auto ops = laneOpsIn(lane->second, window_);
      const auto a = etNames(nodes);
      auto alignment = alignSequences(a, kinetoNames(ops));
      if (!alignment.minimal)
        out_.problems.add(Severity::Warning,
                          "ET and Kineto op sequences too different for an exact alignment: "
                          "matched greedily",
                          "ET thread " + std::to_string(tid));
      for (const auto& [ai, bi] : alignment.matches) etToEvent_[nodes[ai]] = ops[bi];
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (etToEvent_[nodes[i]] != kNoEvent) continue;
        const EtNode& n = et_->nodes[nodes[i]];
        if (a[i] == StringTable::kMissing)
          unlinked("ET op whose name the Kineto trace never records", nodeExample(n));
        else
          unlinked("ET op left unmatched by the alignment with the chosen iteration",
                   nodeExample(n));
      }
    }
    return Ok{};
  }

  // ---------------------------------------------------------------- ops and ids
  // The linked CPU op a Kineto event belongs to: itself if linked, else its nearest linked
  // framework ancestor.
  std::uint32_t linkedOpEnclosing(EventId id) const {
    for (EventId p = id; p != kNoEvent; p = k_.events[p].parent)
      if (auto it = eventToOp_.find(p); it != eventToOp_.end()) return it->second;
    return kUnmatched;
  }

  void buildOps() {
    // The CPU ops in id order, as (et node index or kinetoOnly index).
    std::vector<std::uint32_t> cpuOrder;
    if (et_) {
      cpuOrder.resize(et_->nodes.size());
      for (std::uint32_t i = 0; i < cpuOrder.size(); ++i) cpuOrder[i] = i;
      std::sort(cpuOrder.begin(), cpuOrder.end(),
                [&](auto a, auto b) { return et_->nodes[a].id < et_->nodes[b].id; });
    } else {
      cpuOrder.resize(kinetoOnlyOps_.size());
      for (std::uint32_t i = 0; i < cpuOrder.size(); ++i) cpuOrder[i] = i;
    }
    auto cpuEvent = [&](std::uint32_t k) { return et_ ? etToEvent_[k] : kinetoOnlyOps_[k]; };

    // Temporary: CPU position -> its device launches.
    std::unordered_map<EventId, std::uint32_t> eventToCpu;  // matched event -> position in cpuOrder
    for (std::uint32_t pos = 0; pos < cpuOrder.size(); ++pos)
      if (EventId e = cpuEvent(cpuOrder[pos]); e != kNoEvent) eventToCpu.emplace(e, pos);
    std::vector<std::vector<EventId>> launched(cpuOrder.size());
    std::vector<std::pair<EventId, EventId>> deviceCall;  // (device op, call)
    for (const auto& l : launches_.launches()) {
      const bool inWindow = l.runtimeCall != kNoEvent &&
                            k_.events[l.runtimeCall].start >= window_.start &&
                            k_.events[l.runtimeCall].start < window_.end;
      if (l.runtimeCall == kNoEvent) {
        const Event& d = k_.events[l.deviceOp];
        if (d.start >= window_.start && d.start < window_.end) {
          ++out_.report.deviceOps;
          unlinked("device op with no launch call in the trace",
                   std::string(k_.name(d)) + " at " + std::to_string(d.start) + " ns");
        }
        continue;
      }
      std::uint32_t pos = kUnmatched;
      for (EventId p = l.runtimeCall; p != kNoEvent && l.runtimeCall != kNoEvent;
           p = k_.events[p].parent)
        if (auto it = eventToCpu.find(p); it != eventToCpu.end()) {
          pos = it->second;
          break;
        }
      if (pos == kUnmatched) {
        if (inWindow) {
          ++out_.report.deviceOps;
          const Event& d = k_.events[l.deviceOp];
          unlinked(
              l.launcher == kNoEvent ? "device op whose launch call no framework op encloses"
                                     : "device op launched by a CPU op not in the ET",
              std::string(k_.name(d)) + " at " + std::to_string(d.start) + " ns launched by " +
                  std::string(k_.name(k_.events[l.runtimeCall])) +
                  (l.launcher == kNoEvent ? std::string()
                                          : " in " + std::string(k_.name(k_.events[l.launcher]))));
        }
        continue;
      }
      ++out_.report.deviceOps;
      launched[pos].push_back(l.deviceOp);
      deviceCall.emplace_back(l.deviceOp, l.runtimeCall);
    }
    std::sort(deviceCall.begin(), deviceCall.end());

    std::int64_t next = 0;
    std::unordered_map<std::int64_t, std::int64_t> etIdToNew;
    std::vector<std::int64_t> cpuNewId(cpuOrder.size());
    for (std::uint32_t pos = 0; pos < cpuOrder.size(); ++pos) {
      const std::uint32_t k = cpuOrder[pos];
      LinkedOp op;
      op.id = next++;
      cpuNewId[pos] = op.id;
      op.kinetoEvent = cpuEvent(k);
      if (et_) {
        const EtNode& n = et_->nodes[k];
        op.name = n.name;
        op.etIndex = static_cast<std::int32_t>(k);
        op.tid = n.tid;
        etIdToNew.emplace(n.id, op.id);
      } else {
        const Event& e = k_.events[op.kinetoEvent];
        op.name = k_.name(e);  // the Kineto trace (kept by the linked trace) owns it
        op.tid = k_.lanes[e.lane].tidNumber;
      }
      if (op.kinetoEvent != kNoEvent)
        eventToOp_.emplace(op.kinetoEvent, static_cast<std::uint32_t>(out_.ops.size()));
      const std::int64_t cpuId = op.id;
      out_.ops.push_back(std::move(op));
      auto& devices = launched[pos];
      std::sort(devices.begin(), devices.end(), [&](EventId a, EventId b) {
        if (k_.events[a].start != k_.events[b].start)
          return k_.events[a].start < k_.events[b].start;
        return a < b;
      });
      for (EventId d : devices) {
        const Event& e = k_.events[d];
        const Lane& lane = k_.lanes[e.lane];
        LinkedOp dev;
        dev.id = next++;
        dev.kind = LinkedOpKind::DeviceOp;
        dev.name = k_.name(e);
        dev.parent = cpuId;
        dev.kinetoEvent = d;
        dev.launchEvent =
            std::lower_bound(deviceCall.begin(), deviceCall.end(), std::make_pair(d, EventId{0}))
                ->second;
        dev.ts = e.start;
        dev.inclusiveDur = dev.exclusiveDur = e.dur;
        dev.tid = out_.ops.back().tid;
        dev.device = static_cast<std::int32_t>(lane.pidNumber);
        dev.stream = lane.tidNumber;
        dev.category = k_.category(e);
        dev.pgName = out_.keep(processGroupName(e));
        eventToOp_.emplace(d, static_cast<std::uint32_t>(out_.ops.size()));
        out_.ops.push_back(std::move(dev));
        ++out_.report.linkedDeviceOps;
      }
    }
    // Parents.
    for (auto& op : out_.ops) {
      if (!op.isCpu()) continue;
      if (et_) {
        const EtNode& n = et_->nodes[static_cast<std::size_t>(op.etIndex)];
        auto it = etIdToNew.find(n.parent);
        op.parent = it == etIdToNew.end() ? -1 : it->second;
      } else {
        const EventId p = linkableParent(op.kinetoEvent);
        auto it = p == kNoEvent ? eventToOp_.end() : eventToOp_.find(p);
        op.parent = it == eventToOp_.end() ? -1 : out_.ops[it->second].id;
      }
    }
    out_.reindex();
  }

  std::string processGroupName(const Event& e) const {
    const std::string_view args = k_.argsJson(e);
    if (args.find("Process Group Name") == std::string_view::npos) return {};
    const auto json = nlohmann::json::parse(args, nullptr, false);
    if (!json.is_object()) return {};
    auto it = json.find("Process Group Name");
    if (it == json.end()) return {};
    return it->is_string() ? it->get<std::string>() : it->dump();
  }

  // ---------------------------------------------------------------- times
  void computeTimes() {
    // Children intervals of each linked CPU op: its nearest linkable descendants on the lane.
    std::unordered_map<std::uint32_t, std::vector<std::pair<TimeNs, TimeNs>>> children;
    std::set<LaneId> lanes;
    for (const auto& op : out_.ops)
      if (op.isCpu() && op.kinetoEvent != kNoEvent) lanes.insert(k_.events[op.kinetoEvent].lane);
    for (LaneId lane : lanes) {
      const auto& l = k_.lanes[lane];
      for (EventId i = l.firstEvent; i < l.endEvent; ++i) {
        if (!linkable(k_.events[i])) continue;
        const EventId p = linkableParent(i);
        if (p == kNoEvent) continue;
        auto it = eventToOp_.find(p);
        if (it == eventToOp_.end()) continue;
        children[it->second].emplace_back(k_.events[i].start, k_.events[i].end());
      }
    }
    std::uint64_t overlapping = 0;
    std::string overlapExample;
    for (std::uint32_t idx = 0; idx < out_.ops.size(); ++idx) {
      LinkedOp& op = out_.ops[idx];
      if (!op.isCpu() || op.kinetoEvent == kNoEvent) continue;
      const Event& e = k_.events[op.kinetoEvent];
      op.ts = e.start;
      op.inclusiveDur = e.dur;
      op.annotation = e.klass == CategoryClass::UserAnnotation;
      auto it = children.find(idx);
      TimeNs covered = 0;
      bool overlap = false;
      if (it != children.end()) {
        auto& iv = it->second;
        std::sort(iv.begin(), iv.end());
        TimeNs curStart = 0, curEnd = INT64_MIN;
        for (auto [s, t] : iv) {
          if (s < e.start || t > e.end()) overlap = true;
          s = std::clamp(s, e.start, e.end());
          t = std::clamp(t, e.start, e.end());
          if (s < curEnd) {
            overlap = true;  // siblings overlap: the covered time counts once
            curEnd = std::max(curEnd, t);
          } else {
            if (curEnd != INT64_MIN) covered += curEnd - curStart;
            curStart = s;
            curEnd = t;
          }
        }
        if (curEnd != INT64_MIN) covered += curEnd - curStart;
      }
      op.exclusiveDur = std::max<TimeNs>(0, e.dur - covered);
      if (overlap && overlapping++ == 0)
        overlapExample = std::string(op.name) + " at " + std::to_string(op.ts) + " ns";
    }
    if (overlapping)
      out_.problems.add(Severity::Info,
                        "CPU op whose children overlap each other or cross its end (exclusive "
                        "duration counts the covered time once)",
                        overlapping, overlapExample);

    // Roots: the process root spans the window's linked ops, a thread root its thread's.
    if (!et_) return;
    std::unordered_map<std::int64_t, std::pair<TimeNs, TimeNs>> threadSpan;
    TimeNs lo = INT64_MAX, hi = INT64_MIN;
    for (const auto& op : out_.ops) {
      if (op.kinetoEvent == kNoEvent) continue;
      const TimeNs end = op.ts + op.inclusiveDur;
      lo = std::min(lo, op.ts);
      hi = std::max(hi, end);
      if (!op.isCpu()) continue;
      auto [it, fresh] = threadSpan.try_emplace(op.tid, op.ts, end);
      if (!fresh) {
        it->second.first = std::min(it->second.first, op.ts);
        it->second.second = std::max(it->second.second, end);
      }
    }
    for (auto& op : out_.ops) {
      const EtNode* n = out_.etNode(op);
      if (!n) continue;
      if (n->isRoot() && lo != INT64_MAX) {
        op.ts = lo;
        op.inclusiveDur = hi - lo;
      } else if (n->isThreadRoot()) {
        if (auto it = threadSpan.find(n->tid); it != threadSpan.end()) {
          op.ts = it->second.first;
          op.inclusiveDur = it->second.second - it->second.first;
        }
      }
    }
  }

  // ---------------------------------------------------------------- dependencies
  // As chakra_trace_link: on each thread, a group of ops that starts after the thread was idle for
  // more than the gap depends on the latest-starting CPU op of the other threads before it; every
  // op of the group carries that dependency. Idle means no op of the thread was running (the end
  // of the latest-ending op so far, where the reference takes the previous op's end, which a
  // short child makes look like a gap inside a long parent).
  void computeInterThreadDeps() {
    std::map<std::int64_t, std::vector<std::uint32_t>> byThread;
    for (std::uint32_t i = 0; i < out_.ops.size(); ++i) {
      const auto& op = out_.ops[i];
      if (op.isCpu() && op.kinetoEvent != kNoEvent && isThreadOp(op)) byThread[op.tid].push_back(i);
    }
    if (byThread.size() < 2) return;
    auto byStart = [&](std::uint32_t a, std::uint32_t b) {
      if (out_.ops[a].ts != out_.ops[b].ts) return out_.ops[a].ts < out_.ops[b].ts;
      return a < b;
    };
    for (auto& [tid, ops] : byThread) std::sort(ops.begin(), ops.end(), byStart);
    for (auto& [tid, ops] : byThread) {
      TimeNs busyUntil = INT64_MIN;
      std::int64_t dep = -1;
      for (std::size_t i = 0; i < ops.size(); ++i) {
        LinkedOp& op = out_.ops[ops[i]];
        if (i == 0 || op.ts - busyUntil > options_.interThreadGapNs)
          dep = latestOtherThreadOp(byThread, tid, op.ts);
        busyUntil = std::max(busyUntil, op.ts + op.inclusiveDur);
        if (dep >= 0) {
          op.interThreadDeps.push_back(dep);
          ++out_.report.interThreadDeps;
        }
      }
    }
  }

  bool isThreadOp(const LinkedOp& op) const {
    const EtNode* n = out_.etNode(op);
    return !n || n->isOperator();
  }

  std::int64_t latestOtherThreadOp(
      const std::map<std::int64_t, std::vector<std::uint32_t>>& byThread, std::int64_t tid,
      TimeNs before) const {
    std::int64_t best = -1;
    TimeNs bestTs = INT64_MIN;
    for (const auto& [other, ops] : byThread) {
      if (other == tid) continue;
      auto it = std::lower_bound(ops.begin(), ops.end(), before,
                                 [&](std::uint32_t i, TimeNs t) { return out_.ops[i].ts < t; });
      if (it == ops.begin()) continue;
      const LinkedOp& candidate = out_.ops[*std::prev(it)];
      if (candidate.ts > bestTs) bestTs = candidate.ts, best = candidate.id;
    }
    return best;
  }

  void computeSyncDeps() {
    const auto deps = findSyncDependencies(k_, launches_, &out_.problems);
    addBlockedTime(deps);
    for (const auto& d : deps) {
      const std::uint32_t waiter = linkedOpEnclosing(d.waiter);
      auto waited = eventToOp_.find(d.waitedOn);
      const bool waiterInWindow =
          k_.events[d.waiter].start >= window_.start && k_.events[d.waiter].start < window_.end;
      if (waiter == kUnmatched || waited == eventToOp_.end()) {
        if (waiterInWindow)
          unlinked("synchronization whose waiter or waited-on op is not linked",
                   std::string(syncKindName(d.kind)) + ": " +
                       std::string(k_.name(k_.events[d.waiter])) + " waits on " +
                       std::string(k_.name(k_.events[d.waitedOn])));
        continue;
      }
      auto& list = out_.ops[waiter].syncDeps;
      const std::int64_t id = out_.ops[waited->second].id;
      if (id == out_.ops[waiter].id || std::find(list.begin(), list.end(), id) != list.end())
        continue;
      list.push_back(id);
      ++out_.report.syncDeps;
    }
  }

  // A host call that waited on device work was blocked from its start until the last op it
  // waited on ended (or until it returned, if earlier); that time is the enclosing op's wait.
  // Deps are sorted by waiter, so a call's deps (a context sync waits on every stream) are
  // adjacent.
  void addBlockedTime(const std::vector<SyncDependency>& deps) {
    for (std::size_t i = 0; i < deps.size();) {
      const EventId call = deps[i].waiter;
      TimeNs waitedEnd = INT64_MIN;
      for (; i < deps.size() && deps[i].waiter == call; ++i)
        if (deps[i].kind != SyncKind::StreamWaitEvent)
          waitedEnd = std::max(waitedEnd, k_.events[deps[i].waitedOn].end());
      if (waitedEnd == INT64_MIN) continue;
      const Event& e = k_.events[call];
      const TimeNs blocked = std::clamp<TimeNs>(waitedEnd - e.start, 0, e.dur);
      const std::uint32_t op = linkedOpEnclosing(call);
      if (op == kUnmatched || blocked == 0) continue;
      LinkedOp& o = out_.ops[op];
      o.blockedDur = std::min(o.exclusiveDur, o.blockedDur + blocked);
    }
  }

  // ---------------------------------------------------------------- report
  void unlinked(const std::string& reason, const std::string& example) {
    out_.report.unlinked.add(Severity::Warning, reason, example);
  }

  void finishReport() {
    auto& r = out_.report;
    std::set<std::int64_t> streams;
    for (const auto& op : out_.ops) {
      if (op.isDevice()) {
        streams.insert(op.stream);
        continue;
      }
      const EtNode* n = out_.etNode(op);
      if (et_ && (!n || !n->isOperator())) continue;
      ++r.etOps;
      if (op.kinetoEvent != kNoEvent) ++r.matchedEtOps;
    }
    if (!et_) r.etOps = r.matchedEtOps = 0;
    r.streams.assign(streams.begin(), streams.end());
    r.windowStart = window_.start;
    r.windowEnd = window_.end;
    for (const auto& [tid, lane] : threadLane_) r.threads.emplace_back(tid, lane);
  }

  // Two different runs (see linkTraces): at least two of pid, time and op sequences disagree.
  Status checkSameRun() const {
    if (!et_) return Ok{};
    std::vector<std::string> reasons;
    if (et_->pid > 0) {
      std::set<std::int64_t> pids;
      for (const Lane& lane : k_.lanes)
        if (lane.kind == LaneKind::HostThread && lane.firstEvent != lane.endEvent)
          pids.insert(lane.pidNumber);
      if (!pids.empty() && !pids.count(et_->pid)) {
        std::string list;
        for (auto it = pids.begin(); it != pids.end() && std::distance(pids.begin(), it) < 4; ++it)
          list += (list.empty() ? "" : ", ") + std::to_string(*it);
        if (pids.size() > 4) list += ", ...";
        reasons.push_back("the ET was recorded by pid " + std::to_string(et_->pid) +
                          ", the Kineto trace's host threads belong to pid " + list);
      }
    }
    if (const auto etDay = civilSeconds(et_->time)) {
      TimeNs start = k_.startNs;
      if (start < kEpochNs && k_.meta.baseTimeNanoseconds) start += *k_.meta.baseTimeNanoseconds;
      constexpr std::int64_t kTwoDays = 2 * 86'400;
      const std::int64_t kinetoSeconds = start / 1'000'000'000;
      if (start >= kEpochNs && std::llabs(kinetoSeconds - *etDay) > kTwoDays)
        reasons.push_back("the ET was recorded at " + et_->time + ", the Kineto trace starts at " +
                          formatUtc(kinetoSeconds) + " UTC (" +
                          std::to_string(std::llabs(kinetoSeconds - *etDay) / 86'400) +
                          " days apart)");
    }
    const auto& r = out_.report;
    if (r.etOps > 0 && 2 * r.matchedEtOps < r.etOps)
      reasons.push_back("their op sequences differ: " + std::to_string(r.matchedEtOps) + " of " +
                        std::to_string(r.etOps) + " ET ops matched a Kineto op");
    if (reasons.size() < 2) return Ok{};
    std::string message =
        "not linked with the Kineto trace " + k_.path + ": they are from different runs: ";
    for (std::size_t i = 0; i < reasons.size(); ++i) message += (i ? "; " : "") + reasons[i];
    message += " (--force links them anyway)";
    return makeError(et_->path, message);
  }

  // Wall-clock times before this are no epoch times (a Kineto trace with relative timestamps).
  static constexpr TimeNs kEpochNs = 1'000'000'000'000'000'000;  // 2001-09-09

  // "YYYY-MM-DD HH:MM:SS" (the ET's "time") as seconds since 1970 as if it were UTC.
  static std::optional<std::int64_t> civilSeconds(const std::string& text) {
    int y = 0, m = 0, d = 0, hh = 0, mm = 0, ss = 0;
    if (std::sscanf(text.c_str(), "%d-%d-%d %d:%d:%d", &y, &m, &d, &hh, &mm, &ss) < 3)
      return std::nullopt;
    if (y < 1970 || m < 1 || m > 12 || d < 1 || d > 31) return std::nullopt;
    // Days from civil (H. Hinnant's algorithm).
    y -= m <= 2;
    const std::int64_t era = y / 400;
    const std::int64_t yoe = y - era * 400;
    const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    const std::int64_t days = era * 146'097 + doe - 719'468;
    return days * 86'400 + hh * 3'600 + mm * 60 + ss;
  }

  static std::string formatUtc(std::int64_t seconds) {
    const std::int64_t z = seconds / 86'400 + 719'468;
    const std::int64_t era = z / 146'097;
    const std::int64_t doe = z - era * 146'097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36'524 - doe / 146'096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const std::int64_t mp = (5 * doy + 2) / 153;
    const std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
    const std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
    const std::int64_t y = yoe + era * 400 + (m <= 2);
    const std::int64_t rest = seconds % 86'400;
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%04lld-%02lld-%02lld %02lld:%02lld:%02lld",
                  static_cast<long long>(y), static_cast<long long>(m), static_cast<long long>(d),
                  static_cast<long long>(rest / 3600), static_cast<long long>(rest / 60 % 60),
                  static_cast<long long>(rest % 60));
    return buffer;
  }

  std::shared_ptr<const EtTrace> et_;
  std::shared_ptr<const Trace> kineto_;
  const Trace& k_;
  LinkOptions options_;
  LinkedTrace out_;
  LaunchIndex ownLaunches_;  // built here unless the caller shares its own
  const LaunchIndex& launches_;
  bool etHasAnnotations_ = false;
  std::vector<Window> annotationWindows_;
  Window window_;
  std::map<std::int64_t, std::vector<std::uint32_t>> etThreads_;  // ET tid -> op node indices by id
  std::map<std::int64_t, LaneId> threadLane_;
  std::vector<EventId> etToEvent_;
  std::vector<EventId> kinetoOnlyOps_;
  std::unordered_map<EventId, std::uint32_t> eventToOp_;  // Kineto event -> index in out_.ops
};

}  // namespace

Result<LinkedTrace> linkTraces(std::shared_ptr<const EtTrace> et,
                               std::shared_ptr<const Trace> kineto, const LinkOptions& options) {
  if (!kineto) return makeError(et ? et->path : std::string(), "no Kineto trace to link with");
  return Linker(std::move(et), std::move(kineto), options).run();
}

}  // namespace sutra
