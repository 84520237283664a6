// SPDX-License-Identifier: MIT
#pragma once
// The comparison of two (or three) operator tables as a Qt table: one row per operator, A, B and
// the delta of calls, self CPU and self device time, and on which side it was found. With a third
// run C, its calls, self times and their deltas against A follow, and operators found in C only
// are rows too. SortRole gives the numbers (not their text) for QSortFilterProxyModel.
#include <QAbstractTableModel>
#include <optional>

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
    TwoRunColumnCount,
    // Shown only with a third run: C and its deltas against A.
    CallsC = TwoRunColumnCount,
    SelfCpuC,
    SelfCpuDeltaC,
    SelfDeviceC,
    SelfDeviceDeltaC,
    ColumnCount
  };
  static constexpr int SortRole = Qt::UserRole + 1;

  // One row: A against B, and C where a third run is compared.
  struct Row {
    OpDelta ab;
    bool inC = false;
    OpSide c;
  };

  explicit CompareModel(QObject* parent = nullptr);
  // `aVsC`: the first run against a third one (same A table), or none for two runs.
  void setComparison(OpComparison comparison, std::optional<OpComparison> aVsC = std::nullopt);
  const OpComparison& comparison() const { return comparison_; }
  const std::optional<OpComparison>& thirdComparison() const { return aVsC_; }
  bool hasThirdRun() const { return aVsC_.has_value(); }
  const std::vector<Row>& rows() const { return rows_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  QString sideText(const Row& row) const;

  OpComparison comparison_;
  std::optional<OpComparison> aVsC_;
  std::vector<Row> rows_;
};

}  // namespace sutra::widgets
