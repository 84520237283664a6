// SPDX-License-Identifier: MIT
#pragma once
// The problems panel's model: every counted problem of every file (reading, launch attribution,
// sync matching), one row per kind with its severity, count and first example.
#include <QAbstractTableModel>
#include <vector>

#include "rank_data.h"

namespace sutra::widgets {

inline constexpr int kSortRole = Qt::UserRole + 1;  // raw numbers for QSortFilterProxyModel

class ProblemsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { File, Severity, What, Count, Example, ColumnCount };
  explicit ProblemsModel(QObject* parent = nullptr);

  void setProblems(std::vector<FileProblem> problems);
  std::uint64_t totalCount() const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::vector<FileProblem> problems_;
};

}  // namespace sutra::widgets
