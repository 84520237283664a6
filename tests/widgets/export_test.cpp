// SPDX-License-Identifier: MIT
// Export writes files that the readers read back: CSV of a table model, Chakra .et per rank
// (linked with the ET where there is one, with progress and Cancel), ET+ JSON, the measured and
// the simulated timeline as Chrome-trace JSON; and the overwrite checks.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <cstdlib>
#include <fstream>
#include <iterator>

#include "chakra/convert_files.h"
#include "chakra/et_file.h"
#include "io/kineto_writer.h"
#include "io/readers.h"
#include "link/et_plus_reader.h"
#include "qt_app.h"
#include "session/rank_exports.h"
#include "table_export.h"
#include "test_support.h"
#include "trace_session.h"

namespace sutra::widgets {
namespace {

using chakra::ChakraExportSummary;
using chakra::chakraStemFor;
using chakra::ExportStage;
using chakra::RankExportInput;
using chakra::RankExportResult;

// Chakra export into `dir` as <stem>.<rank>.et, never over `inputs`.
ChakraExportSummary exportChakraTraces(const std::vector<RankExportInput>& ranks,
                                       const std::string& dir, const std::string& stem,
                                       std::vector<std::string> inputs,
                                       const chakra::ExportProgress& progress = {}) {
  chakra::ChakraWriteOptions write;
  write.protectedPaths = std::move(inputs);
  return chakra::exportChakraTraces(ranks, dir + "/" + stem, write, progress);
}

Status exportMeasuredTimeline(const Trace& trace, const std::string& path,
                              std::vector<std::string> inputs) {
  KinetoWriteOptions options;
  options.protectedPaths = std::move(inputs);
  return writeKinetoTrace(trace, path, options);
}

TEST(TableExport, ModelToCsvQuotesFieldsThatNeedIt) {
  test::qtApp();
  QStandardItemModel model(2, 2);
  model.setHorizontalHeaderLabels({"Name", "Time"});
  model.setItem(0, 0, new QStandardItem("aten::mm"));
  model.setItem(0, 1, new QStandardItem("1.5 us"));
  model.setItem(1, 0, new QStandardItem("void k<4, \"x\">(int)"));
  model.setItem(1, 1, new QStandardItem("2 ms"));
  EXPECT_EQ(modelToCsv(model), "Name,Time\naten::mm,1.5 us\n\"void k<4, \"\"x\"\">(int)\",2 ms\n");
  QTemporaryDir dir;
  QString error;
  ASSERT_TRUE(writeModelCsv(model, dir.filePath("t.csv"), &error)) << error.toStdString();
  QFile file(dir.filePath("t.csv"));
  ASSERT_TRUE(file.open(QIODevice::ReadOnly));
  EXPECT_EQ(QString::fromUtf8(file.readAll()), modelToCsv(model));
  EXPECT_FALSE(writeModelCsv(model, "/nonexistent/dir/t.csv", &error));
  EXPECT_TRUE(error.contains("/nonexistent/dir/t.csv"));
}

TEST(TableExport, NeverOverAnInputAskBeforeReplacingAnythingElse) {
  QTemporaryDir dir;
  const QString input = dir.filePath("trace.json"), other = dir.filePath("out.csv");
  for (const QString& path : {input, other}) {
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("{}");
  }
  ASSERT_TRUE(QFile::link(input, dir.filePath("link.json")));
  ASSERT_TRUE(QDir(dir.path()).mkdir("sub"));
  const QStringList inputs{input};
  EXPECT_EQ(checkExportTarget(dir.filePath("new.csv"), inputs), ExportTarget::New);
  EXPECT_EQ(checkExportTarget(other, inputs), ExportTarget::Exists);
  EXPECT_EQ(checkExportTarget(input, inputs), ExportTarget::IsInput);
  EXPECT_EQ(checkExportTarget(dir.filePath("sub/../trace.json"), inputs), ExportTarget::IsInput);
  EXPECT_EQ(checkExportTarget(dir.filePath("link.json"), inputs), ExportTarget::IsInput);
}

TEST(TraceExport, ChakraFilesAreNamedAfterTheRunNotItsFirstRank) {
  EXPECT_EQ(chakraStemFor("/runs/allreduce_2ranks/rank0.kineto.json.gz"), "allreduce_2ranks");
  EXPECT_EQ(chakraStemFor("/runs/x/resnet_rank-3.json.gz"), "resnet");
  EXPECT_EQ(chakraStemFor("/runs/x/Rank_12.pt.trace.json"), "x");
  EXPECT_EQ(chakraStemFor("/runs/x/linear_kineto.json.gz"), "linear_kineto");
  EXPECT_EQ(chakraStemFor("rank0.json"), "trace");  // nothing to name it after
}

TEST(TraceExport, ChakraTracesAreReadBack) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const std::string path = test::sharedTrace("hta/trace_compare/base.json.gz");
  auto trace = readKinetoTrace(path);
  ASSERT_TRUE(trace.ok());
  QTemporaryDir dir;
  const ChakraExportSummary summary = exportChakraTraces(
      {{0, std::make_shared<const Trace>(std::move(trace).value()), nullptr, "", nullptr}},
      dir.path().toStdString(), "base", {path});
  ASSERT_EQ(summary.written(), 1u) << summary.text();
  const RankExportResult& rank = summary.ranks[0];
  EXPECT_EQ(rank.path, dir.path().toStdString() + "/base.0.et");
  EXPECT_EQ(rank.matching, "kineto_only");
  auto back = chakra::readChakraTrace(rank.path);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->nodes.size(), rank.nodes);
  EXPECT_GT(rank.nodes, 0u);
  EXPECT_NE(summary.text().find("base.0.et"), std::string::npos);
}

TEST(TraceExport, ChakraRefusesToReplaceAnInput) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const std::string path = test::sharedTrace("hta/trace_compare/base.json.gz");
  auto trace = readKinetoTrace(path);
  ASSERT_TRUE(trace.ok());
  QTemporaryDir dir;
  const std::string target = dir.path().toStdString() + "/in.0.et";
  {
    QFile f(QString::fromStdString(target));
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write("x");
  }
  const ChakraExportSummary summary = exportChakraTraces(
      {{0, std::make_shared<const Trace>(std::move(trace).value()), nullptr, "", nullptr}},
      dir.path().toStdString(), "in", {target});
  EXPECT_EQ(summary.written(), 0u);
  EXPECT_FALSE(summary.ranks[0].error.empty());
  QFile f(QString::fromStdString(target));
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_EQ(f.readAll(), "x");
}

TEST(TraceExport, SimulatedTimelineIsAKinetoTraceWithEveryDeviceOp) {
  SUTRA_REQUIRE_SHARED_TRACES();
  auto trace = readKinetoTrace(test::sharedTrace("hta/trace_compare/base.json.gz"));
  ASSERT_TRUE(trace.ok());
  QTemporaryDir dir;
  const std::string out = dir.path().toStdString() + "/simulated.json";
  auto run = runOfTrace(std::make_shared<const Trace>(std::move(trace).value()));
  ASSERT_TRUE(run.ok()) << run.error().message;
  const Status status = writeSimulatedRank(*run, 0, out);
  ASSERT_TRUE(status.ok()) << status.error().message;
  auto back = readKinetoTrace(out);
  ASSERT_TRUE(back.ok()) << back.error().message;
  // base.json.gz has 18 device ops (6 kernels, 6 copies, 6 sets); with no knobs each keeps its
  // measured duration.
  std::size_t deviceOps = 0;
  TimeNs deviceTime = 0;
  for (const Event& e : back->events)
    if (isDeviceOp(e.klass)) {
      ++deviceOps;
      deviceTime += e.dur;
    }
  EXPECT_EQ(deviceOps, 18u);
  EXPECT_EQ(deviceTime, 1'694'000);
}

// The param pair: linear_kineto.json.gz recorded with linear_et.json.gz.
RankExportInput linearPair() {
  auto kineto = readKinetoTrace(test::sharedTrace("param/linear_kineto.json.gz"));
  EXPECT_TRUE(kineto.ok());
  return {0, std::make_shared<const Trace>(std::move(kineto).value()), nullptr,
          test::sharedTrace("param/linear_et.json.gz"), nullptr};
}

TEST(TraceExport, ChakraLinksTheEtAndReportsEachStage) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const RankExportInput input = linearPair();
  QTemporaryDir dir;
  std::vector<std::pair<int, ExportStage>> seen;
  const ChakraExportSummary summary =
      exportChakraTraces({input}, dir.path().toStdString(), "linear", {input.etPath},
                         [&](int index, int count, ExportStage stage) {
                           EXPECT_EQ(count, 1);
                           seen.emplace_back(index, stage);
                           return true;
                         });
  ASSERT_EQ(summary.written(), 1u) << summary.text();
  EXPECT_FALSE(summary.canceled);
  const RankExportResult& rank = summary.ranks[0];
  EXPECT_NE(rank.matching, "kineto_only");  // the ET was linked, not the Kineto trace alone
  EXPECT_EQ(rank.etPath, input.etPath);
  EXPECT_NE(summary.text().find("linked with " + input.etPath + " by "), std::string::npos)
      << summary.text();  // in words: "by alignment", never "kineto_only"
  EXPECT_EQ(summary.text().find("kineto_only"), std::string::npos);
  const std::vector<std::pair<int, ExportStage>> stages{{0, ExportStage::ReadingEt},
                                                        {0, ExportStage::Linking},
                                                        {0, ExportStage::Converting},
                                                        {0, ExportStage::Writing},
                                                        {1, ExportStage::Done}};
  EXPECT_EQ(seen, stages);
  auto back = chakra::readChakraTrace(rank.path);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->nodes.size(), rank.nodes);
  // The menu's file is the one `sutra-cli convert` writes for the pair, byte for byte, and so are
  // ASTRA-sim's configurations beside it.
  const std::string cliPrefix = dir.path().toStdString() + "/cli";
  const std::string command = std::string(SUTRA_CLI) + " convert --et '" + input.etPath +
                              "' --kineto '" + test::sharedTrace("param/linear_kineto.json.gz") +
                              "' -o '" + cliPrefix + "' > /dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0) << command;
  auto bytes = [](const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_EQ(bytes(rank.path), bytes(cliPrefix + ".0.et"));
  for (const char* config : {".network.yml", ".system.json", ".memory.json"})
    EXPECT_EQ(bytes(dir.path().toStdString() + "/linear" + config), bytes(cliPrefix + config))
        << config;
  // The same conversion without the ET has other nodes: the ET's operators are what was linked.
  const ChakraExportSummary alone = exportChakraTraces({{0, input.kineto, nullptr, "", nullptr}},
                                                       dir.path().toStdString(), "alone", {});
  ASSERT_EQ(alone.written(), 1u);
  EXPECT_EQ(alone.ranks[0].matching, "kineto_only");
  EXPECT_NE(alone.ranks[0].nodes, rank.nodes);
}

TEST(TraceExport, ChakraCancelLeavesNoFile) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const RankExportInput input = linearPair();
  QTemporaryDir dir;
  const ChakraExportSummary summary = exportChakraTraces(
      {input, input}, dir.path().toStdString(), "linear", {},
      [](int, int, ExportStage stage) { return stage != ExportStage::Converting; });
  EXPECT_TRUE(summary.canceled);
  EXPECT_EQ(summary.written(), 0u);
  ASSERT_EQ(summary.ranks.size(), 2u);
  EXPECT_EQ(summary.ranks[0].error, "cancelled");
  EXPECT_EQ(summary.ranks[1].error, "cancelled");
  EXPECT_TRUE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty());
  EXPECT_NE(summary.text().find("0 of 2 rank(s) written (cancelled)"), std::string::npos);
}

TEST(TraceExport, LinkedEtPlusIsReadBack) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const std::string etPath = test::sharedTrace("param/linear_et.json.gz");
  auto run = openRankFiles({{0, test::sharedTrace("param/linear_kineto.json.gz"), {}, etPath}},
                           RunOptions::upTo(RunStage::Link));
  ASSERT_TRUE(run.ok()) << run.error().message;
  const RankRun& input = *run->ranks[0];
  QTemporaryDir dir;
  const std::string out = dir.path().toStdString() + "/linear_plus.json";
  std::string matching;
  const Status status = writeRankEtPlus(input, out, {etPath}, &matching);
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_NE(matching, "kineto_only");
  auto back = readLinkedEt(out);
  ASSERT_TRUE(back.ok()) << back.error().message;
  // Never over an input.
  const Status refused = writeRankEtPlus(input, etPath, {etPath});
  EXPECT_FALSE(refused.ok());
}

TEST(TraceExport, MeasuredTimelineReadsBackAsTheSameEvents) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const std::string path = test::sharedTrace("hta/trace_compare/base.json.gz");
  auto trace = readKinetoTrace(path);
  ASSERT_TRUE(trace.ok());
  QTemporaryDir dir;
  for (const std::string name : {"/measured.json", "/measured.json.gz"}) {
    const std::string out = dir.path().toStdString() + name;
    const Status status = exportMeasuredTimeline(*trace, out, {path});
    ASSERT_TRUE(status.ok()) << status.error().message;
    auto back = readKinetoTrace(out);
    ASSERT_TRUE(back.ok()) << back.error().message;
    ASSERT_EQ(back->events.size(), trace->events.size());
    for (std::size_t i = 0; i < trace->events.size(); ++i) {
      EXPECT_EQ(back->events[i].start, trace->events[i].start);
      EXPECT_EQ(back->events[i].dur, trace->events[i].dur);
      EXPECT_EQ(back->name(back->events[i]), trace->name(trace->events[i]));
    }
    EXPECT_EQ(back->flows.size(), trace->flows.size());
  }
  EXPECT_FALSE(exportMeasuredTimeline(*trace, path, {path}).ok());
}

TEST(TraceExport, SessionPairsEachRankWithItsEt) {
  SUTRA_REQUIRE_SHARED_TRACES();
  test::qtApp();
  gui::TraceSession session;
  QSignalSpy finished(&session, &gui::TraceSession::finished);
  session.open({QString::fromStdString(test::sharedTrace("param"))});
  ASSERT_TRUE(finished.wait(120'000));
  ASSERT_EQ(session.ranks().size(), 1u);
  EXPECT_EQ(session.ranks()[0]->etPath.toStdString(), test::sharedTrace("param/linear_et.json.gz"));
}

}  // namespace
}  // namespace sutra::widgets
