// SPDX-License-Identifier: MIT
#include "op_table_model.h"

#include <cmath>

#include "text/format.h"

namespace sutra::widgets {

OpTableModel::OpTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void OpTableModel::setTable(std::shared_ptr<const OpTable> table) {
  beginResetModel();
  table_ = std::move(table);
  endResetModel();
  emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

const OpRow* OpTableModel::rowAt(int row) const {
  if (!table_ || row < 0 || row >= static_cast<int>(table_->rows.size())) return nullptr;
  return &table_->rows[static_cast<std::size_t>(row)];
}

int OpTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !table_ ? 0 : static_cast<int>(table_->rows.size());
}

int OpTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant OpTableModel::data(const QModelIndex& index, int role) const {
  const OpRow* r = index.isValid() && index.column() < ColumnCount ? rowAt(index.row()) : nullptr;
  if (!r) return {};
  const OpTable& t = *table_;
  const bool host = !r->onDevice;
  if (role == kSortRole) {
    switch (index.column()) {
      case Name:
        return QString::fromStdString(r->name);
      case InputShapes:
        return QString::fromStdString(r->inputShapes);
      case Calls:
        return static_cast<qulonglong>(r->calls);
      case SelfCpu:
        return static_cast<qlonglong>(r->selfCpu);
      case SelfCpuPercent:
        return t.selfCpuPercent(*r);
      case CpuTotal:
        return static_cast<qlonglong>(r->cpuTotal);
      case CpuAverage:
        return r->cpuAverage();
      case SelfDevice:
        return static_cast<qlonglong>(r->selfDevice);
      case SelfDevicePercent:
        return t.selfDevicePercent(*r);
      case DeviceTotal:
        return static_cast<qlonglong>(r->deviceTotal);
      case DeviceAverage:
        return r->deviceAverage();
    }
  }
  if (role == Qt::DisplayRole) {
    auto percent = [](double p) { return QStringLiteral("%1%").arg(p, 0, 'f', 2); };
    switch (index.column()) {
      case Name:
        return QString::fromStdString(r->name);
      case InputShapes:
        return QString::fromStdString(r->inputShapes);
      case Calls:
        return QString::number(r->calls);
      case SelfCpu:
        return host ? durationText(r->selfCpu) : QString();
      case SelfCpuPercent:
        return host ? percent(t.selfCpuPercent(*r)) : QString();
      case CpuTotal:
        return host ? durationText(r->cpuTotal) : QString();
      case CpuAverage:
        return host ? durationText(static_cast<TimeNs>(std::llround(r->cpuAverage()))) : QString();
      case SelfDevice:
        return r->selfDevice ? durationText(r->selfDevice) : QString();
      case SelfDevicePercent:
        return r->selfDevice ? percent(t.selfDevicePercent(*r)) : QString();
      case DeviceTotal:
        return r->deviceTotal ? durationText(r->deviceTotal) : QString();
      case DeviceAverage:
        return r->deviceTotal ? durationText(static_cast<TimeNs>(std::llround(r->deviceAverage())))
                              : QString();
    }
  }
  if (role == Qt::ToolTipRole && index.column() == Name)
    return QStringLiteral("%1\n%2 calls%3")
        .arg(QString::fromStdString(r->name))
        .arg(r->calls)
        .arg(r->onDevice ? tr(" (device op)") : QString());
  if (role == Qt::TextAlignmentRole && index.column() >= Calls)
    return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
  return {};
}

QVariant OpTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
    return {};
  const QString dev = table_ ? QString::fromStdString(table_->device) : QStringLiteral("CUDA");
  switch (section) {
    case Name:
      return tr("Name");
    case InputShapes:
      return tr("Input Shapes");
    case Calls:
      return tr("# of Calls");
    case SelfCpu:
      return tr("Self CPU");
    case SelfCpuPercent:
      return tr("Self CPU %");
    case CpuTotal:
      return tr("CPU total");
    case CpuAverage:
      return tr("CPU time avg");
    case SelfDevice:
      return tr("Self %1").arg(dev);
    case SelfDevicePercent:
      return tr("Self %1 %").arg(dev);
    case DeviceTotal:
      return tr("%1 total").arg(dev);
    case DeviceAverage:
      return tr("%1 time avg").arg(dev);
  }
  return {};
}

}  // namespace sutra::widgets
