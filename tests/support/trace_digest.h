// SPDX-License-Identifier: MIT
#pragma once
// A 64-bit digest (FNV-1a) of everything a reader puts in a Trace: events with their names,
// categories, ids, lanes, nesting and raw args text, flows, instants, counters, lanes, metadata
// and problems. Two loads of the same file have the same digest exactly when their models are
// the same, field by field, in the same order; the reader's speed work is checked with it.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <vector>

#include "model/trace.h"

namespace sutra::test {

class Digest {
 public:
  void bytes(const void* data, std::size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i) hash_ = (hash_ ^ p[i]) * 0x100000001b3ULL;
  }
  template <typename T>
  requires std::is_arithmetic_v<T> || std::is_enum_v<T>
  void value(T v) { bytes(&v, sizeof v); }
  void text(std::string_view s) {
    value(s.size());
    bytes(s.data(), s.size());
  }
  std::uint64_t result() const { return hash_; }

 private:
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
};

// `withExamples` false leaves out the problems' examples, which name byte offsets of batches, and
// their order (the same file read in other chunks gives other examples and may list the kinds in
// another order, and the same model otherwise). `withEventArgs` false leaves out the complete
// events' args and the instants' args indices (a read without event args numbers them otherwise),
// keeping the instants' args text.
inline std::uint64_t traceDigest(const Trace& t, bool withExamples = true,
                                 bool withEventArgs = true) {
  Digest d;
  const TraceMetadata& m = t.meta;
  d.text(m.schemaVersion);
  d.value(m.baseTimeNanoseconds.value_or(-1));
  for (const auto& dev : m.devices) {
    d.value(dev.id);
    d.text(dev.name);
    d.value(dev.totalGlobalMem);
    d.value(dev.numSms);
    d.text(dev.rawJson);
  }
  d.value(m.rank.value_or(-1));
  d.value(m.worldSize.value_or(-1));
  d.text(m.distributedBackend);
  d.text(m.distributedInfoJson);
  d.text(m.traceName);
  d.text(m.deviceBackend);
  for (const auto& [k, v] : m.other) d.text(k), d.text(v);
  for (std::size_t i = 0; i < t.names.size(); ++i) d.text(t.names.view(static_cast<StringId>(i)));
  for (std::size_t i = 0; i < t.categories.size(); ++i)
    d.text(t.categories.view(static_cast<StringId>(i)));
  for (const Lane& l : t.lanes) {
    d.text(l.pid);
    d.text(l.tid);
    d.value(l.pidNumber);
    d.value(l.tidNumber);
    d.text(l.processName);
    d.text(l.threadName);
    d.value(l.processSortIndex);
    d.value(l.threadSortIndex);
    d.value(l.kind);
    d.value(l.device);
    d.value(l.stream);
    d.value(l.firstEvent);
    d.value(l.endEvent);
    d.value(l.maxDepth);
  }
  d.value(t.events.size());
  for (const Event& e : t.events) {
    d.value(e.start);
    d.value(e.dur);
    d.value(e.externalId);
    d.value(e.correlation);
    d.value(e.recordFunctionId);
    d.value(e.name);
    d.value(e.lane);
    d.value(e.parent);
    d.value(e.category);
    d.value(e.depth);
    d.value(e.klass);
    if (!withEventArgs) continue;
    d.value(e.args);
    d.text(t.argsJson(e));
  }
  for (const Flow& f : t.flows) {
    d.value(f.from);
    d.value(f.to);
    d.value(f.id);
    d.value(f.category);
  }
  for (const Instant& i : t.instants) {
    d.value(i.time);
    d.value(i.name);
    d.value(i.lane);
    d.value(i.scope);
    if (withEventArgs) d.value(i.args);
    d.text(i.args == kNoArgs ? std::string_view{} : t.args.get(i.args));
  }
  for (const CounterSeries& c : t.counters) {
    d.text(c.name);
    d.text(c.pid);
    for (const auto& [time, v] : c.samples) d.value(time), d.value(v);
  }
  std::vector<const Problem*> problems;
  for (const Problem& p : t.problems.all()) problems.push_back(&p);
  if (!withExamples)  // and not their order either: a problem found per batch comes first in its
                      // batch
    std::sort(problems.begin(), problems.end(),
              [](const Problem* a, const Problem* b) { return a->what < b->what; });
  for (const Problem* p : problems) {
    d.value(p->severity);
    d.text(p->what);
    d.value(p->count);
    if (withExamples) d.text(p->example);
  }
  d.value(t.startNs);
  d.value(t.endNs);
  return d.result();
}

}  // namespace sutra::test
