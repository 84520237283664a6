// SPDX-License-Identifier: MIT
#pragma once
// The comparison of two operator tables as a Qt table: one row per operator, A, B and the delta
// of calls, self CPU and self device time, and on which side it was found. SortRole gives the
// numbers (not their text) for QSortFilterProxyModel.
#include <QAbstractTableModel>

#include "analysis/compare.h"

namespace sutra::widgets {

class CompareModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    Name,
    Side,
    CallsA,
    CallsB,
    SelfCpuA,
    SelfCpuB,
    SelfCpuDelta,
    SelfDeviceA,
    SelfDeviceB,
    SelfDeviceDelta,
    ColumnCount
  };
  static constexpr int SortRole = Qt::UserRole + 1;

  explicit CompareModel(QObject* parent = nullptr);
  void setComparison(OpComparison comparison);
  const OpComparison& comparison() const { return comparison_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  OpComparison comparison_;
};

}  // namespace sutra::widgets
