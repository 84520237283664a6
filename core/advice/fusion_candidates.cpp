// SPDX-License-Identifier: MIT
#include "advice/fusion_candidates.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>

#include "advice/op_bytes.h"

namespace sutra {
namespace {

// Ops and kernels that a pointwise fusion does not absorb: matrix products, convolutions,
// attention, communication, copies between devices, allocation, and what synchronises.
const std::regex& notFusible() {
  static const std::regex re(
      "gemm|gemv|matmul|aten::mm$|addmm|bmm|aten::linear|conv|cutlass|cublas|cudnn|xmma|nccl|"
      "gloo|c10d|all_?reduce|all_?gather|reduce_?scatter|broadcast|flash|fmha|attention|sdpa|"
      "aten::to$|_to_copy|aten::copy_|memcpy|memset|item|_local_scalar_dense|aten::empty|"
      "aten::zeros|aten::ones|aten::full|fill_|zero_|Optimizer|backward|autograd|"
      "record_param_comms|ProfilerStep|embedding|index|aten::cat$|aten::stack|aten::sort|"
      "aten::topk|dropout|randn|rand|aten::where|nonzero|pool|interpolate|upsample|grid_sample|"
      "scatter|gather",
      std::regex::ECMAScript | std::regex::icase);
  return re;
}

// Framework internals: ops that DDP's reducer, the autograd engine or an optimizer's step run for
// the user. Fusing them is not the user's to do (an optimizer's loop has its own finding, "use
// fused=True": optimizer_loop.h).
class FrameworkInternals {
 public:
  explicit FrameworkInternals(const Trace& trace) : trace_(trace), known_(trace.names.size(), -1) {}
  bool operator()(EventId op) {
    static const std::regex inside(
        "^Optimizer\\.|^autograd::engine|reducer::|^DistributedDataParallel\\.(?!forward)");
    for (EventId e = op; e != kNoEvent; e = trace_.events[e].parent) {
      std::int8_t& known = known_[trace_.events[e].name];  // each name matched once
      if (known < 0) {
        const std::string_view name = trace_.name(trace_.events[e]);
        known = std::regex_search(name.begin(), name.end(), inside) ? 1 : 0;
      }
      if (known) return true;
    }
    return false;
  }

 private:
  const Trace& trace_;
  std::vector<std::int8_t> known_;
};

// Ops that only change a tensor's metadata: no kernel, no bytes; they neither join nor break a run.
bool metadataOnly(std::string_view name) {
  static constexpr std::string_view kViews[] = {
      "aten::view",         "aten::reshape",      "aten::expand",
      "aten::transpose",    "aten::permute",      "aten::t",
      "aten::unsqueeze",    "aten::squeeze",      "aten::slice",
      "aten::select",       "aten::as_strided",   "aten::detach",
      "aten::alias",        "aten::_unsafe_view", "aten::contiguous",
      "aten::resolve_conj", "aten::resolve_neg"};
  return std::find(std::begin(kViews), std::end(kViews), name) != std::end(kViews);
}

struct Member {
  EventId event = kNoEvent;   // the op (CPU) or the kernel (device)
  EventId shapes = kNoEvent;  // the op whose input shapes size it
  EventId launch = kNoEvent;  // device: its launch call
};

struct Occurrence {
  std::vector<Member> members;
  const Step* step = nullptr;
};

// The largest input shape of the op, for the "same tensors" test.
std::vector<std::int64_t> largestShape(const Trace& trace, EventId op) {
  std::vector<std::int64_t> best;
  std::int64_t bestBytes = -1;
  for (const auto& s : inputShapes(trace, op))
    if (s.bytes() > bestBytes) bestBytes = s.bytes(), best = s.dims;
  return best;
}

// Cuts `units` (in order) into maximal runs of fusible members over tensors of one shape.
void cutRuns(const Trace& trace, const std::vector<Member>& units, const Step* step,
             std::vector<Occurrence>& out) {
  Occurrence run;
  run.step = step;
  std::vector<std::int64_t> anchor;  // the run's largest shape
  auto flush = [&] {
    if (run.members.size() >= 2) out.push_back(run);
    run.members.clear();
    anchor.clear();
  };
  for (const Member& m : units) {
    const std::string_view name = trace.name(trace.events[m.event]);
    const std::string_view opName =
        m.shapes == kNoEvent ? name : trace.name(trace.events[m.shapes]);
    if (metadataOnly(opName)) continue;
    const bool fusible = !std::regex_search(name.begin(), name.end(), notFusible()) &&
                         !std::regex_search(opName.begin(), opName.end(), notFusible());
    if (!fusible) {
      flush();
      continue;
    }
    if (m.shapes != kNoEvent) {
      const auto shapes = inputShapes(trace, m.shapes);
      const auto largest = largestShape(trace, m.shapes);
      if (!anchor.empty() && !broadcastsTo(largest, anchor)) {
        if (broadcastsTo(anchor, largest)) {
          anchor = largest;
        } else {
          flush();
        }
      }
      if (anchor.empty()) anchor = largest;
      const bool related = std::all_of(shapes.begin(), shapes.end(), [&](const TensorShape& s) {
        return broadcastsTo(s.dims, anchor);
      });
      if (!related) {
        flush();
        anchor = largest;
      }
    }
    run.members.push_back(m);
  }
  flush();
}

// A member's name as a title shows it: the op that launched a kernel (aten::add), else the kernel's
// name without its template arguments and parameters.
std::string shortName(const Trace& trace, const Member& m) {
  if (m.shapes != kNoEvent && m.shapes != m.event)
    return std::string(trace.name(trace.events[m.shapes]));
  std::string_view name = trace.name(trace.events[m.event]);
  if (name.substr(0, 5) == "void ") name.remove_prefix(5);
  name = name.substr(0, name.find_first_of("<("));
  return std::string(name);
}

std::string patternKey(const Trace& trace, const Occurrence& o) {
  std::string key;
  for (const auto& m : o.members) {
    key += trace.name(trace.events[m.event]);
    key += '\n';
  }
  return key;
}

double rateOf(std::int64_t bytes, TimeNs ns) {
  return ns > 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0.0;
}

}  // namespace

std::vector<Finding> findFusionCandidates(const AdviceScope& scope) {
  const Trace& trace = scope.trace;
  const bool device = scope.hasDeviceOps();
  std::vector<Occurrence> occurrences;
  FrameworkInternals frameworkInternal(trace);
  for (const Step& step : scope.steps) {
    for (LaneId lane = 0; lane < trace.lanes.size(); ++lane) {
      std::vector<Member> units;
      if (device) {
        if (trace.lanes[lane].kind != LaneKind::DeviceStream || !scope.rank.launches()) continue;
        for (const Event& e : trace.laneEvents(lane)) {
          if (e.klass != CategoryClass::Kernel) continue;
          const auto id = static_cast<EventId>(&e - trace.events.data());
          const EventId call = scope.rank.launches()->runtimeCallOf(id);
          if (call == kNoEvent || frameworkInternal(call)) continue;
          const TimeNs launched = trace.events[call].start;
          if (launched < step.start || launched >= step.end) continue;
          units.push_back({id, scope.rank.launches()->launcherOf(id), call});
        }
      } else {
        if (trace.lanes[lane].kind != LaneKind::HostThread) continue;
        for (EventId op : outermostOps(trace, lane, step.start, step.end))
          if (!frameworkInternal(op)) units.push_back({op, op, kNoEvent});
      }
      cutRuns(trace, units, &step, occurrences);
    }
  }

  // The patterns that repeat: in every step where there are several, twice or more in one.
  std::map<std::string, std::vector<const Occurrence*>> byPattern;
  for (const auto& o : occurrences) byPattern[patternKey(trace, o)].push_back(&o);
  std::vector<Finding> findings;
  const std::size_t stepCount = std::max<std::size_t>(scope.steps.size(), 1);
  for (const auto& [key, list] : byPattern) {
    std::vector<const Step*> steps;
    for (const auto* o : list)
      if (std::find(steps.begin(), steps.end(), o->step) == steps.end()) steps.push_back(o->step);
    if (stepCount >= 2 ? steps.size() < stepCount : list.size() < 2) continue;

    Finding f = scope.newFinding(FindingKind::FusionCandidate);
    f.occurrences = list.size();
    f.steps = steps.size();
    const auto& first = list.front()->members;
    std::string names;
    for (const auto& m : first) names += (names.empty() ? "" : " > ") + shortName(trace, m);
    f.title = "fuse " + names + " (" + std::to_string(first.size()) +
              (device ? " kernels" : " ops") + ", " + std::to_string(list.size() / steps.size()) +
              " per step)";

    // Each member's rate (bytes moved over its time) in every occurrence; its median over the
    // occurrences is its rate, robust to one slow step. Members that move little (a [4096, 1]
    // rsqrt) say nothing about memory and are left out.
    TimeNs total = 0;
    std::vector<std::vector<double>> ratesAt(first.size());
    std::vector<std::int64_t> fusedBytesOf;
    for (const auto* o : list) {
      const Event& a = trace.events[o->members.front().event];
      const Event& b = trace.events[o->members.back().event];
      std::int64_t largest = 0, largestMoved = 0;
      std::vector<std::int64_t> moved;
      for (const auto& m : o->members) {
        f.evidence.push_back(m.event);
        total += device ? trace.events[m.event].dur : 0;
        const OpBytes bytes = m.shapes == kNoEvent ? OpBytes{} : opBytes(trace, m.shapes);
        largest = std::max(largest, bytes.largestInput);
        largestMoved = std::max(largestMoved, bytes.moved());
        moved.push_back(bytes.moved());
      }
      if (!device) total += b.end() - a.start;
      for (std::size_t i = 0; i < moved.size() && i < ratesAt.size(); ++i) {
        const TimeNs ns = trace.events[o->members[i].event].dur;
        if (moved[i] > 0 && moved[i] * 100 >= largestMoved && ns > 0)
          ratesAt[i].push_back(rateOf(moved[i], ns));
      }
      const Member& last = o->members.back();
      fusedBytesOf.push_back(largest +
                             (last.shapes == kNoEvent ? 0 : opBytes(trace, last.shapes).written));
    }
    double slowest = 0, fastest = 0;
    for (auto& rates : ratesAt) {
      if (rates.empty()) continue;
      std::sort(rates.begin(), rates.end());
      const double median = rates.size() % 2
                                ? rates[rates.size() / 2]
                                : (rates[rates.size() / 2 - 1] + rates[rates.size() / 2]) / 2;
      slowest = slowest == 0 ? median : std::min(slowest, median);
      fastest = std::max(fastest, median);
    }
    const std::int64_t fusedBytesSeen = *std::max_element(fusedBytesOf.begin(), fusedBytesOf.end());
    const bool sized = slowest > 0 && std::all_of(fusedBytesOf.begin(), fusedBytesOf.end(),
                                                  [](std::int64_t bytes) { return bytes > 0; });
    for (std::size_t k = 0; sized && k < list.size(); ++k) {
      const Occurrence& o = *list[k];
      const Event& a = trace.events[o.members.front().event];
      const Event& b = trace.events[o.members.back().event];
      const TimeNs span = b.end() - a.start;
      const auto fusedAt = [&](double rate) {
        return static_cast<TimeNs>(std::llround(static_cast<double>(fusedBytesOf[k]) / rate));
      };
      auto addFix = [&](SimKnobs& knobs, TimeNs fusedNs) {
        if (device) {
          for (std::size_t i = 0; i < o.members.size(); ++i) {
            const Member& m = o.members[i];
            knobs.deviceOpDurations.push_back({scope.rankIndex, m.event, i == 0 ? fusedNs : 0});
            if (i == 0 || m.launch == kNoEvent) continue;
            const Event& call = trace.events[m.launch];
            knobs.hostCuts.push_back(
                {scope.rankIndex, call.lane, call.start, call.end(), call.dur});
          }
        } else {
          knobs.hostCuts.push_back(
              {scope.rankIndex, a.lane, a.start, b.end(), std::max<TimeNs>(0, span - fusedNs)});
        }
      };
      addFix(f.fix, fusedAt(slowest));
      addFix(f.otherBoundFix, fusedAt(fastest));
    }
    const double slowestSeen = slowest, fastestSeen = fastest;
    f.measuredNs = total / static_cast<TimeNs>(steps.size());
    char rates[200];
    std::snprintf(rates, sizeof rates,
                  "%.2f GB/s (the slowest member's median rate), %.2f GB/s (the fastest member's)",
                  slowestSeen, fastestSeen);
    f.explanation = std::to_string(first.size()) + (device ? " kernels" : " ops") +
                    " in a row over tensors of one shape, " + std::to_string(list.size()) +
                    " times in " + std::to_string(steps.size()) +
                    " steps: each reads and writes its tensors in memory, where one fused " +
                    (device ? "kernel" : "op") +
                    " would read the input and write the output once. " +
                    formatDuration(f.measuredNs) + " per step from the first to the last.";
    f.price.model = sized
                        ? "fused op = the largest input read once + the last op's output written "
                          "once (" +
                              std::to_string(fusedBytesSeen) + " bytes) at " + rates +
                              (device ? "; the other kernels and their launches removed"
                                      : "; the host stretch from the first op to the last becomes "
                                        "that one op")
                        : "fused op sized by its bytes";
    if (!sized) {
      f.price.notPriced =
          "the ops have no input shapes (record with record_shapes=True) or no "
          "measurable rate to size the fused op";
      f.fix = {};
      f.otherBoundFix = {};
    }
    findings.push_back(std::move(f));
  }
  std::sort(findings.begin(), findings.end(),
            [](const Finding& a, const Finding& b) { return a.measuredNs > b.measuredNs; });
  return findings;
}

}  // namespace sutra
