// SPDX-License-Identifier: MIT
#include "sample_notice.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace sutra::gui {

QString sampleNotice(const QStringList& paths) {
  for (const QString& path : paths) {
    const QFileInfo info(path);
    const QDir dir = info.isDir() ? QDir(info.absoluteFilePath()) : info.absoluteDir();
    QFile file(dir.filePath(QStringLiteral("SAMPLE.md")));
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) continue;
    // The first line in bold ("**Synthetic: ...**") is the sample's one-line statement.
    while (!file.atEnd()) {
      const QString line = QString::fromUtf8(file.readLine()).trimmed();
      if (line.startsWith(QLatin1String("**")) && line.endsWith(QLatin1String("**")) &&
          line.size() > 4)
        return dir.dirName() + QStringLiteral(": ") + line.mid(2, line.size() - 4);
    }
  }
  return {};
}

}  // namespace sutra::gui
