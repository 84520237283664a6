// SPDX-License-Identifier: MIT
#pragma once
// Sorting as performance tables are read: the first click on a numeric column sorts it largest
// first (a second click flips it, as anywhere), and a cell with nothing in it (a device op's CPU
// time) stays at the bottom in either order instead of posing as the smallest value.
#include <QList>
#include <QSortFilterProxyModel>

class QTableView;

namespace sutra::widgets {

class BlanksLastProxy : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;

 protected:
  bool lessThan(const QModelIndex& left, const QModelIndex& right) const override;
};

// On `view`'s header: a click on another column than the sorted one sorts it largest first,
// except the columns in `ascendingFirst` (names, which read A to Z).
void sortLargestFirst(QTableView* view, const QList<int>& ascendingFirst);

}  // namespace sutra::widgets
