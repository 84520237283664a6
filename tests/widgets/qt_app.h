// SPDX-License-Identifier: MIT
#pragma once
// One QApplication for a widget test executable (GoogleTest owns main()); the platform is the
// offscreen one, set by CTest and here for runs by hand.
#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>
#include <cstdlib>

namespace sutra::test {

inline QApplication& qtApp() {
  static int argc = 1;
  static char name[] = "sutra-widget-test";
  static char* argv[] = {name, nullptr};
  if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  // Settings (recent files, theme, lane grouping) in a folder of this process's own: tests run
  // in parallel processes, which shared the user's ~/.config and saw each other's recent files.
  static QTemporaryDir settings;
  static const bool settingsSet = [] {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    return true;
  }();
  (void)settingsSet;
  static QApplication* app =
      new QApplication(argc, argv);  // never destroyed: outlives every widget
  return *app;
}

}  // namespace sutra::test
