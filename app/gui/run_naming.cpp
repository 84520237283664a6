// SPDX-License-Identifier: MIT
#include "run_naming.h"

#include "session/run_naming.h"

namespace sutra::gui {

namespace {
std::vector<std::string> stdPaths(const QStringList& paths) {
  std::vector<std::string> out;
  out.reserve(paths.size());
  for (const QString& path : paths) out.push_back(path.toStdString());
  return out;
}
}  // namespace

QString runName(const QStringList& paths) {
  return QString::fromStdString(sutra::runName(stdPaths(paths)));
}

QString runStem(const QStringList& paths) {
  return QString::fromStdString(sutra::runStem(stdPaths(paths)));
}

QString runFolder(const QStringList& paths) {
  return QString::fromStdString(sutra::runFolder(stdPaths(paths)));
}

}  // namespace sutra::gui
