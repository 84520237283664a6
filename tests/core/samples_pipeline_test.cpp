// SPDX-License-Identifier: MIT
// The bundled samples through Sutra's pipeline: discovery pairs each rank's files, the launch index
// and sync dependencies find what the generator wrote (expected.json), and the simulator replays
// each sample exactly with no knobs.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "io/discover.h"
#include "io/readers.h"
#include "link/launch_index.h"
#include "link/sync_dependencies.h"
#include "samples_support.h"
#include "simulate/sim_graph.h"
#include "simulate/sim_inputs.h"
#include "simulate/simulator.h"
#include "test_support.h"

namespace sutra {
namespace {

std::string fileName(const std::optional<std::string>& path) {
  return path ? std::filesystem::path(*path).filename().string() : std::string("(none)");
}

TEST(SamplesPipeline, DiscoveryPairsEveryRank) {
  for (const auto& c : test::bundledSamples()) {
    SCOPED_TRACE(c.name);
    auto found = discoverTraces({c.dir});
    ASSERT_TRUE(found.ok()) << found.error().message;
    const auto& ranks = c.expected.at("ranks");
    ASSERT_EQ(found->ranks.size(), ranks.size());
    for (std::size_t r = 0; r < ranks.size(); ++r) {
      EXPECT_EQ(found->ranks[r].rank, static_cast<int>(r));
      EXPECT_EQ(fileName(found->ranks[r].kineto),
                ranks[r].at("kineto").at("file").get<std::string>());
      EXPECT_EQ(fileName(found->ranks[r].et), ranks[r].at("et").at("file").get<std::string>());
    }
    // The only notes are about the sample's non-trace files (SAMPLE.md, expected.json).
    for (const auto& note : found->notes)
      EXPECT_TRUE(note.starts_with(c.dir + "/SAMPLE.md:") ||
                  note.starts_with(c.dir + "/expected.json:"))
          << note;
    for (const auto& f : found->files) {
      if (f.path.ends_with(".gz")) {
        EXPECT_NE(f.kind, FileKind::Unknown) << f.path << ": " << f.reason;
      }
    }
  }
}

TEST(SamplesPipeline, LaunchesAndSyncsAreFoundAsGenerated) {
  for (const auto& c : test::bundledSamples()) {
    for (const auto& rank : c.expected.at("ranks")) {
      const std::string path = c.dir + "/" + rank.at("kineto").at("file").get<std::string>();
      SCOPED_TRACE(path);
      auto trace = readKinetoTrace(path);
      ASSERT_TRUE(trace.ok()) << trace.error().message;
      ProblemLog problems;
      const LaunchIndex index = LaunchIndex::build(*trace, &problems);
      const auto deviceOps = rank.at("link").at("device_ops").get<std::size_t>();
      EXPECT_EQ(index.launches().size(), deviceOps);
      EXPECT_EQ(index.linkedCount(), deviceOps) << "every device op has its launch call";
      for (const auto& launch : index.launches())
        EXPECT_NE(launch.launcher, kNoEvent) << "every launch is inside a framework op";
      EXPECT_TRUE(problems.empty()) << problems.all().front().what;

      ProblemLog syncProblems;
      const auto syncs = findSyncDependencies(*trace, index, &syncProblems);
      // Waits on an event recorded before any work on its stream in the trace (the first step's
      // side-stream wait) have nothing to wait on: counted as unresolved.
      std::uint64_t unresolved = 0;
      for (const auto& p : syncProblems.all()) unresolved += p.count;
      EXPECT_EQ(unresolved, rank.at("sync").at("event_waits_without_work").get<std::uint64_t>());
      std::size_t streamWaits = 0, hostWaits = 0;
      for (const auto& s : syncs)
        (s.kind == SyncKind::StreamWaitEvent ? streamWaits : hostWaits) += 1;
      EXPECT_EQ(streamWaits, rank.at("sync").at("stream_waits_on_work").get<std::size_t>());
      EXPECT_EQ(hostWaits, rank.at("sync").at("host_waits_on_work").get<std::size_t>());
    }
  }
}

TEST(SamplesPipeline, SimulationWithoutKnobsReplaysEachSampleExactly) {
  for (const auto& c : test::bundledSamples()) {
    for (const auto& rank : c.expected.at("ranks")) {
      const std::string path = c.dir + "/" + rank.at("kineto").at("file").get<std::string>();
      SCOPED_TRACE(path);
      auto trace = readKinetoTrace(path);
      ASSERT_TRUE(trace.ok()) << trace.error().message;
      const LaunchIndex index = LaunchIndex::build(*trace);
      const SimGraph graph =
          buildSimGraph(*trace, simInputsFromKineto(index, findSyncDependencies(*trace, index)));
      EXPECT_TRUE(graph.problems.empty()) << graph.problems.all().front().what;
      EXPECT_EQ(graph.deviceOpCount(), rank.at("link").at("device_ops").get<std::size_t>());
      EXPECT_EQ(graph.streamWaitsUsed,
                rank.at("sync").at("stream_waits_on_work").get<std::uint64_t>());
      EXPECT_EQ(graph.hostWaitsUsed,
                rank.at("sync").at("blocking_calls_on_work").get<std::uint64_t>());
      auto run = simulate(graph);
      ASSERT_TRUE(run.ok()) << run.error().message;
      EXPECT_EQ(run->forcedNodes, 0u);
      std::size_t replayed = 0;
      TimeNs lastDeviceEnd = 0;
      for (EventId e = 0; e < trace->events.size(); ++e) {
        const Event& ev = trace->events[e];
        if (!isDeviceOp(ev.klass)) continue;
        auto times = simulatedTimes(graph, *run, e);
        ASSERT_TRUE(times.has_value());
        EXPECT_EQ(times->first, ev.start);
        EXPECT_EQ(times->second, ev.end());
        lastDeviceEnd = std::max(lastDeviceEnd, ev.end());
        ++replayed;
      }
      EXPECT_EQ(replayed, rank.at("link").at("device_ops").get<std::size_t>());
      EXPECT_GE(run->finish, lastDeviceEnd);
    }
  }
}

}  // namespace
}  // namespace sutra
