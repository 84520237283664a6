// SPDX-License-Identifier: MIT
#include "query_result_model.h"

#include "problems_model.h"  // kSortRole

namespace sutra::widgets {
namespace {

int findSliceColumn(const sql::QueryResult& result) {
  const auto& columns = result.columns;
  auto named = [&](auto pred) -> int {
    for (std::size_t c = 0; c < columns.size(); ++c)
      if (pred(columns[c].name)) return static_cast<int>(c);
    return -1;
  };
  if (int c = named([](const std::string& n) { return n == "slice_id"; }); c >= 0) return c;
  if (int c = named([](const std::string& n) { return n == "id"; }); c >= 0) return c;
  return named([](const std::string& n) { return n.ends_with("_slice_id"); });
}

}  // namespace

QueryResultModel::QueryResultModel(QObject* parent) : QAbstractTableModel(parent) {}

void QueryResultModel::setResult(sql::QueryResult result) {
  beginResetModel();
  result_ = std::move(result);
  sliceColumn_ = findSliceColumn(result_);
  endResetModel();
}

void QueryResultModel::clear() { setResult({}); }

int QueryResultModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(result_.rows.size());
}

int QueryResultModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(result_.columns.size());
}

QVariant QueryResultModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
  const sql::Value& v =
      result_.rows[static_cast<std::size_t>(index.row())][static_cast<std::size_t>(index.column())];
  const bool number = std::holds_alternative<std::int64_t>(v) || std::holds_alternative<double>(v);
  switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
      return QString::fromStdString(sql::displayText(v));
    case kSortRole:
      if (const auto* i = std::get_if<std::int64_t>(&v)) return QVariant::fromValue<qlonglong>(*i);
      if (const auto* d = std::get_if<double>(&v)) return *d;
      if (const auto* s = std::get_if<std::string>(&v)) return QString::fromStdString(*s);
      return {};
    case Qt::TextAlignmentRole:
      return number ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    default:
      return {};
  }
}

QVariant QueryResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Vertical) return section + 1;
  if (section < 0 || section >= columnCount()) return {};
  return QString::fromStdString(result_.columns[static_cast<std::size_t>(section)].name);
}

std::optional<qint64> QueryResultModel::sliceIdAt(int row) const {
  if (sliceColumn_ < 0 || row < 0 || row >= rowCount()) return std::nullopt;
  const sql::Value& v =
      result_.rows[static_cast<std::size_t>(row)][static_cast<std::size_t>(sliceColumn_)];
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  return std::nullopt;
}

}  // namespace sutra::widgets
