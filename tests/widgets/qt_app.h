// SPDX-License-Identifier: MIT
#pragma once
// One QApplication for a widget test executable (GoogleTest owns main()); the platform is the
// offscreen one, set by CTest and here for runs by hand.
#include <QApplication>
#include <cstdlib>

namespace sutra::test {

inline QApplication& qtApp() {
  static int argc = 1;
  static char name[] = "sutra-widget-test";
  static char* argv[] = {name, nullptr};
  if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  static QApplication* app =
      new QApplication(argc, argv);  // never destroyed: outlives every widget
  return *app;
}

}  // namespace sutra::test
