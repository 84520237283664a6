// SPDX-License-Identifier: MIT
// The rank overview on generated folders of many ranks (tests/support/rank_folder_generator.h),
// whose generator computes each step's compute, exposed communication and idle time and each
// collective's arrivals itself (pairwise overlaps, in true time), independently of Sutra's reader,
// launch index, steps, interval unions, collective matching and clock alignment.
#include "analysis/rank_overview.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "io/discover.h"
#include "rank_folder_generator.h"
#include "session/rank_overview_load.h"
#include "session/run.h"

namespace sutra {
namespace {

namespace fs = std::filesystem;

class RankOverviewTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("sutra_rank_overview_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // 12 ranks on two hosts (clocks a second apart), rank 5 30 % slower.
  gen::GeneratedRun generate(const std::string& name, gen::RankFolderSpec spec = defaultSpec()) {
    auto run = gen::generateRankFolder((dir_ / name).string(), spec);
    EXPECT_TRUE(run.ok()) << (run ? "" : run.error().message);
    return run ? std::move(run).value() : gen::GeneratedRun{};
  }
  static gen::RankFolderSpec defaultSpec() {
    gen::RankFolderSpec spec;
    spec.ranks = 12;
    spec.steps = 3;
    spec.bucketsPerStep = 3;
    spec.kernelsPerBucket = 6;
    spec.slowRank = 5;
    return spec;
  }
  RankOverviewOptions cacheIn(const std::string& name) const {
    RankOverviewOptions options;
    options.cacheDir = (dir_ / name).string();
    return options;
  }

  fs::path dir_;
};

// Every number of the overview against the generator's own.
void expectMatches(const RankOverview& o, const gen::GeneratedRun& truth) {
  ASSERT_EQ(o.ranks.size(), truth.steps.size());
  for (std::size_t r = 0; r < o.ranks.size(); ++r) {
    const auto& got = o.ranks[r];
    EXPECT_EQ(got.rank, static_cast<int>(r));
    EXPECT_EQ(got.stepSource, StepSource::ProfilerStep);
    ASSERT_EQ(got.steps.size(), truth.steps[r].size()) << "rank " << r;
    for (std::size_t s = 0; s < got.steps.size(); ++s) {
      const auto& want = truth.steps[r][s];
      SCOPED_TRACE("rank " + std::to_string(r) + " step " + std::to_string(s));
      EXPECT_EQ(got.steps[s].number, want.number);
      EXPECT_EQ(got.steps[s].start, want.start);
      EXPECT_EQ(got.steps[s].duration, want.duration);
      EXPECT_EQ(got.steps[s].compute, want.compute);
      EXPECT_EQ(got.steps[s].exposedComm, want.exposedComm);
      EXPECT_EQ(got.steps[s].idle, want.idle);
    }
    // Each rank's clock offset undoes its host's skew.
    EXPECT_EQ(o.clockOffsets[r], -truth.clockSkew[r]) << "rank " << r;
  }
  ASSERT_EQ(o.collectives.size(), truth.collectives.size());
  for (std::size_t c = 0; c < o.collectives.size(); ++c) {
    const auto& got = o.collectives[c];
    const auto& want = truth.collectives[c];
    SCOPED_TRACE("collective " + std::to_string(c));
    EXPECT_EQ(got.collective, "allreduce");
    EXPECT_EQ(got.processGroup, "0");
    ASSERT_TRUE(got.seq.has_value());
    EXPECT_EQ(*got.seq, want.seq);
    ASSERT_EQ(got.members.size(), want.arrival.size());
    const auto last = *std::max_element(want.arrival.begin(), want.arrival.end());
    for (std::size_t m = 0; m < got.members.size(); ++m) {
      EXPECT_EQ(got.members[m].rank, m);
      EXPECT_EQ(got.members[m].arrival, want.arrival[m]);
      EXPECT_EQ(got.members[m].wait, last - want.arrival[m]);
    }
    EXPECT_EQ(got.last, static_cast<std::uint32_t>(want.last));
  }
}

TEST_F(RankOverviewTest, TwelveRanksMatchTheGeneratorAndNameTheSlowRank) {
  const auto truth = generate("job");
  auto loaded = loadRankOverview({(dir_ / "job").string()}, cacheIn("cache"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->counts.ranksRead, 12u);
  EXPECT_EQ(loaded->counts.ranksFromCache, 0u);
  expectMatches(loaded->overview, truth);
  const RankOverview& o = loaded->overview;
  EXPECT_EQ(o.unmatchedComms, 0u);
  // Rank 5 arrives last at every collective: it is the one straggler, and the evidence says so.
  ASSERT_EQ(o.stragglers.size(), 1u);
  const auto& s = o.stragglers.front();
  EXPECT_EQ(o.ranks[s.rank].rank, 5);
  EXPECT_EQ(o.stats[5].lastArrivals, 9u);
  EXPECT_EQ(o.stats[5].collectives, 9u);
  EXPECT_NE(s.reason.find("arrived last at 9 of 9 collectives"), std::string::npos) << s.reason;
  EXPECT_NE(s.reason.find("compute 1.3"), std::string::npos) << s.reason;
  ASSERT_FALSE(s.worst.empty());
  TimeNs delayed = 0;
  for (const auto& c : o.collectives) {
    // Its delay: the last arrival minus the one before it, from the generator's arrivals.
    const auto& want = truth.collectives[&c - o.collectives.data()].arrival;
    auto sorted = want;
    std::sort(sorted.begin(), sorted.end());
    EXPECT_EQ(c.delay, sorted.back() - sorted[sorted.size() - 2]);
    delayed += c.delay;
  }
  EXPECT_EQ(o.stats[5].delayCausedNs, delayed);
  EXPECT_EQ(s.worst.front().delay,
            std::max_element(o.collectives.begin(), o.collectives.end(),
                             [](const auto& a, const auto& b) { return a.delay < b.delay; })
                ->delay);
}

TEST_F(RankOverviewTest, NoStragglerWhenNoRankIsSlow) {
  auto spec = defaultSpec();
  spec.slowRank = -1;
  const auto truth = generate("even", spec);
  auto loaded = loadRankOverview({(dir_ / "even").string()}, cacheIn("cache"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  expectMatches(loaded->overview, truth);
  EXPECT_TRUE(loaded->overview.stragglers.empty()) << loaded->overview.stragglers.front().reason;
}

TEST_F(RankOverviewTest, ManyRanks) {
  auto spec = defaultSpec();
  spec.ranks = 96;
  spec.steps = 2;
  spec.bucketsPerStep = 2;
  spec.kernelsPerBucket = 3;
  spec.slowRank = 70;
  const auto truth = generate("many", spec);
  RankOverviewOptions options = cacheIn("cache");
  options.jobs = 3;
  auto loaded = loadRankOverview({(dir_ / "many").string()}, options);
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->counts.jobs, 3u);
  expectMatches(loaded->overview, truth);
  ASSERT_FALSE(loaded->overview.stragglers.empty());
  EXPECT_EQ(loaded->overview.ranks[loaded->overview.stragglers.front().rank].rank, 70);
}

TEST_F(RankOverviewTest, ASecondOpenReadsNoTraceAndAChangedFileIsReadAgain) {
  const auto truth = generate("job");
  const std::string job = (dir_ / "job").string();
  // The default cache: beside the traces, which discovery then passes over.
  ASSERT_TRUE(loadRankOverview({job}).ok());
  EXPECT_TRUE(fs::is_regular_file(dir_ / "job" / ".sutra-cache" / "rank-summaries.json"));
  auto found = discoverTraces({job});
  ASSERT_TRUE(found.ok());
  ASSERT_EQ(found->files.size(), 12u);
  for (const auto& f : found->files) EXPECT_EQ(f.path.find(".sutra-cache"), std::string::npos);

  auto again = loadRankOverview({job});
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_EQ(again->counts.ranksRead, 0u);
  EXPECT_EQ(again->counts.ranksFromCache, 12u);
  expectMatches(again->overview, truth);

  // Rewriting a trace (another size and time) makes its summary stale: that rank alone is read.
  { std::ofstream(truth.files[4], std::ios::app) << "\n"; }
  auto third = loadRankOverview({job});
  ASSERT_TRUE(third.ok()) << third.error().message;
  EXPECT_EQ(third->counts.ranksRead, 1u);
  EXPECT_EQ(third->counts.ranksFromCache, 11u);
  expectMatches(third->overview, truth);

  RankOverviewOptions noCache;
  noCache.useCache = false;
  auto uncached = loadRankOverview({job}, noCache);
  ASSERT_TRUE(uncached.ok());
  EXPECT_EQ(uncached->counts.ranksRead, 12u);
}

TEST_F(RankOverviewTest, SummariesSavedInChunksMergeIntoTheSameOverview) {
  const auto truth = generate("job");
  // Two "nodes", each with half of the ranks' traces.
  for (int node = 0; node < 2; ++node) {
    fs::create_directories(dir_ / ("node" + std::to_string(node)));
    for (int r = node * 6; r < node * 6 + 6; ++r)
      fs::rename(truth.files[r],
                 dir_ / ("node" + std::to_string(node)) / fs::path(truth.files[r]).filename());
  }
  std::vector<std::string> saved;
  for (int node = 0; node < 2; ++node) {
    auto part =
        loadRankSummaries({(dir_ / ("node" + std::to_string(node))).string()}, cacheIn("cache"));
    ASSERT_TRUE(part.ok()) << part.error().message;
    ASSERT_EQ(part->summaries.size(), 6u);
    saved.push_back((dir_ / ("node" + std::to_string(node) + ".json")).string());
    std::ofstream(saved.back()) << rankSummariesToJson(part->summaries);
  }
  auto merged = loadRankOverview(saved, cacheIn("cache"));
  ASSERT_TRUE(merged.ok()) << merged.error().message;
  EXPECT_EQ(merged->counts.ranksFromFiles, 12u);
  EXPECT_EQ(merged->counts.ranksRead, 0u);
  expectMatches(merged->overview, truth);
  ASSERT_EQ(merged->overview.stragglers.size(), 1u);
  EXPECT_EQ(merged->overview.ranks[merged->overview.stragglers.front().rank].rank, 5);

  // The same from a folder that holds the saved files (what File > Rank Overview picks).
  fs::create_directories(dir_ / "summaries");
  for (const auto& f : saved) fs::rename(f, dir_ / "summaries" / fs::path(f).filename());
  auto fromFolder = loadRankOverview({(dir_ / "summaries").string()}, cacheIn("cache"));
  ASSERT_TRUE(fromFolder.ok()) << fromFolder.error().message;
  EXPECT_EQ(fromFolder->counts.ranksFromFiles, 12u);
  expectMatches(fromFolder->overview, truth);
}

TEST_F(RankOverviewTest, ARankGivenTwiceIsKeptOnceAndNoted) {
  generate("job");
  auto part = loadRankSummaries({(dir_ / "job").string()}, cacheIn("cache"));
  ASSERT_TRUE(part.ok());
  std::ofstream((dir_ / "all.json").string()) << rankSummariesToJson(part->summaries);
  auto twice =
      loadRankOverview({(dir_ / "all.json").string(), (dir_ / "job").string()}, cacheIn("cache"));
  ASSERT_TRUE(twice.ok()) << twice.error().message;
  EXPECT_EQ(twice->overview.ranks.size(), 12u);
  ASSERT_EQ(twice->overview.notes.size(), 12u);
  EXPECT_NE(twice->overview.notes.front().find("rank 0 given twice"), std::string::npos);
}

TEST_F(RankOverviewTest, CancelStopsTheLoad) {
  generate("job");
  CancelToken cancel;
  cancel.cancel();
  auto canceled = loadRankOverview({(dir_ / "job").string()}, cacheIn("cache"), {}, cancel);
  ASSERT_FALSE(canceled.ok());
  EXPECT_EQ(canceled.error().message, kCanceled);

  // Canceled from the progress callback after the first rank, as the window's Cancel does.
  CancelToken later;
  RankOverviewCallbacks callbacks;
  std::size_t calls = 0;
  callbacks.progress = [&](std::size_t done, std::size_t total, const std::string&) {
    EXPECT_EQ(total, 12u);
    EXPECT_LE(done, total);
    ++calls;
    later.cancel();
  };
  RankOverviewOptions oneAtATime = cacheIn("cache2");
  oneAtATime.jobs = 1;
  auto stopped = loadRankOverview({(dir_ / "job").string()}, oneAtATime, callbacks, later);
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.error().message, kCanceled);
  EXPECT_EQ(calls, 1u);
}

TEST_F(RankOverviewTest, ProgressCountsEveryRank) {
  generate("job");
  std::vector<std::size_t> seen;
  RankOverviewCallbacks callbacks;
  callbacks.progress = [&](std::size_t done, std::size_t total, const std::string& what) {
    EXPECT_EQ(total, 12u);
    EXPECT_FALSE(what.empty());
    seen.push_back(done);
  };
  ASSERT_TRUE(loadRankOverview({(dir_ / "job").string()}, cacheIn("cache"), callbacks).ok());
  ASSERT_EQ(seen.size(), 12u);
  for (std::size_t i = 0; i < seen.size(); ++i) EXPECT_EQ(seen[i], i + 1);
}

TEST_F(RankOverviewTest, ABrokenTraceIsNamed) {
  const auto truth = generate("job");
  fs::resize_file(truth.files[7], fs::file_size(truth.files[7]) / 2);
  auto loaded = loadRankOverview({(dir_ / "job").string()}, cacheIn("cache"));
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.error().message.find("rank7.pt.trace.json"), std::string::npos)
      << loaded.error().message;
}

TEST_F(RankOverviewTest, ABrokenSummaryFileIsNamed) {
  const std::string path = (dir_ / "bad.json").string();
  std::ofstream(path) << "{\"sutra_rank_summaries\": 1, \"ranks\": [{\"rank\": 0, "
                         "\"file_bytes\": 1, \"file_mtime_ns\": 2, \"steps\": [[1, 2]], "
                         "\"comm_keys\": [], \"comms\": []}]}";
  auto loaded = loadRankOverview({path});
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().message, path +
                                        ": not a rank summary file Sutra can read: "
                                        "ranks[0].steps[0] is not 6 integers");
  std::ofstream(path) << "{\"sutra_rank_summaries\": 2, \"ranks\": []}";
  loaded = loadRankOverview({path});
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.error().message,
            path +
                ": not a rank summary file Sutra can read: version 2 (this Sutra reads "
                "version 1)");
}

TEST_F(RankOverviewTest, SummariesRoundTripThroughJson) {
  const auto truth = generate("job");
  auto part = loadRankSummaries({(dir_ / "job").string()}, cacheIn("cache"));
  ASSERT_TRUE(part.ok());
  const std::string text = rankSummariesToJson(part->summaries);
  EXPECT_TRUE(looksLikeRankSummaries(text));
  auto back = rankSummariesFromJson(text, "x.json");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(rankSummariesToJson(*back), text);
  // Small: a rank of 9 collectives and 3 steps takes well under a kilobyte per collective.
  EXPECT_LT(text.size(), 12u * 2048u);
}

}  // namespace
}  // namespace sutra
