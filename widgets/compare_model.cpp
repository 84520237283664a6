// SPDX-License-Identifier: MIT
#include "compare_model.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "text/format.h"

namespace sutra::widgets {
namespace {

QString signedDuration(TimeNs delta) {
  if (delta == 0) return QStringLiteral("0");
  return (delta > 0 ? QStringLiteral("+") : QStringLiteral("-")) +
         durationText(delta > 0 ? delta : -delta);
}

// Rows of two comparisons match as compareOpTables matches them: name, shapes and device side.
using RowKey = std::tuple<std::string, std::string, bool>;
RowKey keyOf(const OpDelta& d) { return {d.name, d.inputShapes, d.onDevice}; }

}  // namespace

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareModel::setComparison(OpComparison comparison, std::optional<OpComparison> aVsC) {
  beginResetModel();
  comparison_ = std::move(comparison);
  aVsC_ = std::move(aVsC);
  rows_.clear();
  rows_.reserve(comparison_.rows.size());
  std::map<RowKey, const OpDelta*> third;
  if (aVsC_)
    for (const OpDelta& d : aVsC_->rows) third.emplace(keyOf(d), &d);
  for (const OpDelta& d : comparison_.rows) {
    Row row{d, false, {}};
    if (auto it = third.find(keyOf(d)); it != third.end()) {
      row.inC = it->second->inB;
      row.c = it->second->b;
      third.erase(it);
    }
    rows_.push_back(std::move(row));
  }
  // Grouped as the story reads: what A had and B dropped, what B has instead, then the rest; each
  // group keeps the comparison's order (largest change first).
  auto group = [](const Row& r) {
    return r.ab.inA && !r.ab.inB ? 0 : !r.ab.inA && r.ab.inB ? 1 : 2;
  };
  std::stable_sort(rows_.begin(), rows_.end(),
                   [&](const Row& x, const Row& y) { return group(x) < group(y); });
  // What is left was found in C only (every operator of A is a row of A against B already);
  // kept in the order of A against C: largest change first.
  if (aVsC_)
    for (const OpDelta& d : aVsC_->rows) {
      if (third.find(keyOf(d)) == third.end() || !d.inB) continue;
      OpDelta onlyC = d;
      onlyC.inA = onlyC.inB = false;
      onlyC.a = onlyC.b = {};
      rows_.push_back({std::move(onlyC), true, d.b});
    }
  endResetModel();
}

int CompareModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : int(rows_.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid()) return 0;
  return aVsC_ ? ColumnCount : TwoRunColumnCount;
}

QString CompareModel::sideText(const Row& row) const {
  const OpDelta& d = row.ab;
  if (!aVsC_) return d.inA && d.inB ? tr("both") : d.inA ? tr("A only") : tr("B only");
  if (d.inA && d.inB && row.inC) return tr("all");
  QStringList sides;
  if (d.inA) sides << QStringLiteral("A");
  if (d.inB) sides << QStringLiteral("B");
  if (row.inC) sides << QStringLiteral("C");
  return sides.size() == 1 ? tr("%1 only").arg(sides.front()) : sides.join(QStringLiteral(", "));
}

QVariant CompareModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  const Row& row = rows_[std::size_t(index.row())];
  const OpDelta& d = row.ab;
  const OpSide& c = row.c;
  if (role == SortRole) {
    switch (index.column()) {
      case Name:
        return QString::fromStdString(d.name);
      case Side:
        return sideText(row);
      case DeviceTotalDelta:
        return qlonglong(d.deviceTotalDelta());
      case CpuTotalDelta:
        return qlonglong(d.cpuTotalDelta());
      case Calls:
        return qlonglong(d.callsDelta());
      case CallsA:
        return qulonglong(d.a.calls);
      case CallsB:
        return qulonglong(d.b.calls);
      case SelfCpuA:
        return qlonglong(d.a.selfCpu);
      case SelfCpuB:
        return qlonglong(d.b.selfCpu);
      case SelfCpuDelta:
        return qlonglong(d.selfCpuDelta());
      case SelfDeviceA:
        return qlonglong(d.a.selfDevice);
      case SelfDeviceB:
        return qlonglong(d.b.selfDevice);
      case SelfDeviceDelta:
        return qlonglong(d.selfDeviceDelta());
      case CallsC:
        return qulonglong(c.calls);
      case SelfCpuC:
        return qlonglong(c.selfCpu);
      case SelfCpuDeltaC:
        return qlonglong(c.selfCpu - d.a.selfCpu);
      case SelfDeviceC:
        return qlonglong(c.selfDevice);
      case SelfDeviceDeltaC:
        return qlonglong(c.selfDevice - d.a.selfDevice);
    }
    return {};
  }
  if (role == Qt::TextAlignmentRole)
    return index.column() == Name || index.column() == Side
               ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
  if (role == Qt::ToolTipRole && index.column() == Name && !d.inputShapes.empty())
    return QString::fromStdString(d.inputShapes);
  if (role != Qt::DisplayRole) return {};
  // A device op has no CPU time: its CPU cells are blank, not "0 ns".
  const bool noCpu = d.onDevice;
  switch (index.column()) {
    case Name:
      return QString::fromStdString(d.name);
    case DeviceTotalDelta:
      return signedDuration(d.deviceTotalDelta());
    case CpuTotalDelta:
      return noCpu ? QString() : signedDuration(d.cpuTotalDelta());
    case Calls:
      return QStringLiteral("%1 \u2192 %2").arg(d.a.calls).arg(d.b.calls);
    case Side:
      return sideText(row);
    case CallsA:
      return QString::number(d.a.calls);
    case CallsB:
      return QString::number(d.b.calls);
    case SelfCpuA:
      return noCpu ? QString() : durationText(d.a.selfCpu);
    case SelfCpuB:
      return noCpu ? QString() : durationText(d.b.selfCpu);
    case SelfCpuDelta:
      return noCpu ? QString() : signedDuration(d.selfCpuDelta());
    case SelfDeviceA:
      return durationText(d.a.selfDevice);
    case SelfDeviceB:
      return durationText(d.b.selfDevice);
    case SelfDeviceDelta:
      return signedDuration(d.selfDeviceDelta());
    case CallsC:
      return QString::number(c.calls);
    case SelfCpuC:
      return noCpu ? QString() : durationText(c.selfCpu);
    case SelfCpuDeltaC:
      return noCpu ? QString() : signedDuration(c.selfCpu - d.a.selfCpu);
    case SelfDeviceC:
      return durationText(c.selfDevice);
    case SelfDeviceDeltaC:
      return signedDuration(c.selfDevice - d.a.selfDevice);
  }
  return {};
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
  const QString dev =
      QString::fromStdString(comparison_.device.empty() ? "CUDA" : comparison_.device);
  if (role == Qt::ToolTipRole) {
    if (section == SelfCpuDeltaC || section == SelfDeviceDeltaC) return tr("C minus A");
    if (section == SelfCpuDelta || section == SelfDeviceDelta) return tr("B minus A");
    if (section == DeviceTotalDelta)
      return tr("B minus A of the %1 total: a device op's own time, a host op's kernels and its "
                "children's")
          .arg(dev);
    if (section == CpuTotalDelta)
      return tr("B minus A of the CPU total (the op's duration); blank for device ops");
    if (section == Calls) return tr("Calls in A \u2192 calls in B; sorts by the change");
    return {};
  }
  if (role != Qt::DisplayRole) return {};
  switch (section) {
    case Name:
      return tr("Name");
    case DeviceTotalDelta:
      return (aVsC_ ? tr("%1 total B-A") : tr("%1 total \u0394")).arg(dev);
    case CpuTotalDelta:
      return aVsC_ ? tr("CPU total B-A") : tr("CPU total \u0394");
    case Calls:
      return tr("Calls A \u2192 B");
    case Side:
      return tr("Found in");
    case CallsA:
      return tr("Calls A");
    case CallsB:
      return tr("Calls B");
    case SelfCpuA:
      return tr("Self CPU A");
    case SelfCpuB:
      return tr("Self CPU B");
    case SelfCpuDelta:
      return aVsC_ ? tr("Self CPU B-A") : tr("Self CPU delta");
    case SelfDeviceA:
      return tr("Self %1 A").arg(dev);
    case SelfDeviceB:
      return tr("Self %1 B").arg(dev);
    case SelfDeviceDelta:
      return (aVsC_ ? tr("Self %1 B-A") : tr("Self %1 delta")).arg(dev);
    case CallsC:
      return tr("Calls C");
    case SelfCpuC:
      return tr("Self CPU C");
    case SelfCpuDeltaC:
      return tr("Self CPU C-A");
    case SelfDeviceC:
      return tr("Self %1 C").arg(dev);
    case SelfDeviceDeltaC:
      return tr("Self %1 C-A").arg(dev);
  }
  return {};
}

}  // namespace sutra::widgets
