// SPDX-License-Identifier: MIT
// sutra: the desktop trace explorer.
//   sutra [--theme light|dark|system] [--align-ranks] [--advice] [--screenshot FILE] [--size WxH]
//   [--search NAME] [PATH...] sutra --compare [--theme ...] [--screenshot FILE] [--size WxH] A B
//   [C]
#include <QAction>
#include <QApplication>
#include <QCommandLineParser>
#include <QSize>
#include <QTimer>
#include <cstdio>
#include <cstring>

#include "advice_action.h"
#include "advice_view.h"
#include "analysis_menus.h"
#include "compare_view.h"
#include "main_window.h"
#include "theme_menu.h"
#include "util/huge_pages.h"

namespace {

// --help and --version only print: let them run without a display (over ssh, for help2man and
// the package checks) by giving Qt its offscreen platform, which ships with libqt6gui6.
void avoidDisplayForPrintingOptions(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    for (const char* option : {"-h", "--help", "--help-all", "-v", "--version"}) {
      if (std::strcmp(argv[i], option) == 0) qputenv("QT_QPA_PLATFORM", "offscreen");
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  sutra::useHugePagesForMalloc(argv);
  avoidDisplayForPrintingOptions(argc, argv);
  QApplication app(argc, argv);
  QApplication::setApplicationName("Sutra");
  QApplication::setOrganizationName("Sutra");
  QApplication::setApplicationVersion(SUTRA_VERSION);

  QCommandLineParser parser;
  parser.setApplicationDescription("Sutra, the trace explorer for PyTorch workloads.");
  const QCommandLineOption helpOption = parser.addHelpOption();
  const QCommandLineOption versionOption({"v", "version"}, "Print the version and exit.");
  parser.addOption(versionOption);
  parser.addPositionalArgument("paths", "Trace files or directories to open.", "[PATH...]");
  const QCommandLineOption screenshot(
      "screenshot", "Once loaded, save the window as a PNG to FILE and quit.", "FILE");
  const QCommandLineOption search(
      "search", "Once loaded, search the timeline for NAME and select the first match.", "NAME");
  const QCommandLineOption size("size", "Window size, as WxH (--screenshot: 1600x1000).", "WxH");
  const QCommandLineOption compare("compare",
                                   "Compare two or three traces side by side (A B [C]; deltas "
                                   "against A) instead of exploring one.");
  parser.addOption(screenshot);
  parser.addOption(compare);
  parser.addOption(search);
  parser.addOption(size);
  const QCommandLineOption theme(
      "theme", "Colour theme for this run: light, dark or system (default: View > Theme).",
      "THEME");
  parser.addOption(theme);
  const QCommandLineOption alignRanks("align-ranks",
                                      "All ranks view: line up each rank's first ProfilerStep "
                                      "(View > Align Ranks on First ProfilerStep).");
  parser.addOption(alignRanks);
  const QCommandLineOption advice("advice",
                                  "Once loaded, open Analysis > Advice on its first finding "
                                  "(--screenshot: save the Advice window once it is projected).");
  parser.addOption(advice);
  if (!parser.parse(QApplication::arguments())) {
    std::fprintf(stderr, "sutra: %s\n\n%s", qPrintable(parser.errorText()),
                 qPrintable(parser.helpText()));
    return 2;
  }
  if (parser.isSet(helpOption)) {
    std::fputs(qPrintable(parser.helpText()), stdout);
    return 0;
  }
  if (parser.isSet(versionOption)) {
    std::printf("sutra %s\n", SUTRA_VERSION);
    return 0;
  }
  QString themeError;
  const auto themeChoice = sutra::gui::startupThemeChoice(
      parser.isSet(theme) ? std::optional<QString>(parser.value(theme)) : std::nullopt,
      &themeError);
  if (!themeChoice) {
    std::fprintf(stderr, "sutra: %s\n", qPrintable(themeError));
    return 2;
  }
  sutra::widgets::applyTheme(*themeChoice);
  const QString shot = parser.value(screenshot);
  const QString pattern = parser.value(search);
  if (!shot.isEmpty() && parser.positionalArguments().isEmpty()) {
    std::fprintf(stderr, "sutra: --screenshot needs a trace to open\n");
    return 2;
  }

  QSize windowSize;
  if (parser.isSet(size)) {
    const QStringList wh = parser.value(size).split('x');
    if (wh.size() != 2 || wh[0].toInt() <= 0 || wh[1].toInt() <= 0) {
      std::fprintf(stderr, "sutra: --size wants WxH, e.g. 1600x1000, not %s\n",
                   qPrintable(parser.value(size)));
      return 2;
    }
    windowSize = QSize(wh[0].toInt(), wh[1].toInt());
  } else if (!shot.isEmpty()) {
    windowSize = QSize(1600, 1000);
  }
  // Grabs `window` once it has laid out and painted, and quits: 0 when saved.
  auto grabAndQuit = [&shot](QWidget* window) {
    QTimer::singleShot(500, window, [window, &shot] {
      const bool saved = window->grab().save(shot);
      if (!saved) std::fprintf(stderr, "sutra: cannot write %s\n", qPrintable(shot));
      QApplication::exit(saved ? 0 : 1);
    });
  };

  if (parser.isSet(compare)) {
    const QStringList paths = parser.positionalArguments();
    if (paths.size() < 2 || paths.size() > 3) {
      std::fprintf(stderr, "sutra: --compare wants two or three traces, got %lld\n",
                   static_cast<long long>(paths.size()));
      return 2;
    }
    if (!pattern.isEmpty()) {
      std::fprintf(stderr, "sutra: --search explores one trace; it does not go with --compare\n");
      return 2;
    }
    auto* view =
        qobject_cast<sutra::widgets::CompareView*>(sutra::gui::openCompareWindow(nullptr, paths));
    if (windowSize.isValid()) view->resize(windowSize);
    if (!shot.isEmpty()) {
      QObject::connect(view, &sutra::widgets::CompareView::ready, view,
                       [&, view] { grabAndQuit(view); });
      QObject::connect(view, &sutra::widgets::CompareView::failed, view,
                       [](const QString& message) {
                         std::fprintf(stderr, "%s\n", qPrintable(message));
                         QApplication::exit(2);
                       });
    }
    return app.exec();
  }

  sutra::gui::MainWindow window;
  if (parser.isSet(alignRanks)) window.setAlignRanks(true);
  if (windowSize.isValid()) window.resize(windowSize);
  window.show();

  QObject::connect(&window, &sutra::gui::MainWindow::loadFinished, &window, [&] {
    if (!pattern.isEmpty()) window.searchAndSelect(pattern);
    if (!parser.isSet(advice)) {
      if (!shot.isEmpty()) grabAndQuit(&window);
      return;
    }
    sutra::widgets::AdviceView* view = sutra::gui::openAdviceOnTopFinding(&window);
    if (!view) {
      std::fprintf(stderr, "sutra: --advice: Analysis > Advice is not available for this run\n");
      QApplication::exit(2);
      return;
    }
    if (!shot.isEmpty())
      QObject::connect(view, &sutra::widgets::AdviceView::settled, view,
                       [&, view] { grabAndQuit(view->window()); });
  });
  if (!shot.isEmpty()) {
    QObject::connect(&window, &sutra::gui::MainWindow::errorShown, &window,
                     [](const QString& message) {
                       std::fprintf(stderr, "%s\n", qPrintable(message));
                       QApplication::exit(2);
                     });
  }
  window.openPaths(parser.positionalArguments());
  return app.exec();
}
