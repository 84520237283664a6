// SPDX-License-Identifier: MIT
#pragma once
// A table whose rows are each rank's rows one after another: row = the rank's first row + its own
// row. Sutra's tables (op, kernel, step ...) are this: a subclass says how many rows a rank has
// and what a column of one is; rowsOf() may build a row list on first use (op, launch), so the
// offsets are counted on the first scan, not when the session opens.
#include <algorithm>
#include <vector>

#include "sql/run_model.h"
#include "sql/virtual_table.h"

namespace sutra::sql {

class RankRowsTable : public RowTable {
 public:
  explicit RankRowsTable(const RunModel& model) : model_(model) {}

  std::int64_t rowCount() const final {
    offsets();
    return offsets_.back();
  }
  void column(std::int64_t row, int column, sqlite3_context* ctx) const final {
    offsets();
    const auto it = std::upper_bound(offsets_.begin(), offsets_.end(), row);
    const auto rank = static_cast<std::size_t>(it - offsets_.begin()) - 1;
    rankColumn(model_.slots()[rank], rank, static_cast<std::size_t>(row - offsets_[rank]), column,
               ctx);
  }

 protected:
  virtual std::size_t rowsOf(const RankSlot& slot, std::size_t rank) const = 0;
  virtual void rankColumn(const RankSlot& slot, std::size_t rank, std::size_t row, int column,
                          sqlite3_context* ctx) const = 0;
  // The table's row number of rank `rank`'s row 0.
  std::int64_t firstRowOf(std::size_t rank) const {
    offsets();
    return offsets_[rank];
  }
  const RunModel& model_;

 private:
  void offsets() const {
    if (!offsets_.empty()) return;
    offsets_.push_back(0);
    for (std::size_t r = 0; r < model_.slots().size(); ++r)
      offsets_.push_back(offsets_.back() + static_cast<std::int64_t>(rowsOf(model_.slots()[r], r)));
  }
  mutable std::vector<std::int64_t> offsets_;  // offsets_[r]: rank r's first row; then the total
};

}  // namespace sutra::sql
