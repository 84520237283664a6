// SPDX-License-Identifier: MIT
// sutra: the desktop trace explorer.
//   sutra [--screenshot FILE] [--size WxH] [--search NAME] [PATH...]
#include <QApplication>
#include <QCommandLineParser>
#include <QTimer>
#include <cstdio>
#include <cstring>

#include "main_window.h"

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
  const QCommandLineOption screenshot("screenshot", "Once loaded, save the window as a PNG to FILE and quit.", "FILE");
  const QCommandLineOption search("search", "Once loaded, search the timeline for NAME and select the first match.",
                                  "NAME");
  const QCommandLineOption size("size", "Window size, as WxH (--screenshot: 1600x1000).", "WxH");
  parser.addOption(screenshot);
  parser.addOption(search);
  parser.addOption(size);
  if (!parser.parse(QApplication::arguments())) {
    std::fprintf(stderr, "sutra: %s\n\n%s", qPrintable(parser.errorText()), qPrintable(parser.helpText()));
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
  const QString shot = parser.value(screenshot);
  const QString pattern = parser.value(search);
  if (!shot.isEmpty() && parser.positionalArguments().isEmpty()) {
    std::fprintf(stderr, "sutra: --screenshot needs a trace to open\n");
    return 2;
  }

  sutra::gui::MainWindow window;
  if (parser.isSet(size)) {
    const QStringList wh = parser.value(size).split('x');
    if (wh.size() != 2 || wh[0].toInt() <= 0 || wh[1].toInt() <= 0) {
      std::fprintf(stderr, "sutra: --size wants WxH, e.g. 1600x1000, not %s\n", qPrintable(parser.value(size)));
      return 2;
    }
    window.resize(wh[0].toInt(), wh[1].toInt());
  } else if (!shot.isEmpty()) {
    window.resize(1600, 1000);
  }
  window.show();

  QObject::connect(&window, &sutra::gui::MainWindow::loadFinished, &window, [&] {
    if (!pattern.isEmpty()) window.searchAndSelect(pattern);
    if (shot.isEmpty()) return;
    // Let the docks lay out and paint once before grabbing.
    QTimer::singleShot(500, &window, [&] {
      const bool saved = window.grab().save(shot);
      if (!saved) std::fprintf(stderr, "sutra: cannot write %s\n", qPrintable(shot));
      QApplication::exit(saved ? 0 : 1);
    });
  });
  if (!shot.isEmpty()) {
    QObject::connect(&window, &sutra::gui::MainWindow::errorShown, &window, [](const QString& message) {
      std::fprintf(stderr, "%s\n", qPrintable(message));
      QApplication::exit(2);
    });
  }
  window.openPaths(parser.positionalArguments());
  return app.exec();
}
