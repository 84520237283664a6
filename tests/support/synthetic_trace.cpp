// SPDX-License-Identifier: MIT
#include "synthetic_trace.h"

#include <algorithm>
#include <string>
#include <vector>

#include "model/category.h"
#include "model/trace_builder.h"

namespace sutra::test {

Trace makeCounterTrace() {
  TraceBuilder b("counters");
  const LaneId host = b.lane("1234", "5678");
  Event e;
  e.name = b.trace().names.intern("aten::mm");
  e.category = static_cast<std::uint16_t>(b.trace().categories.intern("cpu_op"));
  e.klass = classifyCategory("cpu_op");
  e.lane = host;
  e.start = 0;
  e.dur = 1000;
  b.addEvent(e);
  b.addCounterSample("1234", "GPU memory/allocated", 0, 10);
  b.addCounterSample("1234", "GPU memory/allocated", 500, 30);
  b.addCounterSample("99", "queue depth", 100, 2);
  return b.finish();
}

Trace makeSyntheticTrace(const SyntheticTraceOptions& options) {
  TraceBuilder builder("synthetic");
  Trace& t = builder.trace();
  auto category = [&](const char* name) {
    return static_cast<std::uint16_t>(t.categories.intern(name));
  };
  const std::uint16_t cpuOp = category("cpu_op"), annotation = category("user_annotation"),
                      runtime = category("cuda_runtime"), kernel = category("kernel"),
                      ac2g = category("ac2g");
  const StringId outerNames[] = {t.names.intern("aten::linear"), t.names.intern("aten::layer_norm"),
                                 t.names.intern("aten::softmax"), t.names.intern("aten::gelu")};
  const StringId innerNames[] = {t.names.intern("aten::addmm"),
                                 t.names.intern("aten::native_layer_norm"),
                                 t.names.intern("aten::_softmax"), t.names.intern("aten::gelu_")};
  const StringId kernelNames[] = {
      t.names.intern("sm80_xmma_gemm_f16f16_f32"), t.names.intern("layer_norm_kernel"),
      t.names.intern("softmax_warp_forward"), t.names.intern("gelu_kernel")};
  const StringId launch = t.names.intern("cudaLaunchKernel");

  std::uint64_t seed = 0x9e3779b97f4a7c15ull;
  auto random = [&](TimeNs lo, TimeNs hi) {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return lo + static_cast<TimeNs>((seed >> 33) % static_cast<std::uint64_t>(hi - lo + 1));
  };
  auto add = [&](LaneId lane, StringId name, std::uint16_t cat, TimeNs start, TimeNs dur,
                 std::int64_t corr) {
    Event e;
    e.lane = lane;
    e.name = name;
    e.category = cat;
    e.klass = classifyCategory(t.categories.view(cat));
    e.start = start;
    e.dur = dur;
    e.correlation = corr;
    builder.addEvent(e);
  };

  const int threads = std::max(1, options.hostThreads);
  const int streams = std::max(1, options.streams);
  std::vector<LaneId> host, device;
  for (int i = 0; i < threads; ++i) {
    host.push_back(builder.lane("1000", std::to_string(2000 + i)));
    builder.setThreadName("1000", std::to_string(2000 + i), i == 0 ? "python3" : "worker");
  }
  builder.setProcessName("1000", "python3");
  for (int i = 0; i < streams; ++i) device.push_back(builder.lane("0", std::to_string(7 + i)));
  builder.setProcessName("0", "GPU 0");
  std::vector<TimeNs> streamFree(static_cast<std::size_t>(streams), 0);

  constexpr int kOpsPerStep = 200;
  const std::uint64_t groups = std::max<std::uint64_t>(1, options.events / 4);
  const std::uint64_t perThread =
      (groups + static_cast<std::uint64_t>(threads) - 1) / static_cast<std::uint64_t>(threads);
  std::int64_t correlation = 1;
  for (int th = 0; th < threads; ++th) {
    TimeNs now = 1'700'000'000'000'000'000 + th * 1000;  // epoch-based like Kineto
    std::uint64_t done = 0;
    int step = 0;
    while (done < perThread) {
      const TimeNs stepStart = now;
      const std::uint64_t ops = std::min<std::uint64_t>(kOpsPerStep, perThread - done);
      for (std::uint64_t k = 0; k < ops; ++k) {
        const int kind = static_cast<int>(random(0, 3));
        const TimeNs opStart = now + random(500, 3000);
        const TimeNs innerStart = opStart + random(200, 1000);
        const TimeNs launchStart = innerStart + random(300, 1500);
        const TimeNs launchDur = random(2000, 6000);
        const TimeNs innerEnd = launchStart + launchDur + random(200, 800);
        const TimeNs opEnd = innerEnd + random(200, 800);
        add(host[th], outerNames[kind], cpuOp, opStart, opEnd - opStart, kNoId);
        add(host[th], innerNames[kind], cpuOp, innerStart, innerEnd - innerStart, kNoId);
        add(host[th], launch, runtime, launchStart, launchDur, correlation);
        // Each thread owns its streams, so device time tracks host time as in a real run.
        const int perThreadStreams = std::max(1, streams / threads);
        const int s =
            (th + threads * static_cast<int>(k % static_cast<std::uint64_t>(perThreadStreams))) %
            streams;
        const TimeNs kernelStart =
            std::max(launchStart + random(3000, 9000), streamFree[s] + random(100, 600));
        const TimeNs kernelDur = random(1000, 30000);
        streamFree[s] = kernelStart + kernelDur;
        add(device[s], kernelNames[kind], kernel, kernelStart, kernelDur, correlation);
        builder.addFlowEnd({correlation, ac2g, host[th], launchStart, true, false});
        builder.addFlowEnd({correlation, ac2g, device[s], kernelStart, false, true});
        ++correlation;
        now = opEnd;
      }
      add(host[th], t.names.intern("ProfilerStep#" + std::to_string(step++)), annotation, stepStart,
          now + 100 - stepStart, kNoId);
      now += 100 + random(1000, 5000);
      done += ops;
    }
  }
  return builder.finish();
}

}  // namespace sutra::test
