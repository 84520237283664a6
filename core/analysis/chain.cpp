// SPDX-License-Identifier: MIT
#include "analysis/chain.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

#include "link/launch_index.h"
#include "link/linked_trace.h"
#include "model/time.h"

namespace sutra {
namespace {

HopKind hopKindOf(CategoryClass c) {
  switch (c) {
    case CategoryClass::UserAnnotation:
      return HopKind::Annotation;
    case CategoryClass::PythonFunction:
      return HopKind::PythonFrame;
    case CategoryClass::Runtime:
    case CategoryClass::Driver:
      return HopKind::RuntimeCall;
    case CategoryClass::Kernel:
    case CategoryClass::Memcpy:
    case CategoryClass::Memset:
      return HopKind::DeviceOp;
    case CategoryClass::Sync:
      return HopKind::Sync;
    default:
      return HopKind::FrameworkOp;
  }
}

bool isLaunchCall(CategoryClass c) {
  return c == CategoryClass::Runtime || c == CategoryClass::Driver;
}

// A tensor is its (tensor id, storage id): tensor ids alone are reused within one trace.
using TensorKey = std::pair<std::int64_t, std::int64_t>;

class ChainBuilder {
 public:
  ChainBuilder(const Trace& trace, const LaunchIndex& launches,
               const std::vector<SyncDependency>& syncs, const LinkedTrace* linked,
               const ChainOptions& options)
      : trace_(trace), launches_(launches), syncs_(syncs), linked_(linked), options_(options) {}

  DependencyChain build(EventId focus) {
    chain_.focus = focus;
    if (focus == kNoEvent || focus >= trace_.events.size()) return std::move(chain_);
    const Event& e = trace_.events[focus];
    EventId anchor = focus;
    if (e.klass == CategoryClass::Sync) {
      // A cuda_sync span: show the chain of the device op it waited on, ending in this sync.
      for (const auto& s : syncs_)
        if (s.syncEvent == focus) {
          anchor = s.waitedOn;
          break;
        }
    } else if (isLaunchCall(e.klass) && launches_.deviceOpsOf(focus).empty()) {
      // A synchronizing call that launched nothing: the chain of what it waited on.
      for (const auto& s : syncs_)
        if (s.waiter == focus && trace_.events[s.waitedOn].start <= e.end()) anchor = s.waitedOn;
    }
    const Event& a = trace_.events[anchor];
    if (isDeviceOp(a.klass)) {
      const EventId call = launches_.runtimeCallOf(anchor);
      int callHop = call == kNoEvent ? -1 : addCallAndAncestors(call);
      addDeviceOp(anchor, callHop, call);
    } else if (isLaunchCall(a.klass)) {
      const int callHop = addCallAndAncestors(anchor);
      std::size_t listed = 0;
      for (EventId d : launches_.deviceOpsOf(anchor)) {
        if (listed++ == options_.maxLaunches) {
          ++chain_.omittedLaunches;
          continue;
        }
        addDeviceOp(d, callHop, anchor);
      }
    } else {
      const int opHop = addAncestorsAndSelf(anchor);
      addLaunchesUnder(anchor, opHop);
    }
    addSyncs();
    addDataDependencies();
    for (auto& hop : chain_.hops) hop.focus = hop.event == focus;
    return std::move(chain_);
  }

 private:
  int addHop(HopKind kind, EventId event, int previous, GapKind gapKind, TimeNs gap) {
    ChainHop hop;
    hop.kind = kind;
    hop.event = event;
    if (event != kNoEvent) {
      const Event& e = trace_.events[event];
      hop.name = std::string(trace_.name(e));
      hop.start = e.start;
      hop.end = e.end();
    }
    hop.previous = previous;
    hop.gapKind = previous < 0 ? GapKind::None : gapKind;
    hop.gap = previous < 0 ? 0 : gap;
    chain_.hops.push_back(std::move(hop));
    return static_cast<int>(chain_.hops.size() - 1);
  }

  // The event's enclosing events (outermost first) and the event itself; returns the event's hop.
  int addAncestorsAndSelf(EventId event) {
    std::vector<EventId> stack;
    for (EventId p = event; p != kNoEvent; p = trace_.events[p].parent) stack.push_back(p);
    int previous = -1;
    for (auto it = stack.rbegin(); it != stack.rend(); ++it) {
      const Event& e = trace_.events[*it];
      GapKind gapKind = GapKind::Nesting;
      if (previous >= 0 && isLaunchCall(e.klass) &&
          isFramework(trace_.events[chain_.hops[previous].event].klass))
        gapKind = GapKind::DispatchToLaunch;
      const TimeNs gap = previous >= 0 ? e.start - chain_.hops[previous].start : 0;
      previous = addHop(hopKindOf(e.klass), *it, previous, gapKind, gap);
      if (isFramework(e.klass)) frameworkHop_ = previous;
      if (e.klass == CategoryClass::CpuOp) cpuOpHop_ = previous;
    }
    return previous;
  }

  int addCallAndAncestors(EventId call) { return addAncestorsAndSelf(call); }

  void addDeviceOp(EventId device, int callHop, EventId call) {
    const Event& d = trace_.events[device];
    const TimeNs gap = call == kNoEvent ? 0 : d.start - trace_.events[call].end();
    deviceHops_.push_back(addHop(HopKind::DeviceOp, device, callHop, GapKind::LaunchToStart, gap));
  }

  // Launch calls in the op's subtree (same lane, inside its span, deeper), in time order.
  void addLaunchesUnder(EventId op, int opHop) {
    const Event& o = trace_.events[op];
    const Lane& lane = trace_.lanes[o.lane];
    for (EventId i = op + 1; i < lane.endEvent && trace_.events[i].start <= o.end(); ++i) {
      const Event& e = trace_.events[i];
      if (!isLaunchCall(e.klass) || e.end() > o.end() || launches_.deviceOpsOf(i).empty()) continue;
      bool inside = false;
      for (EventId p = e.parent; p != kNoEvent && !inside; p = trace_.events[p].parent)
        inside = p == op;
      if (!inside) continue;
      if (launchesListed_ == options_.maxLaunches) {
        ++chain_.omittedLaunches;
        continue;
      }
      ++launchesListed_;
      // The call hangs below its innermost enclosing op in the chain: list that op's ancestors
      // between the focus op and the call too, so each branch reads op -> ... -> launch.
      std::vector<EventId> between;
      for (EventId p = e.parent; p != op; p = trace_.events[p].parent) between.push_back(p);
      int previous = opHop;
      for (auto it = between.rbegin(); it != between.rend(); ++it) {
        auto known = hopOfEvent_.find(*it);
        if (known != hopOfEvent_.end()) {
          previous = known->second;
          continue;
        }
        const Event& b = trace_.events[*it];
        previous = addHop(hopKindOf(b.klass), *it, previous, GapKind::Nesting,
                          b.start - chain_.hops[previous].start);
        hopOfEvent_.emplace(*it, previous);
      }
      const bool fromFramework = isFramework(trace_.events[chain_.hops[previous].event].klass);
      const int callHop = addHop(HopKind::RuntimeCall, i, previous,
                                 fromFramework ? GapKind::DispatchToLaunch : GapKind::Nesting,
                                 e.start - chain_.hops[previous].start);
      for (EventId d : launches_.deviceOpsOf(i)) addDeviceOp(d, callHop, i);
    }
  }

  // For each device op: the host call that waited on it, directly or on a later op of its stream
  // (stream order makes that wait cover it), and the op that resumed after that call; and device
  // ops of other streams made to wait on it (Stream Wait Event).
  void addSyncs() {
    if (deviceHops_.empty() || syncs_.empty()) return;
    // Host waits by the stream (lane) of the op they waited on, by that op's start.
    std::map<LaneId, std::vector<const SyncDependency*>> hostWaits;
    for (const auto& s : syncs_)
      if (s.waitedOn != kNoEvent && s.waiter != kNoEvent &&
          !isDeviceOp(trace_.events[s.waiter].klass))
        hostWaits[trace_.events[s.waitedOn].lane].push_back(&s);
    for (auto& [lane, list] : hostWaits)
      std::sort(list.begin(), list.end(), [&](const SyncDependency* x, const SyncDependency* y) {
        const Event& a = trace_.events[x->waitedOn];
        const Event& b = trace_.events[y->waitedOn];
        if (a.start != b.start) return a.start < b.start;
        return trace_.events[x->waiter].end() < trace_.events[y->waiter].end();
      });
    std::map<EventId, std::pair<int, TimeNs>>
        syncHops;  // waiter -> (hop, end of the op it follows)
    const std::vector<int> deviceHops = deviceHops_;
    for (int dh : deviceHops) {
      const EventId device = chain_.hops[dh].event;
      const Event& d = trace_.events[device];
      for (const auto& s : syncs_)
        if (s.waitedOn == device && s.waiter != kNoEvent &&
            isDeviceOp(trace_.events[s.waiter].klass)) {
          const Event& w = trace_.events[s.waiter];
          addHop(HopKind::Sync, s.waiter, dh, GapKind::StreamWait, w.start - d.end());
        }
      auto it = hostWaits.find(d.lane);
      if (it == hostWaits.end()) continue;
      const SyncDependency* wait = nullptr;
      for (const SyncDependency* s : it->second) {
        const Event& on = trace_.events[s->waitedOn];
        if (on.start < d.start || (on.start == d.start && s->waitedOn != device)) continue;
        if (trace_.events[s->waiter].end() < d.end()) continue;  // returned before the op ended
        wait = s;
        break;
      }
      if (!wait) continue;
      const Event& w = trace_.events[wait->waiter];
      auto known = syncHops.find(wait->waiter);
      if (known == syncHops.end()) {
        const int hop =
            addHop(HopKind::Sync, wait->waiter, dh, GapKind::SyncWait, w.end() - d.end());
        syncHops.emplace(wait->waiter, std::pair{hop, d.end()});
        addResumed(wait->waiter, hop);
      } else if (known->second.second < d.end()) {
        // One call waited on several of the chain's ops: it follows the one that ended last.
        ChainHop& sync = chain_.hops[known->second.first];
        sync.previous = dh;
        sync.gap = w.end() - d.end();
        known->second.second = d.end();
      }
    }
  }

  void addResumed(EventId waiter, int syncHop) {
    const Event& w = trace_.events[waiter];
    const Lane& lane = trace_.lanes[w.lane];
    for (EventId i = trace_.lowerBound(w.lane, w.end()); i < lane.endEvent; ++i) {
      const Event& e = trace_.events[i];
      if (e.klass != CategoryClass::CpuOp && e.klass != CategoryClass::UserAnnotation) continue;
      addHop(HopKind::ResumedOp, i, syncHop, GapKind::Resume, e.start - w.end());
      return;
    }
  }

  void addDataDependencies() {
    if (!linked_ || !linked_->et || cpuOpHop_ < 0) return;
    const EventId op = chain_.hops[cpuOpHop_].event;
    const LinkedOp* self = nullptr;
    for (const auto& l : linked_->ops)
      if (l.isCpu() && l.kinetoEvent == op) {
        self = &l;
        break;
      }
    if (!self) return;
    const EtNode* node = linked_->etNode(*self);
    if (!node) return;
    chain_.hops[cpuOpHop_].etNode = node->id;
    const EtTrace& et = *linked_->et;
    std::set<std::int64_t> ancestors;
    for (const EtNode* p = et.find(node->parent); p && !ancestors.count(p->id);
         p = et.find(p->parent))
      ancestors.insert(p->id);
    auto isDescendant = [&](const EtNode& n) {
      std::set<std::int64_t> seen;
      for (const EtNode* p = et.find(n.parent); p && seen.insert(p->id).second;
           p = et.find(p->parent))
        if (p->id == node->id) return true;
      return false;
    };
    std::unordered_map<std::int64_t, const LinkedOp*> linkedByEt;
    for (const auto& l : linked_->ops)
      if (const EtNode* n = linked_->etNode(l)) linkedByEt.emplace(n->id, &l);

    std::vector<const EtNode*> byId;
    for (const auto& n : et.nodes)
      if (n.isOperator()) byId.push_back(&n);
    std::sort(byId.begin(), byId.end(),
              [](const EtNode* x, const EtNode* y) { return x->id < y->id; });
    auto keyOf = [](const EtTensor& t) { return TensorKey{t.tensorId, t.storageId}; };
    auto holds = [&](const EtArgs& args, const TensorKey& k) {
      return std::any_of(args.tensors.begin(), args.tensors.end(),
                         [&](const EtTensor& t) { return keyOf(t) == k; });
    };
    auto addEtHop = [&](const EtNode& n, HopKind kind) {
      auto l = linkedByEt.find(n.id);
      const Event* ke = l != linkedByEt.end() ? linked_->kinetoEventOf(*l->second) : nullptr;
      const EventId ev = ke ? static_cast<EventId>(ke - trace_.events.data()) : kNoEvent;
      const ChainHop& self = chain_.hops[cpuOpHop_];
      TimeNs gap = 0;
      if (ke) gap = kind == HopKind::DataProducer ? self.start - ke->end() : ke->start - self.end;
      const int hop = addHop(kind, ev, cpuOpHop_, GapKind::DataDependency, gap);
      chain_.hops[hop].etNode = n.id;
      if (!ke) chain_.hops[hop].name = n.name;
    };
    const auto self_at =
        std::lower_bound(byId.begin(), byId.end(), node,
                         [](const EtNode* x, const EtNode* y) { return x->id < y->id; });
    // Producers: for each input tensor, the latest earlier op (not an enclosing one) that output
    // it.
    std::set<std::int64_t> listed;
    std::size_t producers = 0;
    for (const auto& t : node->inputs.tensors) {
      if (producers == options_.maxDataDeps) break;
      for (auto it = self_at; it != byId.begin();) {
        const EtNode& p = **--it;
        if (ancestors.count(p.id) || !holds(p.outputs, keyOf(t))) continue;
        if (listed.insert(p.id).second) {
          addEtHop(p, HopKind::DataProducer);
          ++producers;
        }
        break;
      }
    }
    // Consumers: later ops outside this op that read one of its outputs, until it is written again.
    std::size_t consumers = 0;
    for (const auto& t : node->outputs.tensors) {
      for (auto it = self_at + 1; it != byId.end() && consumers < options_.maxDataDeps; ++it) {
        const EtNode& c = **it;
        if (isDescendant(c) || ancestors.count(c.id)) continue;
        if (holds(c.inputs, keyOf(t)) && listed.insert(c.id).second) {
          addEtHop(c, HopKind::DataConsumer);
          ++consumers;
        }
        if (holds(c.outputs, keyOf(t))) break;
      }
    }
  }

  const Trace& trace_;
  const LaunchIndex& launches_;
  const std::vector<SyncDependency>& syncs_;
  const LinkedTrace* linked_;
  const ChainOptions& options_;
  DependencyChain chain_;
  std::vector<int> deviceHops_;
  std::unordered_map<EventId, int> hopOfEvent_;
  std::size_t launchesListed_ = 0;
  int frameworkHop_ = -1;
  int cpuOpHop_ = -1;
};

}  // namespace

std::string_view hopKindName(HopKind kind) {
  switch (kind) {
    case HopKind::Annotation:
      return "annotation";
    case HopKind::PythonFrame:
      return "python_frame";
    case HopKind::FrameworkOp:
      return "framework_op";
    case HopKind::RuntimeCall:
      return "runtime_call";
    case HopKind::DeviceOp:
      return "device_op";
    case HopKind::Sync:
      return "sync";
    case HopKind::ResumedOp:
      return "resumed_op";
    case HopKind::DataProducer:
      return "data_producer";
    case HopKind::DataConsumer:
      return "data_consumer";
  }
  return "framework_op";
}

std::string_view gapKindName(GapKind kind) {
  switch (kind) {
    case GapKind::None:
      return "none";
    case GapKind::Nesting:
      return "nesting";
    case GapKind::DispatchToLaunch:
      return "dispatch_to_launch";
    case GapKind::LaunchToStart:
      return "launch_to_start";
    case GapKind::SyncWait:
      return "sync_wait";
    case GapKind::Resume:
      return "resume";
    case GapKind::StreamWait:
      return "stream_wait";
    case GapKind::DataDependency:
      return "data_dependency";
  }
  return "none";
}

DependencyChain dependencyChain(const Trace& trace, const LaunchIndex& launches,
                                const std::vector<SyncDependency>& syncs, EventId focus,
                                const LinkedTrace* linked, const ChainOptions& options) {
  return ChainBuilder(trace, launches, syncs, linked, options).build(focus);
}

EventId findEventByName(const Trace& trace, std::string_view name, std::size_t nth) {
  const StringId id = trace.names.find(name);
  if (id == StringTable::kMissing) return kNoEvent;
  std::vector<EventId> matches;
  for (EventId i = 0; i < trace.events.size(); ++i)
    if (trace.events[i].name == id) matches.push_back(i);
  std::sort(matches.begin(), matches.end(), [&](EventId a, EventId b) {
    const Event& x = trace.events[a];
    const Event& y = trace.events[b];
    return x.start != y.start ? x.start < y.start : a < b;
  });
  return nth < matches.size() ? matches[nth] : kNoEvent;
}

nlohmann::json chainJson(const Trace& trace, const DependencyChain& chain) {
  nlohmann::json hops = nlohmann::json::array();
  for (std::size_t i = 0; i < chain.hops.size(); ++i) {
    const ChainHop& h = chain.hops[i];
    nlohmann::json hop = {{"index", i},
                          {"kind", hopKindName(h.kind)},
                          {"name", h.name},
                          {"previous", h.previous},
                          {"gap_kind", gapKindName(h.gapKind)},
                          {"gap_ns", h.gap},
                          {"focus", h.focus}};
    if (h.event != kNoEvent) {
      hop["event"] = h.event;
      hop["category"] = trace.category(trace.events[h.event]);
      hop["start_ns"] = h.start;
      hop["end_ns"] = h.end;
      hop["dur_ns"] = h.end - h.start;
    }
    if (h.etNode >= 0) hop["et_node"] = h.etNode;
    hops.push_back(std::move(hop));
  }
  return {
      {"focus", chain.focus == kNoEvent ? nlohmann::json(nullptr) : nlohmann::json(chain.focus)},
      {"hops", std::move(hops)},
      {"omitted_launches", chain.omittedLaunches}};
}

std::string chainText(const Trace& trace, const DependencyChain& chain) {
  std::string out;
  std::vector<int> depth(chain.hops.size(), 0);
  for (std::size_t i = 0; i < chain.hops.size(); ++i) {
    const ChainHop& h = chain.hops[i];
    if (h.previous >= 0) depth[i] = depth[static_cast<std::size_t>(h.previous)] + 1;
    std::string line(static_cast<std::size_t>(std::min(depth[i], 24)) * 2, ' ');
    line += h.focus ? "* " : "- ";
    line += "[" + std::string(hopKindName(h.kind)) + "] " + h.name;
    if (h.event != kNoEvent) {
      line += "  (event " + std::to_string(h.event) + ", at +" +
              formatDuration(h.start - trace.startNs) + ", dur " + formatDuration(h.end - h.start) +
              ")";
    } else if (h.etNode >= 0) {
      line += "  (ET node " + std::to_string(h.etNode) + ", not in the Kineto trace)";
    }
    if (h.previous >= 0)
      line += "  " + std::string(gapKindName(h.gapKind)) + " " + formatDuration(h.gap);
    out += line + "\n";
  }
  if (chain.omittedLaunches)
    out += "... " + std::to_string(chain.omittedLaunches) + " more launches not listed\n";
  return out;
}

}  // namespace sutra
