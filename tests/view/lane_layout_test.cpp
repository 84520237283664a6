// SPDX-License-Identifier: MIT
#include "view/lane_layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <random>

#include "analysis/memory.h"
#include "io/kineto_reader.h"
#include "model/trace_builder.h"
#include "synthetic_trace.h"
#include "test_support.h"

namespace sutra::view {
namespace {

Event makeEvent(TraceBuilder& b, LaneId lane, const char* name, TimeNs start, TimeNs dur,
                const char* cat) {
  Event e;
  e.name = b.trace().names.intern(name);
  e.category = static_cast<std::uint16_t>(b.trace().categories.intern(cat));
  e.klass = classifyCategory(cat);
  e.lane = lane;
  e.start = start;
  e.dur = dur;
  return e;
}

// One host thread (an op holding a nested op holding a launch, which holds a driver call) and one
// device stream; the runtime band's depth counts runtime ancestors only.
Trace smallTrace() {
  TraceBuilder b("mem");
  const LaneId host = b.lane("1234", "5678");
  const LaneId stream = b.lane("0", "7");
  b.setProcessName("1234", "python3");
  b.setThreadName("1234", "5678", "MainThread");
  b.addEvent(makeEvent(b, host, "aten::linear", 0, 100, "cpu_op"));
  b.addEvent(makeEvent(b, host, "aten::addmm", 10, 80, "cpu_op"));
  b.addEvent(makeEvent(b, host, "cudaLaunchKernel", 20, 30, "cuda_runtime"));
  b.addEvent(makeEvent(b, host, "cuLaunchKernel", 25, 10, "cuda_driver"));
  b.addEvent(makeEvent(b, host, "cudaDeviceSynchronize", 60, 20, "cuda_runtime"));
  b.addEvent(makeEvent(b, stream, "gemm", 55, 40, "kernel"));
  b.addEvent(makeEvent(b, stream, "copy", 100, 5, "gpu_memcpy"));
  return b.finish();
}

TEST(LaneLayout, SplitsHostThreadsIntoFrameworkAndRuntimeBandsAndStreamsIntoHardware) {
  const Trace trace = smallTrace();
  const LaneLayout layout = LaneLayout::build(trace, "rank0");
  ASSERT_EQ(layout.groups().size(), 2u);
  EXPECT_EQ(layout.groups()[0].label, "rank0 / pid 1234 (python3)");
  EXPECT_FALSE(layout.groups()[0].device);
  EXPECT_EQ(layout.groups()[1].label, "rank0 / GPU 0");
  EXPECT_TRUE(layout.groups()[1].device);
  ASSERT_EQ(layout.tracks().size(), 3u);
  const auto& framework = layout.tracks()[0];
  const auto& runtime = layout.tracks()[1];
  const auto& hardware = layout.tracks()[2];
  EXPECT_EQ(framework.label, "rank0 / pid 1234 / thread 5678 / framework");
  EXPECT_EQ(framework.shortLabel, "thread 5678 / framework");
  EXPECT_EQ(framework.threadName, "MainThread");
  EXPECT_EQ(framework.rowCount, 2u);  // linear > addmm
  EXPECT_EQ(framework.eventCount, 2u);
  EXPECT_EQ(runtime.label, "rank0 / pid 1234 / thread 5678 / runtime");
  EXPECT_EQ(runtime.rowCount, 2u);  // launch > driver call; the sync is back at depth 0
  EXPECT_EQ(runtime.eventCount, 3u);
  EXPECT_EQ(hardware.label, "rank0 / GPU 0 / stream 7 / hardware");
  EXPECT_EQ(hardware.rowCount, 1u);
  EXPECT_EQ(hardware.eventCount, 2u);
  EXPECT_EQ(layout.rows().size(), 5u);
  EXPECT_EQ(layout.eventCount(), trace.events.size());
  for (EventId i = 0; i < trace.events.size(); ++i) {
    const std::string name(trace.name(trace.events[i]));
    const std::uint32_t row = layout.rowOf(i);
    ASSERT_NE(row, kNoRow) << name;
    const std::uint32_t expected = name == "aten::linear"            ? 0
                                   : name == "aten::addmm"           ? 1
                                   : name == "cudaLaunchKernel"      ? 2
                                   : name == "cudaDeviceSynchronize" ? 2
                                   : name == "cuLaunchKernel"        ? 3
                                                                     : 4;
    EXPECT_EQ(row, expected) << name;
  }
  EXPECT_EQ(layout.trackOf(0, Band::Runtime), 1u);
  // The runtime row at depth 0 holds the launch and the sync in start order, with running ends.
  const LayoutRow& row = layout.rows()[2];
  ASSERT_EQ(row.events.size(), 2u);
  EXPECT_EQ(trace.name(trace.events[row.events[0]]), "cudaLaunchKernel");
  EXPECT_EQ(row.maxEnd.toVector(), (std::vector<TimeNs>{50, 80}));
}

// Kineto writes a device-wide sync (cudaDeviceSynchronize) as a cuda_sync span on pid 0, tid -1
// (HTA's critical_path traces have them): no thread ran there, so it is no "thread -1" runtime lane
// of a host process but a "context sync" lane among device 0's streams.
TEST(LaneLayout, DeviceWideSyncsSitWithTheirDeviceNotOnAFakeThread) {
  TraceBuilder b("sync");
  const LaneId host = b.lane("1234", "5678");
  const LaneId stream = b.lane("0", "7");
  const LaneId context = b.lane("0", "-1");
  b.addEvent(makeEvent(b, host, "cudaDeviceSynchronize", 10, 50, "cuda_runtime"));
  b.addEvent(makeEvent(b, stream, "gemm", 5, 40, "kernel"));
  b.addEvent(makeEvent(b, stream, "Stream Sync", 45, 5, "cuda_sync"));
  b.addEvent(makeEvent(b, context, "Context Sync", 12, 45, "cuda_sync"));
  const Trace trace = b.finish();
  const LaneLayout layout = LaneLayout::build(trace, "rank0");
  ASSERT_EQ(layout.groups().size(), 2u);
  EXPECT_EQ(layout.groups()[0].label, "rank0 / pid 1234");
  EXPECT_EQ(layout.groups()[1].label, "rank0 / GPU 0");
  ASSERT_EQ(layout.groups()[1].tracks.size(), 2u);
  const LayoutTrack& streamTrack = layout.tracks()[layout.groups()[1].tracks[0]];
  const LayoutTrack& syncTrack = layout.tracks()[layout.groups()[1].tracks[1]];
  EXPECT_EQ(streamTrack.label, "rank0 / GPU 0 / stream 7 / hardware");
  EXPECT_EQ(streamTrack.eventCount, 2u);  // the stream's own sync stays with its work
  EXPECT_EQ(syncTrack.label, "rank0 / GPU 0 / context sync / hardware");
  EXPECT_EQ(syncTrack.band, Band::Hardware);
  EXPECT_EQ(syncTrack.eventCount, 1u);
  EXPECT_EQ(syncTrack.lane, context);
  for (const LayoutTrack& track : layout.tracks())
    EXPECT_EQ(track.label.find("thread -1"), std::string::npos);
  EXPECT_EQ(layout.eventCount(), trace.events.size());
  for (EventId i = 0; i < trace.events.size(); ++i) EXPECT_NE(layout.rowOf(i), kNoRow);
}

// Layer sections, as Neuron Explorer's system view reads: every thread's framework track, then
// every runtime track, then each device by its name with its streams; spans and annotations never
// between host and device; counters last.
TEST(LaneLayout, LayersGroupEveryThreadsBandsIntoSectionsAndNameTheDevice) {
  TraceBuilder b("mem");
  const LaneId main = b.lane("1234", "5678");
  const LaneId backward = b.lane("1234", "5679");
  const LaneId stream = b.lane("0", "7");
  const LaneId spans = b.lane("Spans", "PyTorch Profiler");
  b.setProcessName("1234", "python3");
  b.setThreadName("1234", "5678", "MainThread");
  b.setThreadName("1234", "5679", "thread 5679 (pt_autograd_0)");  // as Kineto names threads
  b.addEvent(makeEvent(b, main, "aten::linear", 0, 100, "cpu_op"));
  b.addEvent(makeEvent(b, main, "cudaLaunchKernel", 20, 30, "cuda_runtime"));
  b.addEvent(makeEvent(b, backward, "autograd::engine", 110, 50, "cpu_op"));
  b.addEvent(makeEvent(b, backward, "cudaLaunchKernel", 120, 10, "cuda_runtime"));
  b.addEvent(makeEvent(b, stream, "gemm", 55, 40, "kernel"));
  b.addEvent(makeEvent(b, spans, "PyTorch Profiler (0)", 0, 200, "Trace"));
  b.trace().meta.devices.push_back({0, "NVIDIA H100 80GB HBM3", 0, 132, ""});
  const Trace trace = b.finish();
  const LaneLayout layout = LaneLayout::build(trace, "rank0", LaneGrouping::Layers);
  EXPECT_EQ(layout.grouping(), LaneGrouping::Layers);
  std::vector<std::string> groups;
  for (const LayoutGroup& g : layout.groups()) groups.push_back(g.label);
  EXPECT_EQ(groups,
            (std::vector<std::string>{"rank0 / framework", "rank0 / runtime",
                                      "rank0 / GPU 0: NVIDIA H100 80GB HBM3", "rank0 / other"}));
  auto labels = [&](std::size_t group) {
    std::vector<std::string> out;
    for (std::uint32_t t : layout.groups()[group].tracks)
      out.push_back(layout.tracks()[t].shortLabel);
    return out;
  };
  EXPECT_EQ(labels(0), (std::vector<std::string>{"pid 1234 / thread 5678 (MainThread)",
                                                 "pid 1234 / thread 5679 (pt_autograd_0)"}));
  EXPECT_EQ(labels(1), labels(0));
  EXPECT_EQ(labels(2), (std::vector<std::string>{"stream 7"}));
  EXPECT_TRUE(layout.groups()[2].device);
  EXPECT_EQ(labels(3), (std::vector<std::string>{"pid Spans / thread PyTorch Profiler / other"}));
  EXPECT_EQ(layout.tracks()[layout.groups()[1].tracks[0]].band, Band::Runtime);
  EXPECT_EQ(layout.tracks()[layout.groups()[2].tracks[0]].label,
            "rank0 / GPU 0: NVIDIA H100 80GB HBM3 / stream 7");
  // Every event still has its one row, in the same tracks as grouped by process.
  const LaneLayout byProcess = LaneLayout::build(trace, "rank0", LaneGrouping::Processes);
  EXPECT_EQ(layout.tracks().size(), byProcess.tracks().size());
  EXPECT_EQ(layout.rows().size(), byProcess.rows().size());
  for (EventId i = 0; i < trace.events.size(); ++i) {
    ASSERT_NE(layout.rowOf(i), kNoRow);
    const LayoutTrack& a = layout.tracks()[layout.rows()[layout.rowOf(i)].track];
    const LayoutTrack& p = byProcess.tracks()[byProcess.rows()[byProcess.rowOf(i)].track];
    EXPECT_EQ(a.lane, p.lane);
    EXPECT_EQ(a.band, p.band);
  }
  // By process, the device keeps its name and not the host's process name.
  const auto device = std::find_if(byProcess.groups().begin(), byProcess.groups().end(),
                                   [](const LayoutGroup& g) { return g.device; });
  ASSERT_NE(device, byProcess.groups().end());
  EXPECT_EQ(device->label, "rank0 / GPU 0: NVIDIA H100 80GB HBM3");
}

// A with_stack=True recording: Python frames above the step and its ops, one frame inside the step.
// Folded (the default), the frames take one band, the first row of the framework track, holding
// the outermost frame; the step and its ops start in the row under it. Unfolded, every depth has
// its row as recorded.
Trace withStackTrace() {
  TraceBuilder b("stack");
  const LaneId host = b.lane("1234", "5678");
  b.addEvent(makeEvent(b, host, "collect.py(107): <module>", 0, 1000, "python_function"));
  b.addEvent(makeEvent(b, host, "workloads.py(436): run_case", 10, 900, "python_function"));
  b.addEvent(makeEvent(b, host, "ProfilerStep#1", 20, 500, "user_annotation"));
  b.addEvent(makeEvent(b, host, "workloads.py(80): step", 25, 400, "python_function"));
  b.addEvent(makeEvent(b, host, "aten::mul", 30, 70, "cpu_op"));
  b.addEvent(makeEvent(b, host, "aten::add", 200, 100, "cpu_op"));
  b.addEvent(makeEvent(b, host, "cudaLaunchKernel", 210, 20, "cuda_runtime"));
  b.addEvent(makeEvent(b, host, "ProfilerStep#2", 600, 200, "user_annotation"));
  return b.finish();
}

TEST(LaneLayout, FoldsEachThreadsPythonFramesIntoOneBandAboveItsOps) {
  const Trace trace = withStackTrace();
  auto event = [&](std::string_view name) {
    for (EventId i = 0; i < trace.events.size(); ++i)
      if (trace.name(trace.events[i]) == name) return i;
    return kNoEvent;
  };
  for (LaneGrouping grouping : {LaneGrouping::Processes, LaneGrouping::Layers}) {
    const LaneLayout layout = LaneLayout::build(trace, "rank0", grouping);  // folded by default
    EXPECT_TRUE(layout.options().foldPythonFrames);
    EXPECT_TRUE(layout.hasFoldedPythonFrames());
    const std::uint32_t t = layout.trackOf(0, Band::Framework);
    ASSERT_NE(t, UINT32_MAX);
    const LayoutTrack& framework = layout.tracks()[t];
    EXPECT_EQ(framework.foldedPythonDepth, 3u);  // <module> > run_case > step
    EXPECT_EQ(framework.rowCount, 3u);           // the frames' band, the steps, the ops
    EXPECT_EQ(framework.eventCount, 7u);
    const std::uint32_t band = framework.firstRow;
    EXPECT_TRUE(layout.rows()[band].pythonFrames);
    EXPECT_FALSE(layout.rows()[band + 1].pythonFrames);
    // The band draws the outermost frame; every frame maps to it.
    EXPECT_EQ(layout.rows()[band].events.toVector(),
              (std::vector<EventId>{event("collect.py(107): <module>")}));
    for (const char* frame :
         {"collect.py(107): <module>", "workloads.py(436): run_case", "workloads.py(80): step"})
      EXPECT_EQ(layout.rowOf(event(frame)), band) << frame;
    // The steps in the row right under it, their ops under them (the frame between step and op
    // takes no row), the runtime band as before.
    EXPECT_EQ(layout.rowOf(event("ProfilerStep#1")), band + 1);
    EXPECT_EQ(layout.rowOf(event("ProfilerStep#2")), band + 1);
    EXPECT_EQ(layout.rowOf(event("aten::mul")), band + 2);
    EXPECT_EQ(layout.rowOf(event("aten::add")), band + 2);
    EXPECT_EQ(layout.rows()[band + 2].depth, 2u);
    const std::uint32_t runtime = layout.trackOf(0, Band::Runtime);
    ASSERT_NE(runtime, UINT32_MAX);
    EXPECT_EQ(layout.tracks()[runtime].foldedPythonDepth, 0u);
    EXPECT_EQ(layout.rowOf(event("cudaLaunchKernel")), layout.tracks()[runtime].firstRow);
  }
  // Unfolded: a row per depth, frames and ops interleaved as recorded.
  LayoutOptions unfolded;
  unfolded.foldPythonFrames = false;
  const LaneLayout layout = LaneLayout::build(trace, "rank0", unfolded);
  EXPECT_FALSE(layout.hasFoldedPythonFrames());
  const LayoutTrack& framework = layout.tracks()[layout.trackOf(0, Band::Framework)];
  EXPECT_EQ(framework.foldedPythonDepth, 0u);
  EXPECT_EQ(framework.rowCount, 5u);
  EXPECT_FALSE(layout.rows()[framework.firstRow].pythonFrames);
  EXPECT_EQ(layout.rowOf(event("workloads.py(436): run_case")), framework.firstRow + 1);
  EXPECT_EQ(layout.rowOf(event("ProfilerStep#1")), framework.firstRow + 2);
  EXPECT_EQ(layout.rowOf(event("aten::mul")), framework.firstRow + 4);
  // A trace without frames lays out the same either way.
  const Trace plain = smallTrace();
  const LaneLayout a = LaneLayout::build(plain, "rank0");
  const LaneLayout b = LaneLayout::build(plain, "rank0", unfolded);
  EXPECT_FALSE(a.hasFoldedPythonFrames());
  ASSERT_EQ(a.rows().size(), b.rows().size());
  for (EventId i = 0; i < plain.events.size(); ++i) EXPECT_EQ(a.rowOf(i), b.rowOf(i));
}

// The bundled with_stack recording (resources/samples/rmsnorm_naive): on every thread with
// frames, one band of them, and the steps in the row under it.
TEST(LaneLayout, FoldsTheFramesOfTheBundledRmsNormRecording) {
  auto read = readKinetoTrace(std::string(SUTRA_SOURCE_DIR) +
                              "/resources/samples/rmsnorm_naive/rank0.kineto.json.gz");
  ASSERT_TRUE(read.ok()) << read.error().message;
  const Trace trace = std::move(read).value();
  const LaneLayout layout = LaneLayout::build(trace, "", LaneGrouping::Layers);
  LayoutOptions unfoldedOptions{LaneGrouping::Layers, false};
  const LaneLayout unfolded = LaneLayout::build(trace, "", unfoldedOptions);
  int foldedTracks = 0;
  for (const LayoutTrack& track : layout.tracks()) {
    if (track.foldedPythonDepth == 0) continue;
    ++foldedTracks;
    for (std::uint32_t r = track.firstRow; r < track.firstRow + track.rowCount; ++r)
      EXPECT_EQ(layout.rows()[r].pythonFrames, r == track.firstRow);
    for (EventId e : layout.rows()[track.firstRow].events)
      EXPECT_EQ(trace.events[e].klass, CategoryClass::PythonFunction);
    for (std::uint32_t r = track.firstRow + 1; r < track.firstRow + track.rowCount; ++r)
      for (EventId e : layout.rows()[r].events)
        EXPECT_NE(trace.events[e].klass, CategoryClass::PythonFunction);
    // Frames nest five or more deep above the step, and between ops inside it: unfolded, they
    // take rows above and among the ops; folded, one band.
    const LayoutTrack& open = unfolded.tracks()[unfolded.trackOf(track.lane, track.band)];
    EXPECT_GE(track.foldedPythonDepth, 5u);
    EXPECT_LT(track.rowCount + 5, open.rowCount);
  }
  EXPECT_GE(foldedTracks, 1);
  // The first step sits right under the band of its thread.
  EventId step = kNoEvent;
  for (EventId i = 0; i < trace.events.size() && step == kNoEvent; ++i)
    if (trace.name(trace.events[i]).starts_with("ProfilerStep#")) step = i;
  ASSERT_NE(step, kNoEvent);
  const LayoutRow& row = layout.rows()[layout.rowOf(step)];
  EXPECT_EQ(row.depth, 1u);
  EXPECT_TRUE(layout.rows()[layout.tracks()[row.track].firstRow].pythonFrames);
}

TEST(LaneLayout, LeavesTheRankOutWhenUnknown) {
  const Trace trace = smallTrace();
  const LaneLayout layout = LaneLayout::build(trace, "");
  EXPECT_EQ(layout.tracks()[0].label, "pid 1234 / thread 5678 / framework");
}

TEST(LaneLayout, WindowSearchesAgreeWithALinearScan) {
  LayoutRow row;
  std::mt19937 random(7);
  TimeNs end = 0;
  for (int i = 0; i < 2000; ++i) {
    end = std::max(end, static_cast<TimeNs>(i * 10 + static_cast<int>(random() % 40)));
    row.maxEnd.push_back(end);
  }
  for (TimeNs t = -5; t < 20100; t += 7) {
    std::size_t linear = 0;
    while (linear < row.maxEnd.size() && row.maxEnd[linear] < t) ++linear;
    EXPECT_EQ(row.firstEndingAtOrAfter(t), linear) << t;
    for (std::size_t from :
         {std::size_t{0}, std::size_t{100}, std::size_t{1999}, std::size_t{2000}}) {
      std::size_t expected = from;
      while (expected < row.maxEnd.size() && row.maxEnd[expected] <= t) ++expected;
      EXPECT_EQ(row.firstEndingAfter(from, t), expected) << t << " from " << from;
    }
  }
}

TEST(LaneLayout, EveryEventOfASyntheticTraceHasExactlyOneRow) {
  const Trace trace = test::makeSyntheticTrace({20'000, 3, 2});
  const LaneLayout layout = LaneLayout::build(trace, "rank0");
  std::uint64_t inRows = 0;
  for (const auto& row : layout.rows()) {
    inRows += row.events.size();
    for (std::size_t i = 1; i < row.events.size(); ++i)
      ASSERT_LE(trace.events[row.events[i - 1]].start, trace.events[row.events[i]].start);
  }
  EXPECT_EQ(inRows, trace.events.size());
  // 3 threads x (framework, runtime) + 2 streams; framework rows: step > op > inner op.
  ASSERT_EQ(layout.tracks().size(), 8u);
  EXPECT_EQ(layout.tracks()[0].rowCount, 3u);
  EXPECT_EQ(layout.tracks()[1].band, Band::Runtime);
}

}  // namespace
}  // namespace sutra::view

namespace sutra::view {
namespace {

// A profile_memory=True trace: each device's allocation curve becomes a counter (core's
// addMemoryCounters, as the run API reads a trace) and the layout draws the GPU's under its
// streams, in both groupings. The fixture's "Total Allocated" of CUDA 0: 4096, 12288, 13312, 9216,
// 11264 bytes at 11, 31, 35, 40, 61 us; here a kernel on pid 0 gives the GPU its lanes.
TEST(LaneLayout, MemoryCurvesAreCounterLanesUnderTheirDevice) {
  std::ifstream in(std::string(SUTRA_SOURCE_DIR) + "/tests/data/kineto/memory_events.json");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t events = text.find("\"traceEvents\"");
  ASSERT_NE(events, std::string::npos);
  text.insert(
      text.find('[', events) + 1,
      R"({"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 32, "dur": 5},)");
  const std::string path = test::tempPath("memory_with_gpu.json");
  std::ofstream(path) << text;
  auto read = readKinetoTrace(path);
  ASSERT_TRUE(read.ok()) << read.error().message;
  Trace trace = std::move(read).value();
  const std::size_t before = trace.counters.size();
  addMemoryCounters(trace);
  ASSERT_EQ(trace.counters.size(), before + 2);  // CPU and CUDA 0
  const CounterSeries* gpu = nullptr;
  for (const CounterSeries& c : trace.counters)
    if (c.name == "memory allocated (CUDA 0)") gpu = &c;
  ASSERT_NE(gpu, nullptr);
  EXPECT_EQ(gpu->pid, "0");
  const std::vector<std::pair<TimeNs, double>> expected{
      {11'000, 4096}, {31'000, 12288}, {35'000, 13312}, {40'000, 9216}, {61'000, 11264}};
  EXPECT_EQ(gpu->samples, expected);
  // Its peak, marked: 13312 B at 35 us in aten::mm, with aten::mm's 9216 B and aten::empty's
  // 4096 B live then (tests/core/views_analysis_test.cpp has the report itself).
  ASSERT_EQ(gpu->marks.size(), 1u);
  EXPECT_EQ(gpu->marks[0].time, 35'000);
  EXPECT_EQ(gpu->marks[0].value, 13312.0);
  EXPECT_EQ(gpu->marks[0].label, "peak 13.00 KiB");
  ASSERT_NE(gpu->marks[0].event, kNoEvent);
  EXPECT_EQ(trace.name(trace.events[gpu->marks[0].event]), "aten::mm");
  EXPECT_EQ(gpu->marks[0].detail,
            "peak 13.00 KiB in aten::mm\n"
            "live at the peak, by the op that allocated it:\n"
            "9.00 KiB  aten::mm (2 allocations)\n"
            "4.00 KiB  aten::empty (1 allocation)");
  for (LaneGrouping grouping : {LaneGrouping::Layers, LaneGrouping::Processes}) {
    const LaneLayout layout = LaneLayout::build(trace, "rank0", grouping);
    bool found = false;
    for (const LayoutGroup& group : layout.groups())
      for (std::uint32_t c : group.counters)
        if (layout.counters()[c].label == gpu->name) {
          found = true;
          EXPECT_TRUE(group.device) << group.label;
          EXPECT_EQ(group.label, "rank0 / GPU 0: Fixture GPU");  // its deviceProperties
        }
    EXPECT_TRUE(found) << static_cast<int>(grouping);
  }
  // A trace without [memory] events gets no counter.
  Trace plain = smallTrace();
  addMemoryCounters(plain);
  EXPECT_TRUE(plain.counters.empty());
}

}  // namespace
}  // namespace sutra::view
