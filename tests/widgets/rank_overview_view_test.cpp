// SPDX-License-Identifier: MIT
// The rank overview view on an overview built from hand-made summaries (numbers known), and File
// > Rank Overview's loading on a generated folder: progress, the window, a click that opens a rank.
#include "rank_overview_view.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <filesystem>

#include "analysis/rank_overview.h"
#include "main_window.h"
#include "problems_model.h"
#include "qt_app.h"
#include "rank_folder_generator.h"
#include "rank_overview_action.h"
#include "test_support.h"
#include "trace_session.h"

namespace sutra {
namespace {

// Four ranks of three steps; rank 2 computes 50 % longer and arrives last at both collectives.
std::shared_ptr<const RankOverview> fourRanks() {
  std::vector<RankSummary> ranks;
  for (int r = 0; r < 4; ++r) {
    RankSummary s;
    s.rank = r;
    s.path = "/job/rank" + std::to_string(r) + ".json";
    const TimeNs compute = r == 2 ? 1500 : 1000 + r;
    for (int k = 0; k < 3; ++k)
      s.steps.push_back({k, k * 10'000, 3000 + k, compute, 500, 3000 + k - compute - 500});
    s.commKeys.push_back({"0", "allreduce"});
    for (int c = 0; c < 2; ++c)
      s.comms.push_back({0, c, c, c * 10'000 + (r == 2 ? 2000 : 1000 + r), c * 10'000 + 2500});
    ranks.push_back(std::move(s));
  }
  return std::make_shared<const RankOverview>(buildRankOverview(std::move(ranks)));
}

// The rank overview's window, once it is up (it reads the ranks on a worker first); null after
// 10 s.
widgets::RankOverviewView* waitForOverviewWindow() {
  for (int i = 0; i < 400; ++i) {
    QTest::qWait(25);
    for (QWidget* w : QApplication::topLevelWidgets())
      if (auto* v = w->findChild<widgets::RankOverviewView*>("RankOverviewView")) return v;
  }
  return nullptr;
}

TEST(RankOverviewView, ModelPassesTheTesterAndSortsLargestFirst) {
  test::qtApp();
  widgets::RankOverviewView view;
  view.setOverview(fourRanks());
  QAbstractItemModelTester tester(view.table()->model(),
                                  QAbstractItemModelTester::FailureReportingMode::Fatal);
  auto* model = view.table()->model();
  ASSERT_EQ(model->rowCount(), 4);
  EXPECT_EQ(model->data(model->index(2, widgets::RankOverviewModel::Compute), widgets::kSortRole)
                .toLongLong(),
            1500);
  EXPECT_EQ(model->data(model->index(2, widgets::RankOverviewModel::Last), widgets::kSortRole)
                .toLongLong(),
            2);
  // What a click on Compute does (the indicator moves there, ascending): largest first, rank 2 on
  // top.
  view.table()->horizontalHeader()->setSortIndicator(widgets::RankOverviewModel::Compute,
                                                     Qt::AscendingOrder);
  EXPECT_EQ(view.table()->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
  EXPECT_EQ(model->data(model->index(0, widgets::RankOverviewModel::Rank)).toInt(), 2);
  EXPECT_TRUE(view.summary()->text().contains("Straggler: rank 2: arrived last at 2 of 2"))
      << view.summary()->text().toStdString();
}

TEST(RankOverviewView, HeatMapShowsEachMetricAndAClickOpensTheRank) {
  test::qtApp();
  widgets::RankOverviewView view;
  view.resize(800, 600);
  view.setOverview(fourRanks());
  view.show();
  QApplication::processEvents();
  auto* map = view.heatMap();
  ASSERT_EQ(map->columns(), 3);
  EXPECT_EQ(map->metric(), widgets::RankHeatMap::Metric::Compute);  // where a straggler shows
  view.metricBox()->setCurrentIndex(0);
  EXPECT_EQ(map->metric(), widgets::RankHeatMap::Metric::StepTime);
  EXPECT_EQ(map->value(1, 2), TimeNs{3002});  // rank 1, step 2: its duration
  view.metricBox()->setCurrentIndex(1);
  EXPECT_EQ(map->metric(), widgets::RankHeatMap::Metric::Compute);
  EXPECT_EQ(map->value(2, 0), TimeNs{1500});
  view.metricBox()->setCurrentIndex(4);
  ASSERT_EQ(map->columns(), 2);  // ranks x collectives: the waits
  EXPECT_EQ(map->value(2, 0), TimeNs{0});
  EXPECT_EQ(map->value(0, 0), TimeNs{1000});  // rank 0 arrived at 1000, rank 2 at 2000
  EXPECT_FALSE(map->grab().isNull());

  QSignalSpy opened(&view, &widgets::RankOverviewView::openRanksRequested);
  const int rowHeight = map->height() / 4;
  QTest::mouseClick(map, Qt::LeftButton, {},
                    QPoint(map->width() / 2, rowHeight * 3 + rowHeight / 2));
  ASSERT_EQ(opened.count(), 1);
  EXPECT_EQ(opened.at(0).at(0).value<QList<int>>(), QList<int>{3});

  // Several ranks chosen in the table open together.
  view.table()->selectRow(0);
  view.table()->selectionModel()->select(view.table()->model()->index(2, 0),
                                         QItemSelectionModel::Select | QItemSelectionModel::Rows);
  EXPECT_EQ(view.selectedRanks(), (QList<int>{0, 2}));
}

// The user's cache folder inside a test's folder while the test runs; as it was after.
class ScopedCacheHome {
 public:
  explicit ScopedCacheHome(const std::filesystem::path& dir)
      : had_(qEnvironmentVariableIsSet("XDG_CACHE_HOME")), old_(qgetenv("XDG_CACHE_HOME")) {
    qputenv("XDG_CACHE_HOME", QByteArray::fromStdString((dir / "user-cache").string()));
  }
  ~ScopedCacheHome() {
    if (had_)
      qputenv("XDG_CACHE_HOME", old_);
    else
      qunsetenv("XDG_CACHE_HOME");
  }
  ScopedCacheHome(const ScopedCacheHome&) = delete;
  ScopedCacheHome& operator=(const ScopedCacheHome&) = delete;

 private:
  bool had_;
  QByteArray old_;
};

// A generated job of 20 ranks (rank `slow` the straggler, -1 none) in the fresh folder `dir`.
Result<gen::GeneratedRun> generatedJob(const std::filesystem::path& dir, int slow) {
  gen::RankFolderSpec spec;
  spec.ranks = 20;
  spec.steps = 2;
  spec.bucketsPerStep = 2;
  spec.kernelsPerBucket = 3;
  if (slow >= 0) spec.slowRank = slow;
  return gen::generateRankFolder(dir.string(), spec);
}

TEST(RankOverviewAction, ReadsAFolderAndOpensTheClickedRank) {
  test::qtApp();
  namespace fs = std::filesystem;
  const test::TempDir scratch;
  const fs::path dir = scratch.path() / "job";
  const ScopedCacheHome cacheHome(scratch.path());
  auto run = generatedJob(dir, 17);
  ASSERT_TRUE(run.ok());

  QWidget parent;
  QStringList openedPaths;
  gui::showRankOverview(&parent, {QString::fromStdString(dir.string())},
                        [&](const QStringList& paths) { openedPaths = paths; });
  widgets::RankOverviewView* view = waitForOverviewWindow();
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->table()->model()->rowCount(), 20);
  EXPECT_TRUE(view->summary()->text().contains("Straggler: rank 17"))
      << view->summary()->text().toStdString();
  emit view->heatMap()->rankClicked(17);
  EXPECT_EQ(openedPaths, QStringList{QString::fromStdString(run->files[17])});
  for (QWidget* w : QApplication::topLevelWidgets())
    if (w->findChild<widgets::RankOverviewView*>("RankOverviewView")) w->close();
}

}  // namespace
}  // namespace sutra

namespace sutra {
namespace {

// Opening a folder of more ranks than the all-ranks view shows (here 20 > 16) in the window reads
// no rank into the timeline: the rank overview comes up, and a rank clicked there opens alone.
TEST(RankOverviewAction, TheWindowOpensABigJobAsItsOverview) {
  test::qtApp();
  namespace fs = std::filesystem;
  const test::TempDir scratch;
  const fs::path dir = scratch.path() / "job";
  const ScopedCacheHome cacheHome(scratch.path());
  auto run = generatedJob(dir, -1);
  ASSERT_TRUE(run.ok());
  gui::MainWindow window;
  window.openPaths({QString::fromStdString(dir.string())});
  EXPECT_FALSE(window.session().isLoading());  // no rank is being read into the timeline
  widgets::RankOverviewView* view = waitForOverviewWindow();
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->table()->model()->rowCount(), 20);
  QSignalSpy loaded(&window, &gui::MainWindow::loadFinished);
  emit view->heatMap()->rankClicked(3);
  for (int i = 0; i < 400 && loaded.isEmpty(); ++i) loaded.wait(25);
  ASSERT_FALSE(loaded.isEmpty());
  EXPECT_EQ(window.session().paths(), QStringList{QString::fromStdString(run->files[3])});
  for (QWidget* w : QApplication::topLevelWidgets())
    if (w->findChild<widgets::RankOverviewView*>("RankOverviewView")) w->close();
}

}  // namespace
}  // namespace sutra
