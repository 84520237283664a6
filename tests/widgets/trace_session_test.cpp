// SPDX-License-Identifier: MIT
#include "trace_session.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <chrono>
#include <map>
#include <thread>

#include "qt_app.h"
#include "test_support.h"

namespace sutra::gui {
namespace {

// Waits for the session to finish, fail or cancel; returns which.
QString waitForEnd(TraceSession& session) {
  QSignalSpy finished(&session, &TraceSession::finished);
  QSignalSpy failed(&session, &TraceSession::failed);
  QSignalSpy canceled(&session, &TraceSession::canceled);
  for (int i = 0; i < 600 && finished.isEmpty() && failed.isEmpty() && canceled.isEmpty(); ++i)
    finished.wait(100);
  if (!finished.isEmpty()) return QStringLiteral("finished");
  if (!failed.isEmpty()) return QStringLiteral("failed: ") + failed.front().front().toString();
  if (!canceled.isEmpty()) return QStringLiteral("canceled");
  return QStringLiteral("timeout");
}

TEST(TraceSession, OpensARealTraceAndFillsTheLanesWithTheirEvents) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  TraceSession session;
  QSignalSpy ready(&session, &TraceSession::rankReady);
  QSignalSpy linked(&session, &TraceSession::linksReady);
  session.setLaneGrouping(view::LaneGrouping::Processes);  // labels that name each lane's process
  session.open({QString::fromStdString(test::sharedTrace("param/linear_kineto.json.gz"))});
  ASSERT_EQ(waitForEnd(session), "finished");
  EXPECT_EQ(ready.count(), 1);
  EXPECT_EQ(linked.count(), 1);
  ASSERT_EQ(session.ranks().size(), 1u);
  const widgets::RankData& rank = *session.ranks()[0];
  EXPECT_EQ(rank.label, "rank0");
  ASSERT_TRUE(rank.run->launches());
  ASSERT_TRUE(rank.run->syncs());
  // Counted from the file: python3 -c "import gzip,json,collections; c=collections.Counter();
  //   [c.update([(e['pid'],e['tid'],e['cat'])]) for e in json.load(gzip.open(P))['traceEvents']
  //    if e.get('ph')=='X']; print(c)"
  std::map<std::string, std::uint64_t> counts;
  for (const auto& track : rank.layout->tracks()) counts[track.label] = track.eventCount;
  const std::map<std::string, std::uint64_t> expected{
      {"rank0 / pid 24248 / thread 24248 / framework", 12276 + 80},
      {"rank0 / pid 24248 / thread 24248 / runtime", 6107},
      {"rank0 / pid 24248 / thread 24270 / framework", 24722},
      {"rank0 / pid 24248 / thread 24270 / runtime", 8408},
      {"rank0 / GPU 0: NVIDIA GeForce RTX 2080 Ti / stream 7 / hardware", 1640 + 8716},
      {"rank0 / pid Spans / thread PyTorch Profiler / other", 1},
  };
  EXPECT_EQ(counts, expected);
  EXPECT_EQ(rank.run->trace->events.size(), 61950u);
  // Every kernel and memset of this CUDA trace was launched by a runtime call it can name.
  EXPECT_EQ(rank.run->launches()->launches().size(), 1640u + 8716u);
}

TEST(TraceSession, ReportsAMissingFileWithItsPath) {
  test::qtApp();
  TraceSession session;
  const QString path = QStringLiteral("/nonexistent/trace.json.gz");
  session.open({path});
  EXPECT_EQ(waitForEnd(session), "failed: " + path + ": no such file or directory");
  EXPECT_FALSE(session.isLoading());
  EXPECT_TRUE(session.ranks().empty());
}

TEST(TraceSession, SaysWhyAFileIsNoKinetoTrace) {
  test::qtApp();
  TraceSession session;
  const QString path = QString::fromStdString(test::fixture("widgets/not_a_trace.json"));
  session.open({path});
  const QString end = waitForEnd(session);
  EXPECT_TRUE(end.startsWith("failed: " + path + ": ")) << end.toStdString();
}

TEST(TraceSession, ATruncatedTraceFailsWithItsReason) {
  test::qtApp();
  TraceSession session;
  const QString path = QString::fromStdString(test::fixture("widgets/truncated_kineto.json.gz"));
  session.open({path});
  // The fixture is the first 1729 bytes of a gzipped 400-event trace.
  EXPECT_EQ(
      waitForEnd(session),
      "failed: " + path +
          ": truncated gzip stream: the file ends at byte 1729 before the compressed data does");
}

TEST(TraceSession, ADirectoryWithoutKinetoTracesListsWhatItHolds) {
  test::qtApp();
  TraceSession session;
  const QString dir = QString::fromStdString(test::fixture("widgets"));
  session.open({dir});
  const QString end = waitForEnd(session);
  EXPECT_TRUE(
      end.startsWith("failed: no Kineto trace (torch.profiler JSON) among the files opened\n"))
      << end.toStdString();
  EXPECT_TRUE(end.contains("not_a_trace.json: unknown")) << end.toStdString();
  EXPECT_TRUE(end.contains("truncated_kineto.json.gz: unknown (truncated gzip stream"))
      << end.toStdString();
}

TEST(TraceSession, CancelStopsTheLoad) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  TraceSession session;
  session.open({QString::fromStdString(test::sharedTrace("param/linear_kineto.json.gz"))});
  session.cancel();  // the worker checks the flag after every stage, so nothing is published
  EXPECT_EQ(waitForEnd(session), "canceled");
  EXPECT_FALSE(session.isLoading());
  EXPECT_TRUE(session.ranks().empty());
}

// A load that fails or is cancelled before its first rank leaves the run loaded before as it was.
TEST(TraceSession, AFailedOrCancelledOpenKeepsTheRunLoadedBefore) {
  test::qtApp();
  TraceSession session;
  const QString sample = QString::fromStdString(test::fixture("synthetic_samples/matmul_1024"));
  session.open({sample});
  ASSERT_EQ(waitForEnd(session), "finished");
  ASSERT_EQ(session.ranks().size(), 1u);
  const auto loaded = session.ranks().front();
  QSignalSpy replacing(&session, &TraceSession::replacing);
  session.open({QString::fromStdString(test::fixture("widgets/truncated_kineto.json.gz"))});
  EXPECT_TRUE(waitForEnd(session).startsWith("failed: "));
  session.open({QStringLiteral("/nonexistent/trace.json.gz")});
  session.cancel();
  EXPECT_NE(waitForEnd(session), "finished");
  EXPECT_TRUE(replacing.isEmpty());
  ASSERT_EQ(session.ranks().size(), 1u);
  EXPECT_EQ(session.ranks().front(), loaded);
  EXPECT_EQ(session.paths(), QStringList{sample});
  EXPECT_NE(session.run(), nullptr);
  // A load that works replaces it, at its first rank.
  session.open({sample});
  EXPECT_EQ(waitForEnd(session), "finished");
  EXPECT_EQ(replacing.size(), 1);
  ASSERT_EQ(session.ranks().size(), 1u);
  EXPECT_NE(session.ranks().front(), loaded);
}

// Cancel pressed after the worker has read the run and posted it to the GUI thread, but before
// the GUI thread has run those posts: nothing of it reaches the window, and it says cancelled.
TEST(TraceSession, ACancelAfterTheWorkerPostedKeepsTheRunLoadedBefore) {
  test::qtApp();
  TraceSession session;
  const QString sample = QString::fromStdString(test::fixture("synthetic_samples/matmul_1024"));
  session.open({sample});
  ASSERT_EQ(waitForEnd(session), "finished");
  const auto loaded = session.ranks().front();
  QSignalSpy replacing(&session, &TraceSession::replacing);
  session.open({QString::fromStdString(test::fixture("synthetic_samples/allreduce_2ranks"))});
  // The GUI thread busy (no event processed) while the worker reads, links and simulates.
  std::this_thread::sleep_for(std::chrono::seconds(2));
  session.cancel();
  EXPECT_EQ(waitForEnd(session), "canceled");
  EXPECT_TRUE(replacing.isEmpty());
  ASSERT_EQ(session.ranks().size(), 1u);
  EXPECT_EQ(session.ranks().front(), loaded);
  EXPECT_EQ(session.paths(), QStringList{sample});
}

// The window shows core's failure as it is: the same words sutra-cli prints (session_test checks
// the CLI's side).
TEST(TraceSession, FailsWithCoresMessage) {
  test::qtApp();
  for (const std::string& path :
       {test::fixture("widgets/not_a_trace.json"),
        test::fixture("widgets/truncated_kineto.json.gz"), test::fixture("widgets")}) {
    auto core = openRun({path});
    ASSERT_FALSE(core.ok());
    TraceSession session;
    session.open({QString::fromStdString(path)});
    EXPECT_EQ(waitForEnd(session), "failed: " + QString::fromStdString(core.error().message));
  }
}

}  // namespace
}  // namespace sutra::gui
