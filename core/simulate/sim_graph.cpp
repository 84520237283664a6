// SPDX-License-Identifier: MIT
#include "simulate/sim_graph.h"

#include <algorithm>
#include <string>

#include "chakra/collective.h"

namespace sutra {
namespace {

// What a point on a host thread is for; several requests at one time share one HostPoint node.
enum class PointRole : std::uint8_t {
  Anchor,
  Launch,
  BlockStart,
  BlockRelease,
  DepSignal,
  DepWaiter,
  IdleStart,
  WakeSignal,
  WakeWaiter
};

struct PointRequest {
  std::uint32_t track = 0;
  TimeNs time = 0;
  // Order at one timestamp: a release that ends there comes before the points that start there;
  // a zero-length blocking call releases after its own start.
  std::uint8_t phase = 1;
  PointRole role = PointRole::Anchor;
  std::uint32_t ref = 0;  // index into the input vector the request came from (or the lane)
  std::uint32_t node = kNoNode;
};

TimeNs median(std::vector<TimeNs> values) {
  if (values.empty()) return 0;
  auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}

std::string describe(const Trace& trace, EventId e) {
  if (e >= trace.events.size()) return "event " + std::to_string(e) + " (no such event)";
  const Event& ev = trace.events[e];
  return std::string(trace.name(ev)) + " at " + std::to_string(ev.start) + " ns";
}

}  // namespace

bool isSimulatedHostEvent(CategoryClass k) {
  return isFramework(k) || k == CategoryClass::Runtime || k == CategoryClass::Driver;
}

std::size_t SimGraph::deviceOpCount() const {
  std::size_t n = 0;
  for (const auto& node : nodes) n += node.kind == SimNodeKind::DeviceOp;
  return n;
}

SimGraph buildSimGraph(const Trace& trace, const SimGraphInputs& inputs) {
  SimGraph g;
  g.trace = &trace;
  const auto& events = trace.events;
  const EventId eventCount = static_cast<EventId>(events.size());

  // Tracks: streams for lanes with device ops, host threads for lanes with host work. A CPU
  // collective backend's worker thread (gloo's) runs the collectives as a stream runs NCCL
  // kernels: its "gloo:*" annotations are ops of a stream of their own, so that the ranks meet at
  // them.
  auto isOp = [&](const Event& e) {
    return isDeviceOp(e.klass) ||
           (e.klass == CategoryClass::UserAnnotation && chakra::isCommWorkerName(trace.name(e)));
  };
  g.trackOfLane.assign(trace.lanes.size(), kNoTrack);
  std::vector<char> workerLane(trace.lanes.size(), 0);  // a collective backend's worker thread
  std::size_t deviceOpCount = 0;
  for (LaneId l = 0; l < trace.lanes.size(); ++l) {
    bool device = false, host = false;
    TimeNs lastEnd = 0;
    for (const Event& e : trace.laneEvents(l)) {
      const bool op = isOp(e);
      device |= op;
      workerLane[l] |= op && !isDeviceOp(e.klass);
      deviceOpCount += op;
      host |= isSimulatedHostEvent(e.klass);
      lastEnd = std::max(lastEnd, e.end());
    }
    if (!device && !host) continue;
    g.trackOfLane[l] = static_cast<std::uint32_t>(g.tracks.size());
    g.tracks.push_back(SimTrack{l, device, {}, lastEnd, {}});
  }
  auto hostTrackOf = [&](EventId e) -> std::uint32_t {
    if (e >= eventCount) return kNoTrack;
    const auto t = g.trackOfLane[events[e].lane];
    return t != kNoTrack && !g.tracks[t].device ? t : kNoTrack;
  };
  auto isDeviceEvent = [&](EventId e) {
    return e < eventCount && isOp(events[e]) && g.trackOfLane[events[e].lane] != kNoTrack;
  };

  // The launch call of each device op (the first one given wins).
  std::vector<EventId> launchOf(eventCount, kNoEvent);
  std::uint64_t badLaunches = 0;
  std::string badLaunchExample;
  for (const auto& launch : inputs.launches) {
    if (!isDeviceEvent(launch.deviceOp) || hostTrackOf(launch.call) == kNoTrack) {
      if (badLaunches++ == 0) badLaunchExample = describe(trace, launch.call);
      continue;
    }
    if (launchOf[launch.deviceOp] == kNoEvent) launchOf[launch.deviceOp] = launch.call;
  }
  if (badLaunches)
    g.problems.add(Severity::Warning, "launch not between a host call and a device op", badLaunches,
                   badLaunchExample);

  // Host waits, grouped by their blocking call, kept only where the replay stays consistent: the
  // op waited on must be a device op launched before the call began (or launched by no one).
  std::vector<SimHostWait> waits;
  {
    std::uint64_t dropped = 0;
    std::string example;
    for (const auto& w : inputs.hostWaits) {
      const bool ok = hostTrackOf(w.waiter) != kNoTrack && isDeviceEvent(w.waitedOn) &&
                      (launchOf[w.waitedOn] == kNoEvent ||
                       events[launchOf[w.waitedOn]].start <= events[w.waiter].start);
      if (ok) {
        waits.push_back(w);
      } else if (dropped++ == 0) {
        example = describe(trace, w.waiter) + " waiting on " + describe(trace, w.waitedOn);
      }
    }
    if (dropped)
      g.problems.add(Severity::Warning, "sync dependency left out of the simulation", dropped,
                     example);
    std::sort(waits.begin(), waits.end(), [](const SimHostWait& a, const SimHostWait& b) {
      return a.waiter != b.waiter ? a.waiter < b.waiter : a.waitedOn < b.waitedOn;
    });
  }
  std::vector<SimThreadDep> threadDeps;
  {
    std::uint64_t dropped = 0;
    std::string example;
    for (const auto& d : inputs.threadDeps) {
      const auto a = hostTrackOf(d.waiter), b = hostTrackOf(d.waitedOn);
      if (a != kNoTrack && b != kNoTrack && a != b) {
        threadDeps.push_back(d);
      } else if (dropped++ == 0) {
        example = describe(trace, d.waiter) + " after " + describe(trace, d.waitedOn);
      }
    }
    if (dropped)
      g.problems.add(Severity::Info, "inter-thread dependency left out of the simulation", dropped,
                     example);
  }

  // Point requests on host threads.
  std::vector<PointRequest> requests;
  requests.reserve(inputs.launches.size() + 2 * waits.size() + 2 * threadDeps.size() +
                   g.tracks.size());
  for (std::uint32_t t = 0; t < g.tracks.size(); ++t) {
    const auto& track = g.tracks[t];
    if (track.device) continue;
    const Lane& lane = trace.lanes[track.lane];
    if (lane.endEvent == lane.firstEvent) continue;
    requests.push_back({t, events[lane.firstEvent].start, 1, PointRole::Anchor, t});
  }
  for (std::uint32_t i = 0; i < inputs.launches.size(); ++i) {
    const auto& launch = inputs.launches[i];
    if (!isDeviceEvent(launch.deviceOp) || launchOf[launch.deviceOp] != launch.call) continue;
    requests.push_back(
        {hostTrackOf(launch.call), events[launch.call].start, 1, PointRole::Launch, i});
  }
  for (std::uint32_t i = 0; i < waits.size(); ++i) {
    if (i > 0 && waits[i - 1].waiter == waits[i].waiter) continue;
    const Event& call = events[waits[i].waiter];
    const auto track = hostTrackOf(waits[i].waiter);
    requests.push_back({track, call.start, 1, PointRole::BlockStart, i});
    requests.push_back({track, call.end(), static_cast<std::uint8_t>(call.dur > 0 ? 0 : 2),
                        PointRole::BlockRelease, i});
  }
  for (std::uint32_t i = 0; i < threadDeps.size(); ++i) {
    const auto& d = threadDeps[i];
    requests.push_back(
        {hostTrackOf(d.waitedOn), events[d.waitedOn].end(), 1, PointRole::DepSignal, i});
    requests.push_back({hostTrackOf(d.waiter), events[d.waiter].start, 1, PointRole::DepWaiter, i});
  }
  // Wake-ups: a thread that resumes after an idle gap (or starts) was woken by another thread: it
  // follows the latest moment of the thread active last before it (the latest event start, or the
  // latest end of a top-level event), by the measured delay. Without this, idle time would replay
  // as CPU time and a thread that started late would stay pinned to its measured start. A CPU
  // collective's worker thread (gloo's) wakes a thread by finishing a collective: DDP's reducer
  // waits for each bucket's all-reduce inside the autograd engine, where the trace shows no wait
  // call, only the idle main thread resuming as the worker's op ends.
  struct Wakeup {
    std::uint32_t track, signalTrack;
    TimeNs time, signalTime, idleStart;  // idleStart: kNoAnchor for a thread's first event
    EventId signalOp = kNoEvent;         // a worker's op whose end woke it (signalTrack unused)
  };
  std::vector<Wakeup> wakeups;
  if (inputs.wakeupGapNs > 0) {
    std::vector<std::vector<TimeNs>> topEnds(g.tracks.size());     // running max, so sorted
    std::vector<std::vector<EventId>> topEndOps(g.tracks.size());  // workers: whose end it is
    std::vector<std::uint32_t> hostTracks, workerTracks;
    for (std::uint32_t t = 0; t < g.tracks.size(); ++t) {
      const bool worker = g.tracks[t].device && workerLane[g.tracks[t].lane];
      if (g.tracks[t].device && !worker) continue;
      (worker ? workerTracks : hostTracks).push_back(t);
      TimeNs running = kNoAnchor;
      EventId runningOp = kNoEvent;
      for (EventId e = trace.lanes[g.tracks[t].lane].firstEvent;
           e < trace.lanes[g.tracks[t].lane].endEvent; ++e) {
        if (events[e].parent != kNoEvent || (worker && !isOp(events[e]))) continue;
        if (events[e].end() >= running) {
          running = events[e].end();
          runningOp = e;
        }
        topEnds[t].push_back(running);
        if (worker) topEndOps[t].push_back(runningOp);
      }
    }
    auto latestBefore = [&](std::uint32_t u, TimeNs time) {
      TimeNs best = kNoAnchor;
      const Lane& lane = trace.lanes[g.tracks[u].lane];
      const EventId first = trace.lowerBound(g.tracks[u].lane, time);
      if (first > lane.firstEvent) best = events[first - 1].start;
      const auto& ends = topEnds[u];
      auto it = std::lower_bound(ends.begin(), ends.end(), time);
      if (it != ends.begin()) best = std::max(best, *(it - 1));
      return best;
    };
    for (const auto t : hostTracks) {
      TimeNs running = kNoAnchor;
      for (const Event& e : trace.laneEvents(g.tracks[t].lane)) {
        if (e.parent != kNoEvent) continue;
        if (running == kNoAnchor || e.start - running >= inputs.wakeupGapNs) {
          Wakeup w{t, kNoTrack, e.start, kNoAnchor, running};
          for (const auto u : hostTracks) {
            if (u == t) continue;
            const TimeNs b = latestBefore(u, e.start);
            if (b != kNoAnchor && (w.signalTrack == kNoTrack || b > w.signalTime)) {
              w.signalTrack = u;
              w.signalTime = b;
            }
          }
          // A worker's op that ended within the idle gap, later than any other thread's moment.
          for (const auto u : workerTracks) {
            const auto& ends = topEnds[u];
            auto it = std::lower_bound(ends.begin(), ends.end(), e.start);
            if (it == ends.begin()) continue;
            const auto k = static_cast<std::size_t>(it - ends.begin()) - 1;
            if (running != kNoAnchor && ends[k] < running) continue;
            if (w.signalTrack == kNoTrack || ends[k] > w.signalTime) {
              w.signalTrack = u;
              w.signalTime = ends[k];
              w.signalOp = topEndOps[u][k];
            }
          }
          if (w.signalTrack != kNoTrack) wakeups.push_back(w);
        }
        running = std::max(running, e.end());
      }
    }
    // A wait inside a Python frame or an annotation: DDP's reducer waits for its buckets inside
    // backward's frame, within ProfilerStep#N, so the thread is never idle at its top level. Where
    // the thread's work (ops, runtime calls, annotations with nothing inside) pauses for the gap or
    // longer while a worker's collective runs, the collective whose end is nearest the resume
    // woke it. The worker's annotation may close after the waiter resumed (the work is marked done
    // inside it, and on a busy machine the worker runs again only later): an end up to a quarter
    // of the pause after the resume counts too, each collective waking one pause at most.
    if (!workerTracks.empty()) {
      std::vector<std::pair<std::uint32_t, TimeNs>> found;  // (track, time) woken already
      for (const auto& w : wakeups) found.emplace_back(w.track, w.time);
      std::sort(found.begin(), found.end());
      std::vector<std::vector<char>> used(g.tracks.size());
      for (const auto u : workerTracks) used[u].assign(topEnds[u].size(), 0);
      for (const auto t : hostTracks) {
        TimeNs running = kNoAnchor;
        const Lane& lane = trace.lanes[g.tracks[t].lane];
        for (EventId id = lane.firstEvent; id < lane.endEvent; ++id) {
          const Event& e = events[id];
          const bool container = id + 1 < lane.endEvent && events[id + 1].parent == id;
          if (e.klass == CategoryClass::PythonFunction ||
              (e.klass == CategoryClass::UserAnnotation && container))
            continue;
          if (running != kNoAnchor && e.start - running >= inputs.wakeupGapNs &&
              !std::binary_search(found.begin(), found.end(), std::make_pair(t, e.start))) {
            const TimeNs slack = std::max(inputs.wakeupGapNs, (e.start - running) / 4);
            Wakeup w{t, kNoTrack, e.start, kNoAnchor, running};
            std::size_t bestIndex = 0;
            for (const auto u : workerTracks) {
              const auto& ends = topEnds[u];
              for (auto k = static_cast<std::size_t>(
                       std::upper_bound(ends.begin(), ends.end(), running) - ends.begin());
                   k < ends.size() && ends[k] <= e.start + slack; ++k) {
                if (used[u][k] || events[topEndOps[u][k]].start >= e.start ||
                    e.start - ends[k] > slack)
                  continue;
                const auto distance = [&](TimeNs end) { return std::abs(end - e.start); };
                if (w.signalTrack == kNoTrack || distance(ends[k]) < distance(w.signalTime)) {
                  w.signalTrack = u;
                  w.signalTime = ends[k];
                  w.signalOp = topEndOps[u][k];
                  bestIndex = k;
                }
              }
            }
            if (w.signalTrack != kNoTrack) {
              used[w.signalTrack][bestIndex] = 1;
              wakeups.push_back(w);
            }
          }
          running = running == kNoAnchor ? e.end() : std::max(running, e.end());
        }
      }
    }
  }
  for (std::uint32_t i = 0; i < wakeups.size(); ++i) {
    const auto& w = wakeups[i];
    if (w.idleStart != kNoAnchor)
      requests.push_back({w.track, w.idleStart, 1, PointRole::IdleStart, i});
    if (w.signalOp == kNoEvent)
      requests.push_back({w.signalTrack, w.signalTime, 1, PointRole::WakeSignal, i});
    requests.push_back({w.track, w.time, 1, PointRole::WakeWaiter, i});
  }

  std::sort(requests.begin(), requests.end(), [](const PointRequest& a, const PointRequest& b) {
    if (a.track != b.track) return a.track < b.track;
    if (a.time != b.time) return a.time < b.time;
    if (a.phase != b.phase) return a.phase < b.phase;
    return a.ref < b.ref;
  });

  // Host nodes: plain points at one time merge; each release is a node of its own.
  g.nodes.reserve(requests.size() + deviceOpCount);
  g.edges.reserve(requests.size() + 2 * deviceOpCount + waits.size() + inputs.streamWaits.size() +
                  threadDeps.size());
  auto addNode = [&](SimNode node) {
    g.nodes.push_back(node);
    return static_cast<std::uint32_t>(g.nodes.size() - 1);
  };
  for (auto& r : requests) {
    auto& trackNodes = g.tracks[r.track].nodes;
    if (r.role == PointRole::BlockRelease) {
      SimNode node;
      node.measured = r.time;
      node.event = waits[r.ref].waiter;
      node.track = r.track;
      node.kind = SimNodeKind::HostRelease;
      r.node = addNode(node);
      trackNodes.push_back(r.node);
      continue;
    }
    if (!trackNodes.empty()) {
      const SimNode& last = g.nodes[trackNodes.back()];
      if (last.kind == SimNodeKind::HostPoint && last.measured == r.time) {
        r.node = trackNodes.back();
        continue;
      }
    }
    SimNode node;
    node.measured = r.time;
    node.track = r.track;
    if (trackNodes.empty()) node.anchor = r.time;
    r.node = addNode(node);
    trackNodes.push_back(r.node);
  }

  // Per-input lookups of the nodes just made.
  std::vector<std::uint32_t> launchNode(inputs.launches.size(), kNoNode);
  std::vector<std::uint32_t> blockStartNode(waits.size(), kNoNode),
      releaseNode(waits.size(), kNoNode);
  std::vector<std::uint32_t> signalNode(threadDeps.size(), kNoNode),
      waiterNode(threadDeps.size(), kNoNode);
  std::vector<std::uint32_t> wakeSignalNode(wakeups.size(), kNoNode),
      wakeWaiterNode(wakeups.size(), kNoNode);
  for (const auto& r : requests) {
    switch (r.role) {
      case PointRole::Anchor:
        break;
      case PointRole::Launch:
        launchNode[r.ref] = r.node;
        break;
      case PointRole::BlockStart:
        blockStartNode[r.ref] = r.node;
        break;
      case PointRole::BlockRelease:
        releaseNode[r.ref] = r.node;
        break;
      case PointRole::DepSignal:
        signalNode[r.ref] = r.node;
        break;
      case PointRole::DepWaiter:
        waiterNode[r.ref] = r.node;
        break;
      case PointRole::IdleStart:
        break;
      case PointRole::WakeSignal:
        wakeSignalNode[r.ref] = r.node;
        break;
      case PointRole::WakeWaiter:
        wakeWaiterNode[r.ref] = r.node;
        break;
    }
  }
  requests = {};
  std::vector<std::uint32_t> nodeOfCall(eventCount, kNoNode);
  for (std::uint32_t i = 0; i < inputs.launches.size(); ++i)
    if (launchNode[i] != kNoNode) nodeOfCall[inputs.launches[i].call] = launchNode[i];

  // Device nodes, stream by stream in start order.
  g.nodeOfDeviceOp.assign(eventCount, kNoNode);
  for (std::uint32_t t = 0; t < g.tracks.size(); ++t) {
    auto& track = g.tracks[t];
    if (!track.device) continue;
    const Lane& lane = trace.lanes[track.lane];
    for (EventId e = lane.firstEvent; e < lane.endEvent; ++e) {
      if (!isOp(events[e])) continue;
      SimNode node;
      node.measured = events[e].start;
      node.span = std::max<TimeNs>(0, events[e].dur);
      node.event = e;
      node.launchCall = launchOf[e];
      node.track = t;
      node.kind = SimNodeKind::DeviceOp;
      if (node.launchCall == kNoEvent || nodeOfCall[node.launchCall] == kNoNode) {
        node.launchCall = kNoEvent;
        node.anchor = node.measured;
      }
      g.nodeOfDeviceOp[e] = addNode(node);
      track.nodes.push_back(g.nodeOfDeviceOp[e]);
    }
  }

  // Edges.
  auto addEdge = [&](std::uint32_t from, std::uint32_t to, TimeNs weight, SimEdgeKind kind) {
    g.edges.push_back({from, to, weight, kind});
  };
  auto endOf = [&](std::uint32_t n) { return g.nodes[n].measured + g.nodes[n].span; };

  // Host chains. A release's CPU part: the whole call where it did not wait (what it waited on had
  // ended before it began); else the time from the last end waited on to the release (the wake-up),
  // which a faster device cannot remove.
  std::vector<TimeNs> releaseCpu(g.nodes.size(), 0);
  for (std::uint32_t i = 0; i < waits.size(); ++i) {
    if (releaseNode[i] == kNoNode) continue;
    std::uint32_t j = i;
    TimeNs lastWaitedEnd = kNoAnchor;
    for (; j < waits.size() && waits[j].waiter == waits[i].waiter; ++j)
      lastWaitedEnd = std::max(lastWaitedEnd, events[waits[j].waitedOn].end());
    const Event& call = events[waits[i].waiter];
    const TimeNs tail = call.end() - lastWaitedEnd;
    const bool waited = lastWaitedEnd > call.start;
    releaseCpu[releaseNode[i]] = waited ? std::clamp<TimeNs>(tail, 0, call.dur) : call.dur;
    // Every dependency gets the same tail, capped at the call's length (a call that did not wait
    // costs at most its measured length after the op it waits on ends).
    const TimeNs weight = std::min(tail, call.dur);
    for (std::uint32_t k = i; k < j; ++k)
      addEdge(g.nodeOfDeviceOp[waits[k].waitedOn], releaseNode[i], weight, SimEdgeKind::HostSync);
    ++g.hostWaitsUsed;
  }
  std::vector<char> woken(g.nodes.size(), 0);
  for (std::uint32_t i = 0; i < wakeups.size(); ++i) {
    const auto waiter = wakeWaiterNode[i];
    woken[waiter] = 1;
    g.nodes[waiter].anchor = kNoAnchor;     // a thread's first event follows what woke it
    if (wakeups[i].signalOp != kNoEvent) {  // a worker's op: from its end
      const auto op = g.nodeOfDeviceOp[wakeups[i].signalOp];
      addEdge(op, waiter, g.nodes[waiter].measured - endOf(op), SimEdgeKind::InterThread);
      continue;
    }
    const auto signal = wakeSignalNode[i];
    addEdge(signal, waiter, g.nodes[waiter].measured - g.nodes[signal].measured,
            SimEdgeKind::InterThread);
  }
  g.wakeupsInferred = wakeups.size();
  for (const auto& track : g.tracks) {
    if (track.device) continue;
    for (std::size_t k = 1; k < track.nodes.size(); ++k) {
      const auto prev = track.nodes[k - 1], cur = track.nodes[k];
      const SimNode& node = g.nodes[cur];
      TimeNs weight = node.measured - g.nodes[prev].measured;
      if (node.kind == SimNodeKind::HostRelease) weight = std::min(weight, releaseCpu[cur]);
      if (woken[cur]) weight = 0;  // the idle gap before a wake-up is no CPU work
      addEdge(prev, cur, weight, SimEdgeKind::Cpu);
    }
  }

  // Stream waits that can be used: the op waited on is a device op of another stream that started
  // no later than the waiter.
  std::vector<SimStreamWait> streamWaits;
  std::vector<TimeNs> waitedEnd(g.nodes.size(),
                                kNoAnchor);  // per waiter node: latest end waited on
  {
    std::uint64_t dropped = 0;
    std::string example;
    for (const auto& w : inputs.streamWaits) {
      const bool ok = isDeviceEvent(w.waiter) && isDeviceEvent(w.waitedOn) &&
                      g.nodes[g.nodeOfDeviceOp[w.waiter]].track !=
                          g.nodes[g.nodeOfDeviceOp[w.waitedOn]].track &&
                      events[w.waitedOn].start <= events[w.waiter].start;
      if (!ok) {
        if (dropped++ == 0)
          example = describe(trace, w.waiter) + " waiting on " + describe(trace, w.waitedOn);
        continue;
      }
      streamWaits.push_back(w);
      auto& latest = waitedEnd[g.nodeOfDeviceOp[w.waiter]];
      latest = std::max(latest, events[w.waitedOn].end());
    }
    if (dropped)
      g.problems.add(Severity::Warning, "stream wait left out of the simulation", dropped, example);
  }
  // What held an op back besides its launch: the previous op on its stream, or a stream wait.
  auto blockerOf = [&](const SimTrack& track, std::size_t k) {
    TimeNs blocker = waitedEnd[track.nodes[k]];
    if (k > 0) blocker = std::max(blocker, endOf(track.nodes[k - 1]));
    return blocker;
  };

  // Device chains. An op whose stream (or a stream it waited on) was still busy when its launch
  // began was queued: its start follows what held it's end by the measured turnaround, and its
  // launch latency (hidden in the queue) is the stream's typical one. Otherwise the launch decides
  // its start, and the latency is the measured one.
  std::vector<std::vector<TimeNs>> latencies(g.tracks.size());
  std::vector<TimeNs> allLatencies;
  for (std::uint32_t t = 0; t < g.tracks.size(); ++t) {
    const auto& track = g.tracks[t];
    if (!track.device) continue;
    for (std::size_t k = 0; k < track.nodes.size(); ++k) {
      const SimNode& node = g.nodes[track.nodes[k]];
      if (node.launchCall == kNoEvent) continue;
      const TimeNs callStart = events[node.launchCall].start;
      if (blockerOf(track, k) <= callStart) latencies[t].push_back(node.measured - callStart);
    }
    allLatencies.insert(allLatencies.end(), latencies[t].begin(), latencies[t].end());
  }
  const TimeNs globalTypical = median(std::move(allLatencies));
  for (std::uint32_t t = 0; t < g.tracks.size(); ++t) {
    const auto& track = g.tracks[t];
    if (!track.device) continue;
    const TimeNs typical = latencies[t].empty() ? globalTypical : median(std::move(latencies[t]));
    for (std::size_t k = 0; k < track.nodes.size(); ++k) {
      const auto cur = track.nodes[k];
      const SimNode& node = g.nodes[cur];
      const TimeNs blocker = blockerOf(track, k);
      bool queued = node.launchCall == kNoEvent;  // no launch: whatever precedes it may hold it
      if (node.launchCall != kNoEvent) {
        const TimeNs callStart = events[node.launchCall].start;
        queued = blocker > callStart;
        const TimeNs measuredLatency = node.measured - callStart;
        addEdge(nodeOfCall[node.launchCall], cur,
                queued ? std::min(measuredLatency, typical) : measuredLatency,
                isDeviceOp(events[node.event].klass) ? SimEdgeKind::LaunchLatency
                                                     : SimEdgeKind::WorkerIssue);
      }
      if (k > 0) {
        const auto prev = track.nodes[k - 1];
        const TimeNs gap = node.measured - endOf(prev);
        addEdge(prev, cur, queued && endOf(prev) == blocker ? gap : std::min<TimeNs>(gap, 0),
                SimEdgeKind::StreamOrder);
      }
    }
  }

  // Stream Wait Event: the op waited on that held the waiter back keeps its measured turnaround.
  for (const auto& w : streamWaits) {
    const auto from = g.nodeOfDeviceOp[w.waitedOn], to = g.nodeOfDeviceOp[w.waiter];
    const SimNode& node = g.nodes[to];
    const TimeNs gap = node.measured - endOf(from);
    const bool holds =
        endOf(from) == waitedEnd[to] &&
        (node.launchCall == kNoEvent || waitedEnd[to] > events[node.launchCall].start);
    addEdge(from, to, holds ? gap : std::min<TimeNs>(gap, 0), SimEdgeKind::StreamWaitEvent);
    ++g.streamWaitsUsed;
  }
  for (std::uint32_t i = 0; i < threadDeps.size(); ++i) {
    const auto from = signalNode[i], to = waiterNode[i];
    addEdge(from, to, std::min<TimeNs>(0, g.nodes[to].measured - g.nodes[from].measured),
            SimEdgeKind::InterThread);
    ++g.threadDepsUsed;
  }

  finishSimGraph(g);
  return g;
}

void finishSimGraph(SimGraph& g) {
  for (auto& track : g.tracks) {
    track.times.reserve(track.nodes.size());
    for (const auto n : track.nodes) track.times.push_back(g.nodes[n].measured);
  }

  // CSR by source.
  const std::size_t n = g.nodes.size();
  g.edgeOffsets.assign(n + 1, 0);
  g.inDegree.assign(n, 0);
  for (const auto& e : g.edges) {
    ++g.edgeOffsets[e.from + 1];
    ++g.inDegree[e.to];
  }
  for (std::size_t i = 0; i < n; ++i) g.edgeOffsets[i + 1] += g.edgeOffsets[i];
  std::vector<SimEdge> sorted(g.edges.size());
  std::vector<std::uint32_t> fill(g.edgeOffsets.begin(), g.edgeOffsets.end() - 1);
  for (const auto& e : g.edges) sorted[fill[e.from]++] = e;
  g.edges = std::move(sorted);
}

}  // namespace sutra
