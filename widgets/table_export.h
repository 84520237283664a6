// SPDX-License-Identifier: MIT
#pragma once
// Export helpers the views share: any table model as CSV, and the check before writing a file
// (never over an input, ask before replacing anything else).
#include <QAbstractItemModel>
#include <QString>
#include <QStringList>

namespace sutra::widgets {

// The header and every row of `model` (display text), RFC 4180 quoting, "\n" line ends.
QString modelToCsv(const QAbstractItemModel& model);
// Writes modelToCsv to `path`; false with `error` naming the file otherwise.
bool writeModelCsv(const QAbstractItemModel& model, const QString& path, QString* error = nullptr);

enum class ExportTarget {
  New,      // nothing there: write
  Exists,   // another file is there: ask before replacing it
  IsInput,  // the target is one of the loaded files (after resolving links): refuse
};

// Compares canonical paths, so "./a/../trace.json" and a symbolic link to an input both count.
ExportTarget checkExportTarget(const QString& target, const QStringList& inputs);

}  // namespace sutra::widgets
