// SPDX-License-Identifier: MIT
// sutra: the desktop trace explorer.
#include <QApplication>
#include <QCommandLineParser>
#include <QMainWindow>
#include <cstdio>
#include <cstring>

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
  QApplication::setApplicationVersion(SUTRA_VERSION);

  QCommandLineParser parser;
  parser.setApplicationDescription("Sutra, the trace explorer for PyTorch workloads.");
  const QCommandLineOption helpOption = parser.addHelpOption();
  const QCommandLineOption versionOption({"v", "version"}, "Print the version and exit.");
  parser.addOption(versionOption);
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

  QMainWindow window;
  window.setWindowTitle("Sutra");
  window.resize(1400, 900);
  window.show();
  return app.exec();
}
