// SPDX-License-Identifier: MIT
#pragma once
// A SQL query's rows (core's sql::QueryResult) as a table model: each value as text (NULL as
// "NULL"), raw numbers under kSortRole for a QSortFilterProxyModel, numbers right-aligned. It also
// says which column holds slice ids, so the window can select a row's event on the timeline:
// the column named slice_id, else id (slice's and kernel's ids are slice ids), else one ending in
// _slice_id.
#include <QAbstractTableModel>
#include <optional>

#include "sql/query_result.h"

namespace sutra::widgets {

class QueryResultModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  explicit QueryResultModel(QObject* parent = nullptr);

  void setResult(sql::QueryResult result);
  void clear();
  const sql::QueryResult& result() const { return result_; }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

  // The column of slice ids, or -1 where the result has none.
  int sliceColumn() const { return sliceColumn_; }
  // Row `row`'s slice id, where the result has a slice column and the row a value in it.
  std::optional<qint64> sliceIdAt(int row) const;

 private:
  sql::QueryResult result_;
  int sliceColumn_ = -1;
};

}  // namespace sutra::widgets
