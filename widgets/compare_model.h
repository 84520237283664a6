// SPDX-License-Identifier: MIT
#pragma once
// The comparison of two (or three) operator tables as a Qt table: one row per operator, the total
// device and CPU deltas and the calls A -> B first, then A, B and the delta of self device and CPU
// time, and on which side it was found. Rows come grouped: the operators found in A only (what B
// replaced), then in B only (what replaced them), then those in both, each group largest change
// first. A cell that does not apply (a device op's CPU time) is blank, not "0". With a third run
// C, its calls, self times and their deltas against A follow, and operators found in C only are
// rows too. SortRole gives the numbers (not their text) for QSortFilterProxyModel.
#include <QAbstractTableModel>
#include <optional>

#include "analysis/compare.h"

namespace sutra::widgets {

class CompareModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  // The story first: what changed in total, on the device and the host, and the calls; then
  // each side's self times; then the calls apart (to sort by), and with a third run C and its
  // deltas against A.
  enum Column {
    Name,
    DeviceTotalDelta,  // B minus A of the device total (self plus what the op launched)
    CpuTotalDelta,     // B minus A of the CPU total; blank for device ops
    Calls,             // "5 -> 1"; sorts by the change
    Side,
    SelfDeviceA,
    SelfDeviceB,
    SelfDeviceDelta,
    SelfCpuA,
    SelfCpuB,
    SelfCpuDelta,
    CallsA,
    CallsB,
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
