// SPDX-License-Identifier: MIT
#include "problems_model.h"

#include <QBrush>
#include <QColor>

#include "theme.h"

namespace sutra::widgets {

ProblemsModel::ProblemsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProblemsModel::setProblems(std::vector<FileProblem> problems) {
  beginResetModel();
  problems_ = std::move(problems);
  endResetModel();
}

std::uint64_t ProblemsModel::totalCount() const {
  std::uint64_t total = 0;
  for (const auto& p : problems_) total += p.problem.count;
  return total;
}

int ProblemsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(problems_.size());
}

int ProblemsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProblemsModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const FileProblem& p = problems_[static_cast<std::size_t>(index.row())];
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
    switch (index.column()) {
      case File:
        return p.file;
      case Severity:
        return QString::fromUtf8(severityName(p.problem.severity));
      case What:
        return QString::fromStdString(p.problem.what);
      case Count:
        return QString::number(p.problem.count);
      case Example:
        return QString::fromStdString(p.problem.example);
    }
  }
  if (role == kSortRole) {
    switch (index.column()) {
      case Severity:
        return static_cast<int>(p.problem.severity);
      case Count:
        return static_cast<qulonglong>(p.problem.count);
      default:
        return data(index, Qt::DisplayRole);
    }
  }
  if (role == Qt::ForegroundRole && index.column() == Severity) {
    switch (p.problem.severity) {
      case sutra::Severity::Error:
        return QBrush(applicationTheme().errorText);
      case sutra::Severity::Warning:
        return QBrush(applicationTheme().warningText);
      case sutra::Severity::Info:
        return QBrush(applicationTheme().infoText);
    }
  }
  if (role == Qt::TextAlignmentRole && index.column() == Count)
    return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
  return {};
}

QVariant ProblemsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case File:
      return tr("File");
    case Severity:
      return tr("Severity");
    case What:
      return tr("Problem");
    case Count:
      return tr("Count");
    case Example:
      return tr("First example");
  }
  return {};
}

}  // namespace sutra::widgets
