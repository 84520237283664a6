// SPDX-License-Identifier: MIT
// The ChartView that draws chart data (view/chart_data.h, tested in tests/view) and saves it, over
// tests/data/charts/two_streams.json.
#include "chart_view.h"

#include <gtest/gtest.h>
#include <qcustomplot.h>

#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "charts_view.h"
#include "io/readers.h"
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

TEST(ChartView, DrawsEachChartAndSavesPngSvgPdf) {
  test::qtApp();
  const auto trace = std::make_shared<const Trace>(twoStreams());
  ChartsView charts;
  charts.resize(900, 600);
  auto run = runOfTrace(trace, RunOptions::upTo(RunStage::Analyse));
  ASSERT_TRUE(run.ok());
  QSignalSpy ready(&charts, &ChartsView::ready);
  // The view only draws: its data comes computed (by the app, off the GUI thread).
  charts.showCharts({deviceUtilisation(*trace, 200), kernelDurationHistogram(*trace),
                     topOperatorsByDeviceTime(*run->ranks[0]->opTable(), 15)});
  EXPECT_EQ(ready.size(), 1);
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

namespace sutra::widgets {
namespace {

// Twelve streams on one plot read as none: the chart keeps the six busiest (in the trace's order),
// says so in its title, and its legend sits under the plot, not over the lines.
TEST(ChartView, UtilisationOfManyStreamsShowsTheBusiestWithTheLegendUnderThePlot) {
  test::qtApp();
  UtilisationSeries series;
  series.bucketNs = 1000;
  for (int s = 0; s < 12; ++s) {
    StreamUtilisation stream;
    stream.label = "stream " + std::to_string(s);
    stream.busy.assign(10, s % 2 == 0 ? 0.1 * s / 12.0 : 0.9);  // the odd streams are busiest
    series.streams.push_back(stream);
  }
  ChartView chart;
  chart.resize(800, 500);
  chart.showUtilisation(series);
  ASSERT_EQ(chart.seriesCount(), 6);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(chart.seriesName(i), QString("stream %1").arg(2 * i + 1));
  EXPECT_EQ(chart.title(), "Device utilisation: the 6 busiest of 12 streams");
  chart.plot()->replot();
  const QRect plotArea = chart.plot()->axisRect()->rect();
  const QRect legend = chart.plot()->legend->outerRect();
  EXPECT_TRUE(chart.plot()->legend->visible());
  EXPECT_GE(legend.top(), plotArea.bottom()) << "the legend overlaps the plot";
}

}  // namespace
}  // namespace sutra::widgets
