// SPDX-License-Identifier: MIT
#include "run_naming.h"

#include <QDir>
#include <QFileInfo>
#include <QObject>

namespace sutra::gui {

namespace {
// One folder opened, or files that all lie in one folder: that folder; else empty.
QString commonFolder(const QStringList& paths) {
  if (paths.size() == 1 && QFileInfo(paths.front()).isDir())
    return QFileInfo(paths.front()).absoluteFilePath();
  if (paths.size() < 2) return {};
  const QString folder = QFileInfo(paths.front()).absolutePath();
  for (const QString& path : paths)
    if (QFileInfo(path).isDir() || QFileInfo(path).absolutePath() != folder) return {};
  return folder;
}
}  // namespace

QString runName(const QStringList& paths) {
  if (paths.isEmpty()) return {};
  if (const QString folder = commonFolder(paths); !folder.isEmpty()) return QDir(folder).dirName();
  const QString first = QFileInfo(paths.front()).fileName();
  return paths.size() == 1 ? first : QObject::tr("%1 (+%2 more)").arg(first).arg(paths.size() - 1);
}

QString runStem(const QStringList& paths) {
  if (paths.isEmpty()) return {};
  if (const QString folder = commonFolder(paths); !folder.isEmpty()) return QDir(folder).dirName();
  QString name = QFileInfo(paths.front()).fileName();
  for (const char* extension : {".gz", ".json", ".et"})
    if (name.endsWith(QLatin1String(extension)) && name.size() > int(qstrlen(extension)))
      name.chop(int(qstrlen(extension)));
  return name;
}

QString runFolder(const QStringList& paths) {
  if (paths.isEmpty()) return {};
  if (const QString folder = commonFolder(paths); !folder.isEmpty()) return folder;
  const QFileInfo first(paths.front());
  return first.isDir() ? first.absoluteFilePath() : first.absolutePath();
}

}  // namespace sutra::gui
