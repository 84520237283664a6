// SPDX-License-Identifier: MIT
#include "chakra/measured_gaps.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <string_view>

#include "chakra/collective.h"

namespace sutra::chakra {
namespace {

constexpr TimeNs kHalfMicro = 500;  // a gap shorter than this rounds to a 0 us node
constexpr int kMaxAncestry = 256;   // guards the parent walk against a malformed parent cycle
constexpr TimeNs kNoTime = std::numeric_limits<TimeNs>::min();
// A thread idle this long while a collective backend's worker ran a collective may have waited
// for it (the simulator's wake-up gap, sim_graph.h).
constexpr TimeNs kWorkerWaitPause = 1'000'000;

bool isRootOp(const LinkedTrace& linked, const LinkedOp& op) {
  const EtNode* et = linked.etNode(op);
  return et && (et->isRoot() || et->isThreadRoot());
}

bool measured(const LinkedOp& op) { return op.ts > 0; }

// The ops of one thread that are not inside another op, by start, with their ends.
struct ThreadOps {
  std::vector<std::uint32_t> ops;
  std::vector<std::pair<TimeNs, std::uint32_t>> byEnd;  // (end, op), ascending
  std::vector<std::pair<TimeNs, TimeNs>> busy;          // merged [start, end) intervals
  std::vector<TimeNs> busyBefore;                       // busy time before interval k
};

// Time in [from, to) that `t` spent in its ops.
TimeNs busyTime(const ThreadOps& t, TimeNs from, TimeNs to) {
  if (to <= from || t.busy.empty()) return 0;
  auto covered = [&](TimeNs x) {  // busy time before x
    auto it = std::upper_bound(t.busy.begin(), t.busy.end(), x,
                               [](TimeNs v, const auto& iv) { return v < iv.first; });
    if (it == t.busy.begin()) return TimeNs{0};
    const std::size_t k = static_cast<std::size_t>(it - t.busy.begin()) - 1;
    return t.busyBefore[k] + std::min(x, t.busy[k].second) - t.busy[k].first;
  };
  return covered(to) - covered(from);
}

// The op of `t` with the latest end in (from, to], or none.
std::optional<std::uint32_t> lastEndingIn(const ThreadOps& t, TimeNs from, TimeNs to) {
  auto it = std::upper_bound(t.byEnd.begin(), t.byEnd.end(), to,
                             [](TimeNs v, const auto& e) { return v < e.first; });
  if (it == t.byEnd.begin()) return std::nullopt;
  --it;
  if (it->first <= from) return std::nullopt;
  return it->second;
}

}  // namespace

bool isAnnotationOp(const LinkedTrace& linked, const LinkedOp& op) {
  if (!op.isCpu()) return false;
  const std::string_view name = op.name;
  if (name.starts_with("ProfilerStep#")) return true;
  if (name.size() > 4 && name.starts_with("## ") && name.ends_with(" ##")) return true;
  if (op.annotation) return true;
  const Event* e = linked.kinetoEventOf(op);
  return e && e->klass == CategoryClass::UserAnnotation;
}

bool isCollectiveWorkerOp(const LinkedTrace& linked, const LinkedOp& op) {
  if (!op.isCpu() || !isCommWorkerName(op.name)) return false;
  const Event* e = linked.kinetoEventOf(op);
  return !e || e->klass == CategoryClass::UserAnnotation;
}

MeasuredGaps measureGaps(const LinkedTrace& linked, const MeasureGapsOptions& options) {
  const auto& ops = linked.ops;
  const std::size_t n = ops.size();
  MeasuredGaps out;
  out.ownDur.assign(n, 0);
  std::vector<char> annotation(n, 0), root(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const LinkedOp& op = ops[i];
    root[i] = isRootOp(linked, op);
    if (op.isDevice())
      out.ownDur[i] = op.inclusiveDur;
    else
      annotation[i] = isAnnotationOp(linked, op);
  }

  // An op is on its thread's top level when every op above it is an annotation or a root.
  auto parentOf = [&](std::size_t i) -> std::int64_t {
    const auto& o = ops[i];
    if (o.parent < 0 || o.parent == o.id) return -1;
    return linked.indexOf(o.parent);
  };
  auto topLevel = [&](std::size_t i) {
    int guard = 0;
    for (auto p = parentOf(i); p >= 0 && guard++ < kMaxAncestry;
         p = parentOf(static_cast<std::size_t>(p)))
      if (!annotation[static_cast<std::size_t>(p)] && !root[static_cast<std::size_t>(p)])
        return false;
    return true;
  };

  TimeNs base = 0;
  for (const auto& op : ops)
    if (measured(op) && (base == 0 || op.ts < base)) base = op.ts;

  auto endOf = [&](std::uint32_t i) { return ops[i].ts + ops[i].inclusiveDur; };
  std::map<std::int64_t, ThreadOps> threads;
  auto collect = [&] {
    threads.clear();
    ThreadOps* thread = nullptr;  // the last op's: ops come in runs of one thread
    std::int64_t threadTid = 0;
    for (std::size_t i = 0; i < n; ++i) {
      const LinkedOp& op = ops[i];
      if (!op.isCpu() || !measured(op) || annotation[i] || root[i] || !topLevel(i)) continue;
      if (!thread || op.tid != threadTid) thread = &threads[threadTid = op.tid];
      thread->ops.push_back(static_cast<std::uint32_t>(i));
    }
    for (auto& [tid, t] : threads) {
      std::stable_sort(t.ops.begin(), t.ops.end(),
                       [&](auto a, auto b) { return ops[a].ts < ops[b].ts; });
      t.byEnd.reserve(t.ops.size());
      for (auto i : t.ops) {
        t.byEnd.emplace_back(endOf(i), i);
        if (!t.busy.empty() && ops[i].ts <= t.busy.back().second)
          t.busy.back().second = std::max(t.busy.back().second, endOf(i));
        else
          t.busy.emplace_back(ops[i].ts, endOf(i));
      }
      std::sort(t.byEnd.begin(), t.byEnd.end());
      TimeNs sum = 0;
      t.busyBefore.reserve(t.busy.size());
      for (const auto& [s, e] : t.busy) {
        t.busyBefore.push_back(sum);
        sum += e - s;
      }
    }
  };
  collect();

  // An annotation with no op inside it is the only record of what its thread did (gloo's
  // all_reduce on its own thread, a record_function around Python code): it is work of its own,
  // unless other threads' ops ran for most of it (then its thread waited for them).
  std::vector<char> opBelow(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (!ops[i].isCpu() || annotation[i] || root[i]) continue;
    int guard = 0;
    for (auto p = parentOf(i); p >= 0 && guard++ < kMaxAncestry;
         p = parentOf(static_cast<std::size_t>(p))) {
      auto& mark = opBelow[static_cast<std::size_t>(p)];
      if (mark) break;
      mark = 1;
    }
  }
  // A collective backend's worker op (gloo's all_reduce) is the collective's work whatever ran
  // beside it: the communication a graph simulator costs.
  std::vector<std::uint32_t> workerOps;
  bool anyWork = false;
  for (std::size_t i = 0; i < n; ++i) {
    const LinkedOp& op = ops[i];
    if (!annotation[i] || opBelow[i] || !measured(op) || !topLevel(i)) continue;
    if (isCollectiveWorkerOp(linked, op)) {
      annotation[i] = 0;
      anyWork = true;
      workerOps.push_back(static_cast<std::uint32_t>(i));
      continue;
    }
    TimeNs othersBusy = 0;
    for (const auto& [tid, t] : threads)
      if (tid != op.tid) othersBusy += busyTime(t, op.ts, op.ts + op.inclusiveDur);
    if (2 * othersBusy >= op.inclusiveDur) continue;
    annotation[i] = 0;
    anyWork = true;
  }
  if (anyWork) collect();

  // A node's own time is the op's time up to its first child (a leaf: all of it), less its sync
  // waits; the op's time between and after its children follows them in its thread's order as
  // host gaps, so that each child starts when it was measured to.
  std::vector<TimeNs> firstChild(n, kNoTime);
  for (std::size_t i = 0; i < n; ++i) {
    if (!ops[i].isCpu() || !measured(ops[i]) || root[i]) continue;
    const auto p = parentOf(i);
    if (p < 0) continue;
    auto& first = firstChild[static_cast<std::size_t>(p)];
    if (first == kNoTime || ops[i].ts < first) first = ops[i].ts;
  }
  // The measured time each node stands for, in firstChild's place (one array less to touch).
  std::vector<TimeNs>& piece = firstChild;
  for (std::size_t i = 0; i < n; ++i) {
    const LinkedOp& op = ops[i];
    const TimeNs first = firstChild[i];
    piece[i] = 0;
    if (!op.isCpu() || root[i]) continue;
    if (annotation[i]) continue;
    piece[i] =
        first == kNoTime ? op.inclusiveDur : std::clamp<TimeNs>(first - op.ts, 0, op.inclusiveDur);
    const TimeNs mine = std::min(piece[i], op.exclusiveDur);
    const TimeNs blocked = std::min(op.blockedDur, mine);
    out.ownDur[i] = mine - blocked;
    out.blockedNs += blocked;
  }

  // Each thread's nodes in the order the converter chains them (by id: the ET's order), each
  // standing for its piece of measured time (an annotation for a moment); what lies between
  // the end of one piece and the start of the next is a gap.
  std::map<std::int64_t, std::vector<std::uint32_t>> chains;
  std::size_t chained = 0;
  {
    std::vector<std::uint32_t>* chain = nullptr;  // the last op's thread's
    std::int64_t chainTid = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!ops[i].isCpu() || !measured(ops[i]) || root[i]) continue;
      if (!chain || ops[i].tid != chainTid) chain = &chains[chainTid = ops[i].tid];
      chain->push_back(static_cast<std::uint32_t>(i));
      ++chained;
    }
  }
  out.host.reserve(chained);  // a gap before each op at most
  // Syncs of annotations (a cudaDeviceSynchronize called between ops, inside ProfilerStep#N):
  // their wait is in no op's own time but in a gap, which then waits on the device op.
  std::map<std::int64_t, std::vector<std::uint32_t>> annotationSyncs;
  for (std::size_t i = 0; i < n; ++i)
    if (annotation[i] && measured(ops[i]) && !ops[i].syncDeps.empty())
      annotationSyncs[ops[i].tid].push_back(static_cast<std::uint32_t>(i));
  std::sort(workerOps.begin(), workerOps.end(),
            [&](auto a, auto b) { return ops[a].ts < ops[b].ts; });
  std::vector<std::int64_t> workerTids;
  for (const auto w : workerOps) workerTids.push_back(ops[w].tid);
  std::sort(workerTids.begin(), workerTids.end());
  std::map<std::uint32_t, TimeNs> workerDone;  // worker ops taken as done at a waiter's resume
  for (const auto& [tid, chain] : chains) {
    const bool waitsForWorkers =
        !workerOps.empty() && !std::binary_search(workerTids.begin(), workerTids.end(), tid);
    TimeNs prevEnd = base;
    TimeNs carry = 0;
    for (const auto i : chain) {
      const LinkedOp& op = ops[i];
      const TimeNs g0 = prevEnd, g1 = op.ts;
      prevEnd = std::max(prevEnd, op.ts + piece[i]);
      if (g1 <= g0) continue;
      // Waits: the inter-thread dependencies the linker found (on ops that ended in time).
      HostGap gap;
      gap.beforeOp = i;
      TimeNs ready = g0;
      for (const auto id : op.interThreadDeps) {
        const auto d = linked.indexOf(id);
        if (d < 0) continue;
        const LinkedOp* dep = &ops[static_cast<std::size_t>(d)];
        if (!measured(*dep) || dep->ts + dep->inclusiveDur > g1) continue;
        gap.waitsOn.push_back(static_cast<std::uint32_t>(d));
        ready = std::max(ready, endOf(static_cast<std::uint32_t>(d)));
      }
      if (auto syncs = annotationSyncs.find(tid); syncs != annotationSyncs.end()) {
        for (const auto a : syncs->second) {
          if (ops[a].ts >= g1 || endOf(a) <= g0) continue;  // the annotation is not around it
          for (const auto id : ops[a].syncDeps) {
            const auto waited = linked.indexOf(id);
            if (waited < 0 || !measured(ops[static_cast<std::size_t>(waited)])) continue;
            const TimeNs end = endOf(static_cast<std::uint32_t>(waited));
            if (end <= g0 || end > g1) continue;
            gap.waitsOn.push_back(static_cast<std::uint32_t>(waited));
            ready = std::max(ready, end);
          }
        }
      }
      // A pause while a collective backend's worker ran collectives (DDP's reducer waits for its
      // buckets inside backward, with no wait call in the trace): the thread waited for those
      // that ended in it, or soon after it resumed (the work is marked done inside the worker's
      // annotation, which on a busy machine can close later: the collective is then taken as
      // done at the resume).
      if (waitsForWorkers && g1 - g0 >= kWorkerWaitPause) {
        const TimeNs slack = std::max(kWorkerWaitPause, (g1 - g0) / 4);
        for (const auto w : workerOps) {
          if (ops[w].ts >= g1) break;
          const TimeNs end = endOf(w);
          if (end <= g0 || end > (options.collectivesDoneAtResume ? g1 + slack : g1)) continue;
          if (std::find(gap.waitsOn.begin(), gap.waitsOn.end(), w) == gap.waitsOn.end())
            gap.waitsOn.push_back(w);
          ready = std::max(ready, std::min(end, g1));
          if (end > g1) {
            auto [at, fresh] = workerDone.emplace(w, g1);
            if (!fresh) at->second = std::min(at->second, g1);
          }
        }
      }
      // One other thread busy for most of the gap, and no other: the thread waited for it
      // (main and autograd threads take turns). Where several ran, the gap is the thread's own:
      // a server's workers run side by side, and a wait inferred on one of them is a guess.
      TimeNs othersBusy = 0;
      int busyThreads = 0;
      std::optional<std::uint32_t> last;
      for (const auto& [otherTid, other] : threads) {
        if (otherTid == tid) continue;
        const TimeNs busy = busyTime(other, g0, g1);
        if (busy == 0) continue;
        othersBusy = busy;
        ++busyThreads;
        last = lastEndingIn(other, g0, g1);
      }
      if (busyThreads == 1 && last && 2 * othersBusy >= g1 - g0) {
        if (std::find(gap.waitsOn.begin(), gap.waitsOn.end(), *last) == gap.waitsOn.end())
          gap.waitsOn.push_back(*last);
        ready = std::max(ready, endOf(*last));
      }
      const TimeNs own = g1 - ready + carry;
      if (own < kHalfMicro) {
        carry = own;
        if (gap.waitsOn.empty()) continue;
      } else {
        carry = 0;
      }
      gap.start = g1 - own;
      gap.duration = own < kHalfMicro ? 0 : own;
      out.host.push_back(std::move(gap));
    }
  }

  for (const auto& [w, done] : workerDone)
    out.ownDur[w] = std::min(out.ownDur[w], std::max<TimeNs>(0, done - ops[w].ts));

  // Device gaps, stream by stream.
  std::map<std::pair<std::int32_t, std::int64_t>, std::vector<std::uint32_t>> streams;
  std::size_t onStreams = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (ops[i].isDevice() && ops[i].ts > 0) {
      streams[{ops[i].device, ops[i].stream}].push_back(static_cast<std::uint32_t>(i));
      ++onStreams;
    }
  out.device.reserve(onStreams);
  for (auto& [key, chain] : streams) {
    std::stable_sort(chain.begin(), chain.end(),
                     [&](auto a, auto b) { return ops[a].ts < ops[b].ts; });
    TimeNs prevEnd = kNoTime, carry = 0;
    for (const auto i : chain) {
      const LinkedOp& op = ops[i];
      TimeNs ready = prevEnd;
      prevEnd = std::max(prevEnd, endOf(i));
      if (const LinkedOp* launcher = op.parent >= 0 ? linked.find(op.parent) : nullptr;
          launcher && measured(*launcher))
        ready = std::max(ready, launcher->ts + launcher->inclusiveDur);
      for (const auto id : op.syncDeps)
        if (const LinkedOp* dep = linked.find(id); dep && dep->ts > 0)
          ready = std::max(ready, dep->ts + dep->inclusiveDur);
      if (ready == kNoTime || op.ts <= ready) continue;
      const TimeNs own = op.ts - ready + carry;
      if (own < kHalfMicro) {
        carry = own;
        continue;
      }
      carry = 0;
      out.device.push_back({i, op.ts - own, own});
    }
  }
  return out;
}

}  // namespace sutra::chakra
