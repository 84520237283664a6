// SPDX-License-Identifier: MIT
// Export writes files that the readers read back: CSV of a table model, Chakra .et per rank,
// the simulated timeline as Chrome-trace JSON; and the overwrite checks.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QStandardItemModel>
#include <QTemporaryDir>

#include "chakra/et_file.h"
#include "io/readers.h"
#include "qt_app.h"
#include "table_export.h"
#include "test_support.h"
#include "trace_export.h"

namespace sutra::widgets {
namespace {

TEST(TableExport, ModelToCsvQuotesFieldsThatNeedIt) {
  test::qtApp();
  QStandardItemModel model(2, 2);
  model.setHorizontalHeaderLabels({"Name", "Time"});
  model.setItem(0, 0, new QStandardItem("aten::mm"));
  model.setItem(0, 1, new QStandardItem("1.5 us"));
  model.setItem(1, 0, new QStandardItem("void k<4, \"x\">(int)"));
  model.setItem(1, 1, new QStandardItem("2 ms"));
  EXPECT_EQ(modelToCsv(model),
            "Name,Time\naten::mm,1.5 us\n\"void k<4, \"\"x\"\">(int)\",2 ms\n");
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

TEST(TraceExport, ChakraTracesAreReadBack) {
  SUTRA_REQUIRE_SHARED_TRACES();
  const std::string path = test::sharedTrace("hta/trace_compare/base.json.gz");
  auto trace = readKinetoTrace(path);
  ASSERT_TRUE(trace.ok());
  QTemporaryDir dir;
  const ChakraExportSummary summary = exportChakraTraces(
      {{0, std::make_shared<const Trace>(std::move(trace).value()), nullptr}},
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
  { QFile f(QString::fromStdString(target)); ASSERT_TRUE(f.open(QIODevice::WriteOnly)); f.write("x"); }
  const ChakraExportSummary summary = exportChakraTraces(
      {{0, std::make_shared<const Trace>(std::move(trace).value()), nullptr}},
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
  const Status status = exportSimulatedTimeline(*trace, out);
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

}  // namespace
}  // namespace sutra::widgets
