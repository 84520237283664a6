// SPDX-License-Identifier: MIT
// The advice (core/advice): each finding on a hand-made trace with exact answers, the simulator's
// targeted knobs it prices with, and the findings on the bundled recordings and the real traces.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "advice/advise.h"
#include "rank_folder_generator.h"
#include "session/run.h"
#include "sim_fixture.h"
#include "simulate/simulator.h"
#include "simulate/step_projection.h"
#include "test_support.h"

namespace sutra {
namespace {

using test::SimFixture;

std::string shapes(const char* dims, const char* types) {
  return std::string("{\"Input Dims\": ") + dims + ", \"Input type\": " + types + "}";
}

// Two steps of a naive RMSNorm on a [256, 256] float tensor behind a matmul: mul, mean, add,
// rsqrt, mul (the first and last move 768 KiB and 513 KiB in 100 us, the mean 256 KiB in 50 us).
Trace rmsnormSteps() {
  SimFixture f;
  const LaneId t = f.thread("1");
  for (int k = 0; k < 2; ++k) {
    const TimeNs s = k * 1'000'000;
    f.add(t, ("ProfilerStep#" + std::to_string(k)).c_str(), s, 1'000'000, "user_annotation");
    f.add(t, "aten::mm", s + 10'000, 100'000, "cpu_op", kNoId,
          shapes("[[64, 64], [64, 64]]", "[\"float\", \"float\"]"));
    f.add(t, "aten::mul", s + 200'000, 100'000, "cpu_op", kNoId,
          shapes("[[256, 256], [256, 256]]", "[\"float\", \"float\"]"));
    f.add(t, "aten::mean", s + 300'000, 50'000, "cpu_op", kNoId,
          shapes("[[256, 256], [], []]", "[\"float\", \"ScalarList\", \"Scalar\"]"));
    f.add(t, "aten::add", s + 350'000, 10'000, "cpu_op", kNoId,
          shapes("[[256, 1], []]", "[\"float\", \"Scalar\"]"));
    f.add(t, "aten::rsqrt", s + 360'000, 10'000, "cpu_op", kNoId,
          shapes("[[256, 1]]", "[\"float\"]"));
    f.add(t, "aten::mul", s + 370'000, 100'000, "cpu_op", kNoId,
          shapes("[[256, 256], [256, 1]]", "[\"float\", \"float\"]"));
  }
  return f.finish();
}

sutra::Run runOf(Trace trace) {
  auto run = runOfTrace(std::make_shared<const Trace>(std::move(trace)));
  EXPECT_TRUE(run.ok()) << (run.ok() ? "" : run.error().message);
  return std::move(run.value());
}

TEST(SimKnobs, HostTimeCutShortensTheStepByWhatItRemoves) {
  sutra::Run run = runOf(rmsnormSteps());
  const RankRun& rank = *run.ranks[0];
  const SimGraph& graph = rank.simulation->graph;
  SimKnobs knobs;
  const LaneId lane = rank.trace->events[rank.steps()[0].annotation].lane;
  knobs.hostCuts.push_back({0, lane, 200'000, 470'000, 170'000});
  auto sim = simulate(graph, knobs);
  ASSERT_TRUE(sim.ok());
  const auto projection = projectSteps(graph, *sim, rank.steps());
  ASSERT_EQ(projection.steps.size(), 2u);
  EXPECT_EQ(projection.steps[0].simulatedNs, 830'000);
  EXPECT_EQ(projection.steps[1].simulatedNs, 1'000'000);
  // A cut of more than its stretch is refused.
  knobs.hostCuts[0].removeNs = 300'000;
  EXPECT_FALSE(simulate(graph, knobs).ok());
}

TEST(Advice, FusionCandidateIsTheRepeatedRunWithItsModelledPrice) {
  sutra::Run run = runOf(rmsnormSteps());
  auto advice = adviseRun(run);
  ASSERT_TRUE(advice.ok()) << advice.error().message;
  ASSERT_EQ(advice->findings.size(), 1u);
  const Finding& f = advice->findings[0];
  EXPECT_EQ(f.kind, FindingKind::FusionCandidate);
  EXPECT_EQ(
      f.title,
      "fuse aten::mul > aten::mean > aten::add > aten::rsqrt > aten::mul (5 ops, 1 per step)");
  EXPECT_EQ(f.occurrences, 2u);
  EXPECT_EQ(f.steps, 2u);
  EXPECT_EQ(f.evidence.size(), 10u);
  EXPECT_EQ(f.measuredNs, 270'000);  // from the first mul's start to the last one's end
  // Fused: 256 KiB read + 256 KiB written at the mean's 5.24 B/ns = 100 us, in place of 270 us.
  ASSERT_TRUE(f.price.priced);
  EXPECT_EQ(f.price.stepNs, 1'000'000);
  EXPECT_EQ(f.price.projectedStepNs, 830'000);
  EXPECT_EQ(f.price.savingNs(), 170'000);
  // At the first mul's 7.86 B/ns: 66.7 us.
  EXPECT_EQ(f.price.stepNs - f.price.otherBoundStepNs, 203'333);
  EXPECT_EQ(describePrice(f.price), "saves ~170.0 us per step (17.0 %); up to 203.3 us");
  EXPECT_NE(f.price.model.find("524288 bytes"), std::string::npos) << f.price.model;
}

TEST(Advice, FusionWithoutShapesIsFoundButNotPriced) {
  SimFixture f;
  const LaneId t = f.thread("1");
  for (int k = 0; k < 2; ++k) {
    const TimeNs s = k * 1'000'000;
    f.add(t, ("ProfilerStep#" + std::to_string(k)).c_str(), s, 1'000'000, "user_annotation");
    f.add(t, "aten::mul", s + 100'000, 100'000);
    f.add(t, "aten::add", s + 300'000, 100'000);
  }
  sutra::Run run = runOf(f.finish());
  auto advice = adviseRun(run);
  ASSERT_TRUE(advice.ok());
  ASSERT_EQ(advice->findings.size(), 1u);
  EXPECT_FALSE(advice->findings[0].price.priced);
  EXPECT_NE(advice->findings[0].price.notPriced.find("record_shapes"), std::string::npos);
  EXPECT_EQ(advice->findings[0].evidence.size(), 4u);
}

TEST(Advice, DataLoaderWaitIsRemovedFromTheStep) {
  SimFixture f;
  const LaneId t = f.thread("1");
  for (int k = 0; k < 2; ++k) {
    const TimeNs s = k * 1'000'000;
    f.add(t, ("ProfilerStep#" + std::to_string(k)).c_str(), s, 1'000'000, "user_annotation");
    f.add(t, "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", s + 10'000, 300'000,
          "user_annotation");
    f.add(t, "aten::mm", s + 400'000, 500'000);
  }
  sutra::Run run = runOf(f.finish());
  auto advice = adviseRun(run);
  ASSERT_TRUE(advice.ok());
  ASSERT_EQ(advice->findings.size(), 1u);
  const Finding& wait = advice->findings[0];
  EXPECT_EQ(wait.kind, FindingKind::DataLoaderWait);
  EXPECT_EQ(wait.title, "data loader: 300.0 us per step fetching the batch (2 fetches in 2 steps)");
  EXPECT_EQ(wait.evidence.size(), 2u);
  ASSERT_TRUE(wait.price.priced);
  EXPECT_EQ(wait.price.savingNs(), 300'000);
}

// A step on a GPU: a kernel, a cudaStreamSynchronize that waits 480 us for it, then a launch that
// comes 20 us after the device went idle.
Trace syncStep() {
  SimFixture f;
  const LaneId t = f.thread("1");
  const LaneId s = f.stream("7");
  f.add(t, "ProfilerStep#1", 0, 1'000'000, "user_annotation");
  f.add(t, "aten::relu", 90'000, 40'000);
  f.add(t, "cudaLaunchKernel", 100'000, 10'000, "cuda_runtime", 1);
  f.add(s, "relu_kernel", 120'000, 500'000, "kernel", 1);
  f.add(t, "aten::item", 140'000, 495'000);
  f.add(t, "cudaStreamSynchronize", 150'000, 480'000, "cuda_runtime");
  f.add(t, "aten::add", 635'000, 20'000);
  f.add(t, "cudaLaunchKernel", 640'000, 10'000, "cuda_runtime", 2);
  f.add(s, "add_kernel", 650'000, 100'000, "kernel", 2);
  return f.finish();
}

TEST(Advice, BlockingSyncAndHostBoundGapOnADevice) {
  sutra::Run run = runOf(syncStep());
  auto advice = adviseRun(run);
  ASSERT_TRUE(advice.ok());
  const Finding* sync = nullptr;
  const Finding* hostBound = nullptr;
  for (const auto& f : advice->findings) {
    if (f.kind == FindingKind::BlockingSync) sync = &f;
    if (f.kind == FindingKind::HostBound) hostBound = &f;
  }
  ASSERT_NE(sync, nullptr);
  EXPECT_EQ(sync->title,
            "blocking sync aten::item > cudaStreamSynchronize: the host waits 480.0 us per step (1 "
            "calls)");
  EXPECT_EQ(sync->occurrences, 1u);
  ASSERT_TRUE(sync->price.priced);
  // The host no longer waits: what it did after the wait (to the step's end at 1 ms) moves 480 us
  // earlier, the second kernel is launched early and follows the first at once (ends at 720 us),
  // and the step ends with it: 280 us saved.
  EXPECT_EQ(sync->price.savingNs(), 280'000);
  ASSERT_NE(hostBound, nullptr);
  EXPECT_EQ(hostBound->occurrences, 1u);
  // relu_kernel ends at 620 us and add_kernel starts at 650: 20 us of that the device waited for
  // the launch call (at 640), 10 us for the launch to take effect, which the explanation counts
  // apart (a third of the host's part) and no host fix removes.
  EXPECT_EQ(hostBound->measuredNs, 20'000);
  EXPECT_NE(hostBound->explanation.find("A further 10.00 us per step passed between those launch "
                                        "calls and their ops' start"),
            std::string::npos)
      << hostBound->explanation;
  ASSERT_TRUE(hostBound->price.priced);
  EXPECT_GT(hostBound->price.savingNs(), 0);
  EXPECT_LE(hostBound->price.savingNs(), 20'000);
}

TEST(Advice, ADeviceOpWhoseLaunchTheTraceLacksStillKeepsTheDeviceBusy) {
  // HTA's trace_compare sample keeps the device ops of launches it did not record: a memset with
  // no runtime call fills the device from 100 to 600 us, so the kernel launched at 590 us after
  // the previous launched op ended at 100 us found the device busy, not idle.
  SimFixture f;
  const LaneId t = f.thread("1"), s = f.stream("7");
  f.add(t, "ProfilerStep#1", 0, 1'000'000, "user_annotation");
  f.add(t, "cudaLaunchKernel", 10'000, 10'000, "cuda_runtime", 1);
  f.add(s, "first_kernel", 30'000, 70'000, "kernel", 1);
  f.add(s, "Memset (Device)", 100'000, 500'000, "gpu_memset");
  f.add(t, "aten::add", 580'000, 30'000);
  f.add(t, "cudaLaunchKernel", 590'000, 10'000, "cuda_runtime", 2);
  f.add(s, "add_kernel", 610'000, 10'000, "kernel", 2);
  sutra::Run run = runOf(f.finish());
  auto advice = adviseRun(run);
  ASSERT_TRUE(advice.ok());
  for (const auto& finding : advice->findings)
    EXPECT_NE(finding.kind, FindingKind::HostBound) << finding.title;
}

TEST(Advice, BundledRmsnormNaiveNamesTheFiveOpSequence) {
  auto run = openRun({std::string(SUTRA_SOURCE_DIR) + "/resources/samples/rmsnorm_naive"});
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto advice = adviseRun(*run);
  ASSERT_TRUE(advice.ok());
  ASSERT_FALSE(advice->findings.empty());
  const Finding& f = advice->findings[0];
  EXPECT_EQ(
      f.title,
      "fuse aten::mul > aten::mean > aten::add > aten::rsqrt > aten::mul (5 ops, 1 per step)");
  EXPECT_EQ(f.steps, 3u);
  ASSERT_TRUE(f.price.priced);
  // The torch.compile run of the same recording session measured 212 ms against 529 ms: a saving
  // of 60 %. The model says 54 % (docs/performance.md).
  EXPECT_GT(f.price.savingFraction(), 0.45);
  EXPECT_LT(f.price.savingFraction(), 0.75);
}

TEST(Advice, BundledTwoStreamsModelFindsItsSyncsAndMemsets) {
  auto run =
      openRun({std::string(SUTRA_SOURCE_DIR) + "/resources/samples/transformer_two_streams"});
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto advice = adviseRun(*run);
  ASSERT_TRUE(advice.ok());
  auto has = [&](FindingKind kind, const std::string& text) {
    return std::any_of(advice->findings.begin(), advice->findings.end(), [&](const Finding& f) {
      return f.kind == kind && f.title.find(text) != std::string::npos;
    });
  };
  EXPECT_TRUE(has(FindingKind::BlockingSync, "aten::_local_scalar_dense > cudaStreamSynchronize"));
  EXPECT_TRUE(has(FindingKind::MemoryCopy, "memsets: 12"));
  EXPECT_TRUE(has(FindingKind::MemoryCopy, "pageable DtoH copies: 3"));
  for (const auto& f : advice->findings) {
    EXPECT_FALSE(f.evidence.empty()) << f.title;
    EXPECT_FALSE(f.price.model.empty()) << f.title;
    EXPECT_TRUE(f.price.priced || !f.price.notPriced.empty()) << f.title;
  }
}

// The run is replayed once as measured and then once per what-if: N findings with a fix cost N + 1
// replays (before, every price replayed the baseline again beside its fix: 2N, 4N with fusion's
// second bound).
TEST(Advice, PricesReplayTheRunOnceAsMeasuredAndOnceAFinding) {
  for (const char* sample : {"transformer_two_streams", "allreduce_2ranks"}) {
    SCOPED_TRACE(sample);
    auto run = openRun({std::string(SUTRA_SOURCE_DIR) + "/resources/samples/" + sample});
    ASSERT_TRUE(run.ok()) << run.error().message;
    AdviceOptions noFusion;
    noFusion.maxFusionCandidates = 0;  // fusion's other bound is a second what-if of a finding
    auto advice = adviseRun(*run, noFusion);
    ASSERT_TRUE(advice.ok()) << advice.error().message;
    const auto withFix = std::count_if(advice->findings.begin(), advice->findings.end(),
                                       [](const Finding& f) { return f.fix.any(); });
    ASSERT_GE(withFix, 2) << "a sample with several findings to price";
    EXPECT_EQ(advice->replays, withFix + 1);
    for (const Finding& f : advice->findings)
      if (f.fix.any()) {
        EXPECT_TRUE(f.price.priced) << f.title << ": " << f.price.notPriced;
      }
    // With fusion candidates, each with its other bound: one more replay for each bound.
    auto full = adviseRun(*run);
    ASSERT_TRUE(full.ok());
    int whatIfs = 0;
    for (const Finding& f : full->findings)
      whatIfs += (f.fix.any() ? 1 : 0) + (f.fix.any() && f.otherBoundFix.any() ? 1 : 0);
    EXPECT_EQ(full->replays, whatIfs + 1);
    // Unpriced advice replays nothing.
    AdviceOptions unpriced;
    unpriced.price = false;
    auto found = adviseRun(*run, unpriced);
    ASSERT_TRUE(found.ok());
    EXPECT_EQ(found->replays, 0);
  }
}

TEST(Advice, TwoRanksExposedCommunicationAndTheStraggler) {
  // The synthetic two-rank model: each step's all-reduce runs after the matmul with nothing
  // beside it, and rank 1 starts it last at 2 of the 3 steps.
  auto run = openRun({test::fixture("synthetic_samples/allreduce_2ranks")});
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto advice = adviseRun(*run);
  ASSERT_TRUE(advice.ok());
  std::vector<const Finding*> exposed, stragglers;
  for (const auto& f : advice->findings) {
    if (f.kind == FindingKind::ExposedCommunication) exposed.push_back(&f);
    if (f.kind == FindingKind::Straggler) stragglers.push_back(&f);
  }
  ASSERT_EQ(exposed.size(), 2u);
  for (const Finding* f : exposed) {
    EXPECT_EQ(f->occurrences, 3u);
    ASSERT_TRUE(f->price.priced);
    EXPECT_GT(f->price.savingNs(), 0);
    EXPECT_LE(f->price.savingNs(), f->measuredNs);
  }
  ASSERT_EQ(stragglers.size(), 1u);
  const Finding& late = *stragglers[0];
  EXPECT_EQ(late.rank, 1);
  EXPECT_EQ(late.title,
            "straggler: rank 1 arrives last at 2 of 3 collectives; the other ranks wait 53.74 us "
            "per step");
  // Its two all-reduces, then what set their arrival: the matmul kernel they waited for (a stream
  // wait) and the host's aten::mm before its launch.
  ASSERT_GE(late.evidence.size(), 3u);
  const Trace& trace = *run->ranks[1]->trace;
  EXPECT_TRUE(trace.name(trace.events[late.evidence[0]]).starts_with("ncclDevKernel_AllReduce"));
  EXPECT_TRUE(trace.name(trace.events[late.evidence[2]]).starts_with("sm90_xmma_gemm"));
  // Rank 1 is 137.4 us late at the first all-reduce on the aligned clocks, most of it from before
  // its first step began (its profiler window opened later): no work of that rank's holds it, so
  // the model says what stays.
  ASSERT_TRUE(late.price.priced) << late.price.notPriced;
  EXPECT_GT(late.price.savingNs(), 0);
  EXPECT_LE(late.price.savingNs(), late.measuredNs);
  EXPECT_NE(late.price.model.find("101.7 us of the lateness is not on that chain"),
            std::string::npos)
      << late.price.model;
}

TEST(Advice, TheStragglersPriceIsItsLatenessWhereItsComputeIsSlow) {
  // Two ranks, two buckets a step, each bucket two compute kernels, then an all-reduce that waits
  // for them (a recorded stream wait); rank 1's kernels take 60 us where rank 0's take 40 us. So
  // rank 1 arrives 40 us after rank 0 at the first all-reduce and 80 us after at the second, and
  // each step ends 30 us (the transfer) after the second's last arrival: arriving with rank 0, it
  // saves 80 us a step. The work cut is the last kernel of each bucket: 40 us of the first
  // bucket's, and of the second bucket's the 40 us the first cut had not already moved.
  const auto dir = std::filesystem::temp_directory_path() /
                   ("sutra_advice_straggler_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  gen::RankFolderSpec spec;
  spec.ranks = 2;
  spec.steps = 3;
  spec.bucketsPerStep = 2;
  spec.kernelsPerBucket = 2;
  spec.jitter = 0;
  spec.slowRank = 1;
  spec.slowFactor = 1.5;
  spec.skewedClocks = false;
  spec.recordedWaits = true;
  auto generated = gen::generateRankFolder(dir.string(), spec);
  ASSERT_TRUE(generated.ok()) << generated.error().message;
  auto run = openRun({dir.string()});
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto advice = adviseRun(*run);
  ASSERT_TRUE(advice.ok()) << advice.error().message;
  std::filesystem::remove_all(dir);
  const Finding* late = nullptr;
  for (const auto& f : advice->findings)
    if (f.kind == FindingKind::Straggler) {
      ASSERT_EQ(late, nullptr) << "one straggler only";
      late = &f;
    }
  ASSERT_NE(late, nullptr);
  EXPECT_EQ(late->rank, 1);
  EXPECT_EQ(late->occurrences, 6u);
  ASSERT_TRUE(late->price.priced) << late->price.notPriced;
  EXPECT_EQ(late->price.savingNs(), 80'000);
  ASSERT_EQ(late->fix.deviceOpDurations.size(), 6u);
  EXPECT_TRUE(late->fix.hostCuts.empty());
  const Trace& trace = *run->ranks[1]->trace;
  for (const auto& d : late->fix.deviceOpDurations) {
    EXPECT_EQ(d.durationNs, 20'000);
    EXPECT_EQ(trace.events[d.event].dur, 60'000);
  }
  EXPECT_EQ(late->price.model.find("not on that chain"), std::string::npos) << late->price.model;
}

TEST(Advice, TheStragglerOfARealGlooRecordingIsPricedAtWhatTheOthersWaited) {
  // resources/samples/allreduce_2ranks (torch 2.13, two processes sharing two cores): rank 0's
  // matmul ran longer, so it reached two of the three all-reduces last. gloo's worker thread
  // starts each all-reduce once c10d::allreduce_ has queued it and the main thread waits for it
  // in Work.wait, so the late rank's matmul is the chain, and with two ranks removing its
  // lateness saves what the other rank waited.
  auto run = openRun({std::string(SUTRA_SOURCE_DIR) + "/resources/samples/allreduce_2ranks"});
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto advice = adviseRun(*run);
  ASSERT_TRUE(advice.ok());
  const Finding* late = nullptr;
  for (const auto& f : advice->findings)
    if (f.kind == FindingKind::Straggler && f.rank == 0) late = &f;
  ASSERT_NE(late, nullptr);
  EXPECT_EQ(late->occurrences, 2u);
  ASSERT_TRUE(late->price.priced) << late->price.notPriced;
  EXPECT_NEAR(static_cast<double>(late->price.savingNs()), static_cast<double>(late->measuredNs),
              0.01 * static_cast<double>(late->measuredNs));
  EXPECT_NE(late->explanation.find("What set its arrival: aten::matmul"), std::string::npos)
      << late->explanation;
}

TEST(Advice, RealGpuTraces) {
  SUTRA_REQUIRE_SHARED_TRACES();
  {
    // AlexNet's first iteration (checked by hand against the JSON): the process's first CUDA
    // call creates the context inside aten::empty_strided (cudaDeviceGetStreamPriorityRange,
    // 29.93 s), then cuDNN's set-up in aten::conv2d keeps the device idle.
    auto run = openRun({test::sharedTrace("hta/critical_path/alexnet.json.gz")});
    ASSERT_TRUE(run.ok());
    auto advice = adviseRun(*run);
    ASSERT_TRUE(advice.ok());
    ASSERT_FALSE(advice->findings.empty());
    const Finding& top = advice->findings[0];
    EXPECT_EQ(top.kind, FindingKind::RuntimeSetup);
    EXPECT_EQ(top.title,
              "runtime set-up in the step: cudaDeviceGetStreamPriorityRange holds the host 29.93 s "
              "per step (1 calls of 100.0 us or more)");
    EXPECT_NE(top.explanation.find("Called in aten::empty_strided"), std::string::npos)
        << top.explanation;
    const auto hostBound =
        std::find_if(advice->findings.begin(), advice->findings.end(),
                     [](const Finding& f) { return f.kind == FindingKind::HostBound; });
    ASSERT_NE(hostBound, advice->findings.end());
    EXPECT_EQ(hostBound->occurrences, 35u);
    EXPECT_NE(hostBound->explanation.find("aten::conv2d (2, 10.85 s)"), std::string::npos)
        << hostBound->explanation;
    // The caching allocator going to the driver (20 cudaMalloc of 100 us or more, 1.957 s; 13
    // cudaFree, 6.554 s), two cudaStreamCreateWithFlags, cudaGetDeviceProperties, cudaHostAlloc.
    std::vector<std::string> setup;
    for (const auto& f : advice->findings)
      if (f.kind == FindingKind::RuntimeSetup) setup.push_back(f.title);
    EXPECT_EQ(setup.size(), 6u);
    auto found = [&](std::string_view start) {
      return std::any_of(setup.begin(), setup.end(),
                         [&](const std::string& t) { return t.starts_with(start); });
    };
    EXPECT_TRUE(
        found("runtime set-up in the step: cudaMalloc holds the host 1.957 s per step (20"));
    EXPECT_TRUE(found("runtime set-up in the step: cudaFree holds the host 6.554 s per step (13"));
    EXPECT_TRUE(found("runtime set-up in the step: cudaHostAlloc holds the host 3.498 ms"));
    auto syncs =
        std::count_if(advice->findings.begin(), advice->findings.end(),
                      [](const Finding& f) { return f.kind == FindingKind::BlockingSync; });
    EXPECT_EQ(syncs, 4);
  }
  {
    auto run = openRun({test::sharedTrace("hta/critical_path/cuda_event_sync.json.gz")});
    ASSERT_TRUE(run.ok());
    auto advice = adviseRun(*run);
    ASSERT_TRUE(advice.ok());
    std::vector<std::string> titles;
    for (const auto& f : advice->findings) titles.push_back(f.title);
    // Checked by hand against the JSON (docs/performance.md): aten::ones spends 2245 us on the
    // host (aten::empty 2187 us of it, no runtime call: the allocator's first block) around a 1 us
    // fill kernel, 36 us of it in its launch; 4 launch gaps of 212 us; one cudaEventSynchronize
    // of 34 us; one pageable copy with no pinned one to take a rate from. aten::is_nonzero's 47 us
    // hold its copy and the stream sync that .item() waits in: 12 us are dispatch.
    const std::vector<std::string> expected = {
        "CPU overhead of aten::ones: 2.209 ms of dispatch per step (2.245 ms on the host) for "
        "1.000 us of device work (1 calls)",
        "host-bound: the device idles 158.0 us per step waiting for launches (4 gaps)",
        "CPU overhead of aten::gt: 21.00 us of dispatch per step (33.00 us on the host) for 1.000 "
        "us of device work (1 calls)",
        "CPU overhead of aten::is_nonzero: 12.00 us of dispatch per step (47.00 us on the host) "
        "for 2.000 us of device work (1 calls)",
        "blocking sync ProfilerStep#100 > cudaEventSynchronize: the host waits 34.00 us per step "
        "(1 "
        "calls)",
        "pageable DtoH copies: 1, 2.000 us per step on the device"};
    EXPECT_EQ(titles, expected);
    EXPECT_FALSE(advice->findings.back().price.priced);
  }
}

}  // namespace
}  // namespace sutra
