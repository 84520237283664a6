// SPDX-License-Identifier: MIT
#pragma once
// A hand-made trace shared by the analysis tests: two profiler steps on one host thread, a Python
// frame, nested ops, an op nested in itself, a filtered utility op and three kernels on a stream.
//
//   host 1/1  ProfilerStep#3 [0,1000)
//               nn.Module: Linear (python) [50,700)
//                 aten::linear [100,600)
//                   aten::addmm [150,500) {"Input Dims": [[2, 3], [3, 4]]}
//                     cudaLaunchKernel [200,250) corr 7
//                     aten::is_leaf [300,310)
//               aten::add [700,800)
//                 aten::add [710,790)
//                   cudaLaunchKernel [720,730) corr 8
//             ProfilerStep#4 [1000,1500)
//               aten::mul [1100,1200) {"Input Dims": [[2], []]}
//                 cudaLaunchKernel [1110,1120) corr 9
//   stream 0/7  gemm [260,560) corr 7, add_kernel [800,850) corr 8, mul_kernel [1300,1700) corr 9
#include <string>
#include <string_view>

#include "model/trace_builder.h"

namespace sutra::test {

inline void addFixtureEvent(TraceBuilder& b, LaneId lane, const std::string& name, TimeNs start,
                            TimeNs dur, const std::string& cat, std::int64_t correlation = kNoId,
                            const std::string& args = {}) {
  Event e;
  e.name = b.trace().names.intern(name);
  e.category = static_cast<std::uint16_t>(b.trace().categories.intern(cat));
  e.klass = classifyCategory(cat);
  e.lane = lane;
  e.start = start;
  e.dur = dur;
  e.correlation = correlation;
  b.addEvent(e, args);
}

inline Trace twoStepFixture() {
  TraceBuilder b("fixture.json");
  const LaneId host = b.lane("1", "1");
  const LaneId stream = b.lane("0", "7");
  addFixtureEvent(b, host, "ProfilerStep#3", 0, 1000, "user_annotation");
  addFixtureEvent(b, host, "nn.Module: Linear", 50, 650, "python_function");
  addFixtureEvent(b, host, "aten::linear", 100, 500, "cpu_op");
  addFixtureEvent(b, host, "aten::addmm", 150, 350, "cpu_op", kNoId,
                  R"({"External id": 5, "Input Dims": [[2, 3], [3,4]]})");
  addFixtureEvent(b, host, "cudaLaunchKernel", 200, 50, "cuda_runtime", 7);
  addFixtureEvent(b, host, "aten::is_leaf", 300, 10, "cpu_op");
  addFixtureEvent(b, host, "aten::add", 700, 100, "cpu_op");
  addFixtureEvent(b, host, "aten::add", 710, 80, "cpu_op");
  addFixtureEvent(b, host, "cudaLaunchKernel", 720, 10, "cuda_runtime", 8);
  addFixtureEvent(b, host, "ProfilerStep#4", 1000, 500, "user_annotation");
  addFixtureEvent(b, host, "aten::mul", 1100, 100, "cpu_op", kNoId, R"({"Input Dims": [[2], []]})");
  addFixtureEvent(b, host, "cudaLaunchKernel", 1110, 10, "cuda_runtime", 9);
  addFixtureEvent(b, stream, "gemm", 260, 300, "kernel", 7);
  addFixtureEvent(b, stream, "add_kernel", 800, 50, "kernel", 8);
  addFixtureEvent(b, stream, "mul_kernel", 1300, 400, "kernel", 9);
  return b.finish();
}

// A copy to the host that the thread waits for, then an op that launches a kernel:
//
//   host 1/1  aten::item [2000,2300)
//               cudaMemcpyAsync [2010,2030) corr 10
//               cudaStreamSynchronize [2040,2200) corr 11  (no cuda_sync event: a blocking call)
//             aten::add [2300,2350)
//               cudaLaunchKernel [2310,2320) corr 12
//   stream 0/7  Memcpy DtoH [2100,2150) corr 10, add_kernel [2400,2450) corr 12
inline Trace syncFixture() {
  TraceBuilder b("sync.json");
  const LaneId host = b.lane("1", "1");
  const LaneId stream = b.lane("0", "7");
  addFixtureEvent(b, host, "aten::item", 2000, 300, "cpu_op");
  addFixtureEvent(b, host, "cudaMemcpyAsync", 2010, 20, "cuda_runtime", 10);
  addFixtureEvent(b, host, "cudaStreamSynchronize", 2040, 160, "cuda_runtime", 11);
  addFixtureEvent(b, host, "aten::add", 2300, 50, "cpu_op");
  addFixtureEvent(b, host, "cudaLaunchKernel", 2310, 10, "cuda_runtime", 12);
  addFixtureEvent(b, stream, "Memcpy DtoH (Device -> Pageable)", 2100, 50, "gpu_memcpy", 10);
  addFixtureEvent(b, stream, "add_kernel", 2400, 50, "kernel", 12);
  return b.finish();
}

inline EventId eventNamed(const Trace& trace, std::string_view name, int nth = 0) {
  for (EventId i = 0; i < trace.events.size(); ++i)
    if (trace.name(trace.events[i]) == name && nth-- == 0) return i;
  return kNoEvent;
}

}  // namespace sutra::test
