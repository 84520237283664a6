// SPDX-License-Identifier: MIT
#include "table_export.h"

#include <QFileInfo>
#include <QSaveFile>

#include "util/csv.h"

namespace sutra::widgets {
namespace {

QString csvField(const QString& text) {
  return QString::fromStdString(sutra::csvField(text.toStdString()));
}

}  // namespace

QString modelToCsv(const QAbstractItemModel& model) {
  QString out;
  const int columns = model.columnCount();
  QStringList fields;
  for (int c = 0; c < columns; ++c)
    fields << csvField(model.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString());
  out += fields.join(',') + '\n';
  for (int r = 0; r < model.rowCount(); ++r) {
    fields.clear();
    for (int c = 0; c < columns; ++c)
      fields << csvField(model.data(model.index(r, c), Qt::DisplayRole).toString());
    out += fields.join(',') + '\n';
  }
  return out;
}

bool writeModelCsv(const QAbstractItemModel& model, const QString& path, QString* error) {
  QSaveFile file(path);  // written beside the target and renamed: never half a file
  if (!file.open(QIODevice::WriteOnly)) {
    if (error) *error = QStringLiteral("%1: %2").arg(path, file.errorString());
    return false;
  }
  file.write(modelToCsv(model).toUtf8());
  if (!file.commit()) {
    if (error) *error = QStringLiteral("%1: %2").arg(path, file.errorString());
    return false;
  }
  return true;
}

ExportTarget checkExportTarget(const QString& target, const QStringList& inputs) {
  const QFileInfo info(target);
  if (!info.exists()) return ExportTarget::New;
  const QString canonical = info.canonicalFilePath();
  for (const QString& input : inputs) {
    const QString other = QFileInfo(input).canonicalFilePath();
    if (!other.isEmpty() && other == canonical) return ExportTarget::IsInput;
  }
  return ExportTarget::Exists;
}

}  // namespace sutra::widgets
