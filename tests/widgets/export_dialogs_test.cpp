// SPDX-License-Identifier: MIT
// File > Export as a user drives it, dialogs included: the file dialog is answered, the progress
// dialog counts every rank's stages, the summary or result box says what was written, and the files
// read back. Runs on the bundled samples, so it needs nothing beside the project.
#include <gtest/gtest.h>

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QProgressBar>
#include <QProgressDialog>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <functional>
#include <memory>

#include "chakra/convert_files.h"
#include "chakra/et_file.h"
#include "io/readers.h"
#include "main_window.h"
#include "qt_app.h"
#include "simulation_view.h"
#include "test_support.h"

namespace sutra::gui {
namespace {

QString sample(const char* name) {
  return QString::fromStdString(test::fixture("synthetic_samples/")) + name;
}

QAction* actionNamed(QWidget* window, const QString& menu, const QString& text) {
  for (QMenu* m : window->findChildren<QMenu*>())
    if (m->title().remove('&') == menu)
      for (QAction* a : m->actions())
        if (a->text().remove('&') == text) return a;
  return nullptr;
}

// The file dialog on screen, if any (a dialog with a parent is still a top-level window).
QFileDialog* visibleFileDialog() {
  for (QWidget* w : QApplication::topLevelWidgets())
    if (auto* dialog = qobject_cast<QFileDialog*>(w); dialog && dialog->isVisible()) return dialog;
  return nullptr;
}

// Answers the next file dialog as a user would: types `path` and presses Save (or Choose), again
// on every tick until the dialog has closed (a press can come before the dialog is ready to take
// it). `answered` turns true at the first press. A dialog still open after a minute is cancelled,
// so that a broken test fails instead of hanging.
void answerNextFileDialog(const QString& path, bool* answered) {
  auto* poll = new QTimer;
  auto pressed = std::make_shared<QPointer<QFileDialog>>();
  auto ticks = std::make_shared<int>(0);
  QObject::connect(poll, &QTimer::timeout, poll, [poll, path, answered, pressed, ticks] {
    if (*answered && (!*pressed || !(*pressed)->isVisible())) {  // closed: done
      poll->deleteLater();
      return;
    }
    QFileDialog* dialog = *answered ? pressed->data() : visibleFileDialog();
    if (!dialog) return;
    if (++*ticks > 3000) {
      dialog->reject();
      return;
    }
    // Typed into the name field: selectFile() leaves a focused field as it is.
    if (auto* name = dialog->findChild<QLineEdit*>("fileNameEdit"))
      name->setText(path);
    else
      dialog->selectFile(path);
    static_cast<QDialog*>(dialog)->accept();  // QFileDialog::accept, as its button calls it
    *pressed = dialog;
    *answered = true;
  });
  poll->start(20);
}

// Waits (processing events) for a child of that name, at most a minute.
template <typename T>
T* waitForChild(QWidget* parent, const char* objectName) {
  for (int i = 0; i < 600; ++i) {
    if (auto* child = parent->findChild<T*>(objectName)) return child;
    QTest::qWait(100);
  }
  return nullptr;
}

void openSample(MainWindow& window, const QString& path) {
  QSignalSpy loaded(&window, &MainWindow::loadFinished);
  window.openPaths({path});
  for (int i = 0; i < 600 && loaded.isEmpty(); ++i) loaded.wait(100);
  ASSERT_FALSE(loaded.isEmpty());
  ASSERT_FALSE(window.findChild<QMessageBox*>("ErrorDialog"));
}

TEST(ExportDialogs, ChakraCountsEveryStageOfEveryRankThenSummarises) {
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openSample(window, sample("allreduce_2ranks")));
  QTemporaryDir out;
  QAction* chakra = actionNamed(&window, "Export", "Chakra trace(s)...");
  ASSERT_NE(chakra, nullptr);
  bool answered = false;
  answerNextFileDialog(out.path(), &answered);
  chakra->trigger();  // returns once the directory is chosen and the export runs
  ASSERT_TRUE(answered);

  auto* progress = window.findChild<QProgressDialog*>("ChakraExportProgress");
  ASSERT_NE(progress, nullptr);
  EXPECT_EQ(progress->maximum(), 2 * chakra::kExportStages);  // two ranks, every stage
  auto* bar = progress->findChild<QProgressBar*>();
  ASSERT_NE(bar, nullptr);
  QSignalSpy values(bar, &QProgressBar::valueChanged);

  auto* summary = waitForChild<QMessageBox>(&window, "ChakraExportSummary");
  ASSERT_NE(summary, nullptr);
  ASSERT_FALSE(values.isEmpty());
  EXPECT_EQ(values.back().front().toInt(), 2 * chakra::kExportStages);  // the bar reached its end
  for (int rank : {0, 1}) {
    const QString file = QStringLiteral("allreduce_2ranks.%1.et").arg(rank);  // named after the run
    EXPECT_TRUE(summary->text().contains(file)) << summary->text().toStdString();
    auto back = chakra::readChakraTrace((out.path() + "/" + file).toStdString());
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_FALSE(back->nodes.empty());
  }
  summary->close();
}

// Sums the durations of the device ops of an exported timeline.
TimeNs deviceTimeIn(const QString& path) {
  auto back = readKinetoTrace(path.toStdString());
  EXPECT_TRUE(back.ok()) << (back.ok() ? "" : back.error().message);
  TimeNs total = 0;
  if (back.ok())
    for (const Event& e : back->events)
      if (isDeviceOp(e.klass)) total += e.dur;
  return total;
}

// Export > Simulated timeline writes what the open simulation window shows: a plain replay before
// any what-if, the what-if run after one (every device op twice as fast).
TEST(ExportDialogs, SimulatedTimelineIsTheWhatIfTheSimulationWindowShows) {
  test::qtApp();
  MainWindow window;
  ASSERT_NO_FATAL_FAILURE(openSample(window, sample("transformer_two_streams")));
  QTemporaryDir out;
  QAction* simulated =
      actionNamed(&window, "Export", "Simulated timeline (Chrome/Perfetto JSON)...");
  QAction* simulate = actionNamed(&window, "Analysis", "Simulate");
  ASSERT_TRUE(simulated && simulate);

  auto exportTo = [&](const QString& path) {
    bool answered = false;
    answerNextFileDialog(path, &answered);
    simulated->trigger();
    EXPECT_TRUE(answered);
    auto* result = waitForChild<QMessageBox>(&window, "ExportResult");
    EXPECT_NE(result, nullptr);
    if (!result) return;
    EXPECT_EQ(result->text(), "Wrote " + path);
    delete result;
  };
  const QString replay = out.path() + "/replay.json";
  exportTo(replay);
  const TimeNs measured = deviceTimeIn(replay);
  ASSERT_GT(measured, 0);

  simulate->trigger();
  auto* view = window.findChild<widgets::SimulationView*>();
  ASSERT_NE(view, nullptr);
  QSignalSpy ready(view, &widgets::SimulationView::ready);
  ASSERT_TRUE(ready.wait(60'000));
  SimKnobs knobs;
  knobs.scales.push_back({".", 0.5});
  view->applyKnobs(knobs);
  ASSERT_TRUE(ready.wait(60'000));
  ASSERT_TRUE(view->result()->variant.has_value());

  const QString whatIf = out.path() + "/what_if.json";
  exportTo(whatIf);
  const TimeNs halved = deviceTimeIn(whatIf);
  // Each op's half is rounded to whole nanoseconds: at most half a nanosecond off per op.
  EXPECT_NEAR(double(halved), double(measured) / 2, 1000.0) << measured << " -> " << halved;
  EXPECT_LT(halved, measured * 3 / 4);
  view->close();
}

TEST(ExportDialogs, AnInputIsNeverTheTarget) {
  test::qtApp();
  MainWindow window;
  const QString input = sample("matmul_1024") + "/rank0.kineto.json.gz";
  ASSERT_NO_FATAL_FAILURE(openSample(window, input));
  QAction* measured = actionNamed(&window, "Export", "Measured timeline (Chrome/Perfetto JSON)...");
  ASSERT_NE(measured, nullptr);
  bool answered = false, refused = false;
  answerNextFileDialog(input, &answered);
  // The warning that follows the file dialog is modal too: read it and close it.
  auto* poll = new QTimer;
  QObject::connect(poll, &QTimer::timeout, poll, [poll, &refused, &answered] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (!answered || !box) return;
    refused = box->text().contains("is a loaded input");
    box->close();
    poll->deleteLater();
  });
  poll->start(20);
  const auto before = QFileInfo(input).lastModified();
  measured->trigger();
  EXPECT_TRUE(answered);
  EXPECT_TRUE(refused);
  EXPECT_EQ(window.findChild<QMessageBox*>("ExportResult"), nullptr);  // nothing was written
  EXPECT_EQ(QFileInfo(input).lastModified(), before);
}

// What the next file dialog shows when it opens (title, folder, the name filled in); then it is
// cancelled. A dialog that never comes leaves `seen` false after a minute.
struct DialogSeen {
  bool seen = false;
  QString title, folder, name;
};
void readAndCancelNextFileDialog(DialogSeen* out) {
  auto* poll = new QTimer;
  auto ticks = std::make_shared<int>(0);
  QObject::connect(poll, &QTimer::timeout, poll, [poll, out, ticks] {
    QFileDialog* dialog = visibleFileDialog();
    if (!dialog) {
      if (++*ticks > 3000) poll->deleteLater();
      return;
    }
    out->seen = true;
    out->title = dialog->windowTitle();
    out->folder = dialog->directory().absolutePath();
    if (auto* name = dialog->findChild<QLineEdit*>("fileNameEdit")) out->name = name->text();
    dialog->reject();
    poll->deleteLater();
  });
  poll->start(20);
}

// The save dialogs start in the run's folder, with a file name made from the run's, and say in
// their title what they save.
TEST(ExportDialogs, SaveDialogsStartInTheRunsFolderWithAName) {
  test::qtApp();
  MainWindow window;
  const QString run = QFileInfo(sample("allreduce_2ranks")).absoluteFilePath();
  ASSERT_NO_FATAL_FAILURE(openSample(window, run));
  const struct {
    const char* action;
    const char* name;
    const char* title;
  } cases[] = {
      {"Linked ET+ JSON...", "allreduce_2ranks.rank0.et+.json",
       "Export the linked trace (ET+) of rank0"},
      {"Measured timeline (Chrome/Perfetto JSON)...", "allreduce_2ranks.rank0.measured.json",
       "Export the measured timeline of rank0"},
      {"Simulated timeline (Chrome/Perfetto JSON)...", "allreduce_2ranks.rank0.simulated.json",
       "Export the simulated timeline of rank0"},
  };
  for (const auto& c : cases) {
    QAction* action = actionNamed(&window, "Export", c.action);
    ASSERT_NE(action, nullptr) << c.action;
    DialogSeen seen;
    readAndCancelNextFileDialog(&seen);
    action->trigger();
    ASSERT_TRUE(seen.seen) << c.action;
    EXPECT_EQ(QDir::cleanPath(seen.folder), QDir::cleanPath(run)) << c.action;
    EXPECT_EQ(seen.name, c.name) << c.action;
    EXPECT_EQ(seen.title, c.title) << c.action;
  }
  // A single file's run is named by the file, less its extensions.
  const QString file = sample("matmul_1024") + "/rank0.kineto.json.gz";
  ASSERT_NO_FATAL_FAILURE(openSample(window, file));
  DialogSeen seen;
  readAndCancelNextFileDialog(&seen);
  actionNamed(&window, "Export", "Linked ET+ JSON...")->trigger();
  ASSERT_TRUE(seen.seen);
  EXPECT_EQ(QDir::cleanPath(seen.folder), QDir::cleanPath(QFileInfo(file).absolutePath()));
  EXPECT_EQ(seen.name, "rank0.kineto.et+.json");
}

}  // namespace
}  // namespace sutra::gui
