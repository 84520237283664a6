// SPDX-License-Identifier: MIT
#include "table_sorting.h"

#include <QHeaderView>
#include <QTableView>
#include <memory>

namespace sutra::widgets {

bool BlanksLastProxy::lessThan(const QModelIndex& left, const QModelIndex& right) const {
  const bool leftBlank = sourceModel()->data(left, Qt::DisplayRole).toString().isEmpty();
  const bool rightBlank = sourceModel()->data(right, Qt::DisplayRole).toString().isEmpty();
  // A descending sort reverses lessThan: "last" is the greater end ascending, the lesser one
  // descending.
  if (leftBlank != rightBlank) return sortOrder() == Qt::AscendingOrder ? rightBlank : leftBlank;
  return QSortFilterProxyModel::lessThan(left, right);
}

void sortLargestFirst(QTableView* view, const QList<int>& ascendingFirst) {
  auto sorted = std::make_shared<int>(view->horizontalHeader()->sortIndicatorSection());
  QObject::connect(view->horizontalHeader(), &QHeaderView::sortIndicatorChanged, view,
                   [view, sorted, ascendingFirst](int column, Qt::SortOrder order) {
                     const bool another = column != *sorted;
                     *sorted = column;
                     if (another && order == Qt::AscendingOrder && !ascendingFirst.contains(column))
                       view->sortByColumn(column, Qt::DescendingOrder);
                   });
}

}  // namespace sutra::widgets
