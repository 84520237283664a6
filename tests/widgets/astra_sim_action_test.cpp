// SPDX-License-Identifier: MIT
// Analysis > Simulate with ASTRA-sim... as a user drives it, with a fake ASTRA-sim (a shell script
// the test writes, named by $ASTRA_SIM): the run is exported to Chakra with its configurations,
// the fake is run on them, and its finish times are shown beside measured and Sutra's replay; a
// fake that fails gives an error box with core's message; with no ASTRA-sim the action explains
// and offers to choose the binary. Runs on the bundled 2-rank sample.
#include "astra_sim_action.h"

#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QProgressDialog>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include "astra_sim_results_view.h"
#include "main_window.h"
#include "qt_app.h"
#include "test_support.h"

namespace sutra::gui {
namespace {

QString sample(const char* name) {
  return QString::fromStdString(test::fixture("synthetic_samples/")) + name;
}

QAction* astraSimAction(QWidget* window) {
  for (QMenu* m : window->findChildren<QMenu*>())
    if (m->title().remove('&') == "Analysis")
      for (QAction* a : m->actions())
        if (a->text().remove('&') == "Simulate with ASTRA-sim...") return a;
  return nullptr;
}

template <typename T>
T* waitForChild(QWidget* parent, const QString& objectName = {}) {
  for (int i = 0; i < 600; ++i) {
    if (auto* child = parent->findChild<T*>(objectName)) return child;
    QTest::qWait(100);
  }
  return nullptr;
}

// Sets an environment variable for one test and puts the old value back.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const QByteArray& value)
      : name_(name), had_(qEnvironmentVariableIsSet(name)), old_(qgetenv(name)) {
    qputenv(name, value);
  }
  ~ScopedEnv() {
    if (had_)
      qputenv(name_, old_);
    else
      qunsetenv(name_);
  }

 private:
  const char* name_;
  bool had_;
  QByteArray old_;
};

class AstraSimAction : public ::testing::Test {
 protected:
  void SetUp() override {
    test::qtApp();
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_.path());
    QSettings().clear();
  }

  // A stand-in for ASTRA-sim: checks that it was given the export's ranks and configurations,
  // then prints `body`.
  QString fake(const QString& name, const QString& body) {
    const QString path = dir_.filePath(name);
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral("#!/bin/sh\n"
                              "for a in \"$@\"; do case \"$a\" in\n"
                              "  --workload-configuration=*) w=\"${a#*=}\";;\n"
                              "  --network-configuration=*) n=\"${a#*=}\";;\n"
                              "esac; done\n"
                              "echo \"$@\" > %1\n"
                              "test -f \"$w.0.et\" && test -f \"$w.1.et\" && test -f \"$n\" || "
                              "{ echo \"error: no export at $w\"; exit 9; }\n")
                   .arg(dir_.filePath("args"))
                   .toUtf8() +
               body.toUtf8());
    file.close();
    file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
  }

  void openSample(MainWindow& window) {
    QSignalSpy loaded(&window, &MainWindow::loadFinished);
    window.openPaths({sample("allreduce_2ranks")});
    for (int i = 0; i < 600 && loaded.isEmpty(); ++i) loaded.wait(100);
    ASSERT_FALSE(loaded.isEmpty());
  }

  QTemporaryDir settings_;
  QTemporaryDir dir_;
};

TEST_F(AstraSimAction, IsDisabledUntilARunHasLoaded) {
  MainWindow window;
  QAction* action = astraSimAction(&window);
  ASSERT_NE(action, nullptr);
  EXPECT_FALSE(action->isEnabled());
  EXPECT_FALSE(action->toolTip().isEmpty());
}

TEST_F(AstraSimAction, ShowsTheFakesFinishTimesBesideMeasuredAndSutra) {
  ScopedEnv env("ASTRA_SIM", fake("astra",
                                  "echo 'sys[1] finished, 2000 cycles, exposed communication 20 "
                                  "cycles.'\n"
                                  "echo 'sys[0] finished, 1000 cycles, exposed communication 10 "
                                  "cycles.'\n")
                                 .toUtf8());
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openSample(window));
  QAction* action = astraSimAction(&window);
  ASSERT_NE(action, nullptr);
  ASSERT_TRUE(action->isEnabled());
  action->trigger();
  auto* progress = window.findChild<QProgressDialog*>("AstraSimProgress");
  ASSERT_NE(progress, nullptr);
  EXPECT_GT(progress->maximum(), 2);

  auto* view = waitForChild<widgets::AstraSimResultsView>(&window);
  ASSERT_NE(view, nullptr)
      << "no results; error box: "
      << (window.findChild<QMessageBox*>("AstraSimError")
              ? window.findChild<QMessageBox*>("AstraSimError")->text().toStdString()
              : std::string("none"));
  const AstraSimComparison& results = view->results();
  ASSERT_EQ(results.rows.size(), 2u);
  for (int rank : {0, 1}) {
    const AstraSimRankRow& row = results.rows[std::size_t(rank)];
    EXPECT_EQ(row.rank, rank);
    EXPECT_EQ(row.astraSimNs, 1000 * (rank + 1));
    ASSERT_TRUE(row.exposedCommNs);
    EXPECT_EQ(*row.exposedCommNs, 10 * (rank + 1));
    ASSERT_TRUE(row.measuredNs);  // the export keeps the measured times
    EXPECT_GT(*row.measuredNs, 0);
    ASSERT_TRUE(row.sutraNs);
    EXPECT_GT(*row.sutraNs, 0);
    // The export is laid out for ASTRA-sim: under its rules each rank ends where it was measured.
    ASSERT_TRUE(row.astraModelNs);
    EXPECT_NEAR(double(*row.astraModelNs), double(*row.measuredNs), 0.01 * double(*row.measuredNs));
  }
  EXPECT_EQ(view->findChild<QTableWidget*>("AstraSimTable")->rowCount(), 2);
  const QString header = view->findChild<QLabel*>("AstraSimHeader")->text();
  EXPECT_TRUE(header.contains("Ring, 2 NPUs")) << header.toStdString();
  EXPECT_TRUE(header.contains(dir_.filePath("astra"))) << header.toStdString();
  // The fake was given the export's files, named after the run.
  QFile args(dir_.filePath("args"));
  ASSERT_TRUE(args.open(QIODevice::ReadOnly));
  EXPECT_TRUE(args.readAll().contains("allreduce_2ranks.system.json"));
  EXPECT_TRUE(window.findChild<QProgressDialog*>("AstraSimProgress") == nullptr ||
              !window.findChild<QProgressDialog*>("AstraSimProgress")->isVisible());
}

TEST_F(AstraSimAction, AFailingAstraSimGivesCoresMessage) {
  ScopedEnv env("ASTRA_SIM",
                fake("astra", "echo 'error: bad network file' >&2\nexit 1\n").toUtf8());
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openSample(window));
  astraSimAction(&window)->trigger();
  auto* box = waitForChild<QMessageBox>(&window, "AstraSimError");
  ASSERT_NE(box, nullptr);
  EXPECT_TRUE(box->text().contains("exited with status 1")) << box->text().toStdString();
  EXPECT_TRUE(box->text().contains("bad network file")) << box->text().toStdString();
  EXPECT_EQ(window.findChild<widgets::AstraSimResultsView*>(), nullptr);
  box->close();
}

TEST_F(AstraSimAction, WithoutAstraSimItExplainsAndOffersToChooseTheBinary) {
  ScopedEnv env("ASTRA_SIM", "");
  ScopedEnv path("PATH", dir_.path().toUtf8());  // nothing named like ASTRA-sim on it
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openSample(window));
  QAction* action = astraSimAction(&window);
  ASSERT_TRUE(action->isEnabled());  // enabled, to explain rather than do nothing
  EXPECT_TRUE(action->toolTip().contains("ASTRA_SIM")) << action->toolTip().toStdString();
  EXPECT_TRUE(action->toolTip().contains("choose")) << action->toolTip().toStdString();

  QString informative;
  bool offered = false;
  QTimer::singleShot(0, [&] {
    // The dialog runs its own event loop; answer it from inside that loop.
    auto answer = std::make_shared<std::function<void()>>();
    *answer = [&, answer] {
      for (QWidget* w : QApplication::topLevelWidgets())
        if (auto* box = qobject_cast<QMessageBox*>(w);
            box && box->isVisible() && box->objectName() == "AstraSimNotFound") {
          informative = box->informativeText();
          for (QAbstractButton* b : box->buttons())
            offered |= b->text().remove('&') == "Choose binary...";
          box->reject();
          return;
        }
      QTimer::singleShot(20, *answer);
    };
    (*answer)();
  });
  action->trigger();  // returns once the dialog is answered
  EXPECT_TRUE(offered);
  EXPECT_TRUE(informative.contains("ASTRA_SIM=")) << informative.toStdString();
  EXPECT_EQ(window.findChild<QProgressDialog*>("AstraSimProgress"), nullptr);

  // A binary chosen before is used where the environment has none.
  const QString chosen = fake("chosen", "exit 0\n");
  QSettings().setValue(kAstraSimSettingsKey, chosen);
  EXPECT_EQ(findAstraSimForGui(), chosen);
}

}  // namespace
}  // namespace sutra::gui
