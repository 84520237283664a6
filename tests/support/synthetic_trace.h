// SPDX-License-Identifier: MIT
#pragma once
// A synthetic Kineto-like trace of any size, for benchmarks and tests that need more events than
// the real traces hold: per host thread, profiler steps of nested aten ops whose innermost op
// launches a kernel (runtime call -> kernel on a device stream, joined by an ac2g flow).
// Deterministic: the same arguments give the same trace.
#include <cstdint>

#include "model/trace.h"

namespace sutra::test {

struct SyntheticTraceOptions {
  std::uint64_t events = 100'000;  // about this many (whole op groups of 4 events)
  int hostThreads = 4;
  int streams = 4;
};

Trace makeSyntheticTrace(const SyntheticTraceOptions& options);

// One host op (aten::mm, 1 us) and two counter series: "GPU memory/allocated" of pid 1234 (10 at
// 0 ns, 30 at 500 ns) and "queue depth" of pid 99 (2 at 100 ns).
Trace makeCounterTrace();

}  // namespace sutra::test
