// SPDX-License-Identifier: MIT
#include "compare_model.h"

#include "format.h"

namespace sutra::widgets {
namespace {

QString signedDuration(TimeNs delta) {
  if (delta == 0) return QStringLiteral("0");
  return (delta > 0 ? QStringLiteral("+") : QStringLiteral("-")) +
         durationText(delta > 0 ? delta : -delta);
}

}  // namespace

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareModel::setComparison(OpComparison comparison) {
  beginResetModel();
  comparison_ = std::move(comparison);
  endResetModel();
}

int CompareModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(comparison_.rows.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant CompareModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount) return {};
  const OpDelta& d = comparison_.rows[std::size_t(index.row())];
  const QString side = d.inA && d.inB ? tr("both") : d.inA ? tr("A only") : tr("B only");
  if (role == SortRole) {
    switch (index.column()) {
      case Name: return QString::fromStdString(d.name);
      case Side: return side;
      case CallsA: return qulonglong(d.a.calls);
      case CallsB: return qulonglong(d.b.calls);
      case SelfCpuA: return qlonglong(d.a.selfCpu);
      case SelfCpuB: return qlonglong(d.b.selfCpu);
      case SelfCpuDelta: return qlonglong(d.selfCpuDelta());
      case SelfDeviceA: return qlonglong(d.a.selfDevice);
      case SelfDeviceB: return qlonglong(d.b.selfDevice);
      case SelfDeviceDelta: return qlonglong(d.selfDeviceDelta());
    }
    return {};
  }
  if (role == Qt::TextAlignmentRole)
    return index.column() <= Side ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                  : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() == Name && !d.inputShapes.empty())
    return QString::fromStdString(d.inputShapes);
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case Name: return QString::fromStdString(d.name);
    case Side: return side;
    case CallsA: return QString::number(d.a.calls);
    case CallsB: return QString::number(d.b.calls);
    case SelfCpuA: return durationText(d.a.selfCpu);
    case SelfCpuB: return durationText(d.b.selfCpu);
    case SelfCpuDelta: return signedDuration(d.selfCpuDelta());
    case SelfDeviceA: return durationText(d.a.selfDevice);
    case SelfDeviceB: return durationText(d.b.selfDevice);
    case SelfDeviceDelta: return signedDuration(d.selfDeviceDelta());
  }
  return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  const QString dev = QString::fromStdString(comparison_.device.empty() ? "CUDA" : comparison_.device);
  switch (section) {
    case Name: return tr("Name");
    case Side: return tr("Found in");
    case CallsA: return tr("Calls A");
    case CallsB: return tr("Calls B");
    case SelfCpuA: return tr("Self CPU A");
    case SelfCpuB: return tr("Self CPU B");
    case SelfCpuDelta: return tr("Self CPU delta");
    case SelfDeviceA: return tr("Self %1 A").arg(dev);
    case SelfDeviceB: return tr("Self %1 B").arg(dev);
    case SelfDeviceDelta: return tr("Self %1 delta").arg(dev);
  }
  return {};
}

}  // namespace sutra::widgets
