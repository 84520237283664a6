// SPDX-License-Identifier: MIT
// sutra: the desktop trace explorer.
#include <QApplication>
#include <QMainWindow>

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("Sutra");
  QApplication::setApplicationVersion(SUTRA_VERSION);
  QMainWindow window;
  window.setWindowTitle("Sutra");
  window.resize(1400, 900);
  window.show();
  return app.exec();
}
