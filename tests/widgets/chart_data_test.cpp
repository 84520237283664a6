// SPDX-License-Identifier: MIT
// Chart data over tests/data/charts/two_streams.json (hand-made; expected values worked out by
// hand in the comments) and the ChartView that draws and saves it.
#include "chart_data.h"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "chart_view.h"
#include "charts_view.h"
#include "io/readers.h"
#include "link/launch_index.h"
#include "qt_app.h"
#include "session/run.h"
#include "test_support.h"
#include "theme.h"

namespace sutra::widgets {
namespace {

Trace twoStreams() {
  auto trace = readKinetoTrace(test::fixture("charts/two_streams.json"));
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error().message);
  return std::move(trace).value();
}

TEST(ChartData, UtilisationIsTheUnionOfDeviceOpsPerBucket) {
  const Trace trace = twoStreams();
  // Extent 0..600 us in 6 buckets of 100 us. Stream 7: gemm [100,300) and [250,350) overlap, so
  // busy [100,350): 0, 1, 1, 0.5, 0, 0. Stream 8: relu [400,408), memcpy [500,600).
  const UtilisationSeries u = deviceUtilisation(trace, 6);
  EXPECT_EQ(u.start, 0);
  EXPECT_EQ(u.bucketNs, 100'000);
  ASSERT_EQ(u.streams.size(), 2u);
  EXPECT_EQ(u.streams[0].label, "stream 7 (device 0)");
  EXPECT_EQ(u.streams[0].busy, (std::vector<double>{0, 1, 1, 0.5, 0, 0}));
  EXPECT_EQ(u.streams[1].label, "stream 8 (device 0)");
  EXPECT_EQ(u.streams[1].busy, (std::vector<double>{0, 0, 0, 0, 0.08, 1}));
}

TEST(ChartData, KernelHistogramInPowerOfTwoBins) {
  const Trace trace = twoStreams();
  // Kernels of 200 us (2^17 <= 200000 < 2^18), 100 us (2^16..) and 8 us (2^12..); the copy is
  // no kernel.
  const DurationHistogram h = kernelDurationHistogram(trace);
  EXPECT_EQ(h.firstPower, 12);
  EXPECT_EQ(h.counts, (std::vector<std::uint64_t>{1, 0, 0, 0, 1, 1}));
}

TEST(ChartData, TopOperatorsByDeviceTime) {
  const Trace trace = twoStreams();
  const LaunchIndex launches = LaunchIndex::build(trace);
  OpTableOptions options;
  options.window = wholeTraceWindow(trace);
  const auto top = topOperatorsByDeviceTime(buildOpTable(trace, launches, options), 2);
  ASSERT_EQ(top.size(), 2u);
  EXPECT_EQ(top[0].name, "gemm");
  EXPECT_EQ(top[0].value, 300'000);
  EXPECT_EQ(top[1].name, "Memcpy HtoD (Pageable -> Device)");
  EXPECT_EQ(top[1].value, 100'000);
}

TEST(ChartView, DrawsEachChartAndSavesPngSvgPdf) {
  test::qtApp();
  const auto trace = std::make_shared<const Trace>(twoStreams());
  ChartsView charts;
  charts.resize(900, 600);
  auto run = runOfTrace(trace, {.until = RunStage::Analyse});
  ASSERT_TRUE(run.ok());
  QSignalSpy ready(&charts, &ChartsView::ready);
  charts.setRank(trace, run->ranks[0]->opTable);  // returns at once: computed off the GUI thread
  ASSERT_TRUE(ready.wait(10'000));
  EXPECT_EQ(charts.utilisation()->seriesCount(), 2);  // one graph per stream
  EXPECT_EQ(charts.histogram()->seriesCount(), 1);
  EXPECT_EQ(charts.topOperators()->seriesCount(), 1);

  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QString error;
  ASSERT_TRUE(charts.utilisation()->save(dir.filePath("u.png"), &error)) << error.toStdString();
  const QImage png(dir.filePath("u.png"));
  EXPECT_FALSE(png.isNull());
  EXPECT_GE(png.width(), 800);
  ASSERT_TRUE(charts.histogram()->save(dir.filePath("h.svg"), &error)) << error.toStdString();
  QFile svg(dir.filePath("h.svg"));
  ASSERT_TRUE(svg.open(QIODevice::ReadOnly));
  EXPECT_TRUE(svg.readAll().contains("<svg"));
  ASSERT_TRUE(charts.topOperators()->save(dir.filePath("t.pdf"), &error)) << error.toStdString();
  QFile pdf(dir.filePath("t.pdf"));
  ASSERT_TRUE(pdf.open(QIODevice::ReadOnly));
  EXPECT_TRUE(pdf.read(5).startsWith("%PDF"));
  EXPECT_FALSE(charts.utilisation()->save(dir.filePath("u.bmp"), &error));
  EXPECT_TRUE(error.contains("u.bmp"));
}

TEST(ChartView, FollowsThePalette) {
  test::qtApp();
  ChartView chart;
  chart.showHistogram(DurationHistogram{10, {3, 1}});
  EXPECT_EQ(chart.plot()->xAxis->tickLabelColor(), theme(ThemeKind::Light).chartText);
  // A dark palette (window colour dark) switches the chart to the dark theme's colours.
  chart.setPalette(qtPalette(ThemeKind::Dark));
  EXPECT_EQ(chart.plot()->xAxis->tickLabelColor(), QColor(0xdd, 0xe1, 0xe8));
  chart.resize(400, 300);
  EXPECT_EQ(chart.grab().toImage().pixelColor(1, 298), theme(ThemeKind::Dark).chartBackground);
}

}  // namespace
}  // namespace sutra::widgets
