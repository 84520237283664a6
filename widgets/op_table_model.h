// SPDX-License-Identifier: MIT
#pragma once
// The analyses' operator table (torch's key_averages) as a Qt table model: display text in
// readable units, raw numbers under kSortRole for a QSortFilterProxyModel, the device column
// names as the trace's backend spells them ("Self CUDA", "Self MTIA", ...).
#include <QAbstractTableModel>
#include <memory>

#include "analysis/op_table.h"
#include "problems_model.h"  // kSortRole

namespace sutra::widgets {

class OpTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    Name,
    InputShapes,
    Calls,
    SelfCpu,
    SelfCpuPercent,
    CpuTotal,
    CpuAverage,
    SelfDevice,
    SelfDevicePercent,
    DeviceTotal,
    DeviceAverage,
    ColumnCount
  };
  explicit OpTableModel(QObject* parent = nullptr);

  void setTable(std::shared_ptr<const OpTable> table);
  const OpTable* table() const { return table_.get(); }
  const OpRow* rowAt(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::shared_ptr<const OpTable> table_;
};

}  // namespace sutra::widgets
