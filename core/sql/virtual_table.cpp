// SPDX-License-Identifier: MIT
#include "sql/virtual_table.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

namespace sutra::sql {

std::optional<std::int64_t> Bound::integer() const {
  switch (sqlite3_value_numeric_type(value)) {
    case SQLITE_INTEGER:
      return sqlite3_value_int64(value);
    case SQLITE_FLOAT: {
      const double d = sqlite3_value_double(value);
      if (std::trunc(d) == d && std::fabs(d) < 9.2e18) return static_cast<std::int64_t>(d);
      return std::nullopt;
    }
    default:
      return std::nullopt;
  }
}

std::optional<double> Bound::number() const {
  const int type = sqlite3_value_type(value);
  if (type == SQLITE_INTEGER) return static_cast<double>(sqlite3_value_int64(value));
  if (type == SQLITE_FLOAT) return sqlite3_value_double(value);
  return std::nullopt;
}

std::optional<std::string_view> Bound::text() const {
  if (sqlite3_value_type(value) != SQLITE_TEXT) return std::nullopt;
  const auto* bytes = reinterpret_cast<const char*>(sqlite3_value_text(value));
  return std::string_view(bytes, static_cast<std::size_t>(sqlite3_value_bytes(value)));
}

void IntRange::narrow(const Bound& bound) {
  // Only numbers narrow: an INTEGER column compares below any text or blob and never equals NULL,
  // and SQLite checks the constraint again, so leaving the range whole is always safe.
  const int type = sqlite3_value_type(bound.value);
  if (type != SQLITE_INTEGER && type != SQLITE_FLOAT) return;
  std::int64_t below = 0, above = 0;  // the integers just at or below / at or above the value
  if (type == SQLITE_INTEGER) {
    below = above = sqlite3_value_int64(bound.value);
  } else {
    const double d = sqlite3_value_double(bound.value);
    if (std::isnan(d)) return;
    const double f = std::floor(d), c = std::ceil(d);
    below = f <= -9.2e18 ? INT64_MIN : f >= 9.2e18 ? INT64_MAX : static_cast<std::int64_t>(f);
    above = c <= -9.2e18 ? INT64_MIN : c >= 9.2e18 ? INT64_MAX : static_cast<std::int64_t>(c);
  }
  switch (bound.op) {
    case Compare::Eq:
      lo = std::max(lo, above);
      hi = std::min(hi, below);
      break;
    case Compare::Ge:
      lo = std::max(lo, above);
      break;
    case Compare::Gt:
      lo = std::max(lo, below == INT64_MAX ? INT64_MAX : below + 1);
      if (below == INT64_MAX) hi = INT64_MIN;  // nothing is above the largest integer
      break;
    case Compare::Le:
      hi = std::min(hi, below);
      break;
    case Compare::Lt:
      hi = std::min(hi, above == INT64_MIN ? INT64_MIN : above - 1);
      if (above == INT64_MIN) lo = INT64_MAX;
      break;
  }
}

ScanPlan Table::plan(const PlanRequest&) const { return {}; }

namespace {

class RowCursor final : public Cursor {
 public:
  explicit RowCursor(const RowTable& table) : table_(table) {}
  void filter(int mode, std::span<const Bound> bounds) override {
    row_ = 0;
    end_ = 0;
    if (mode == 1 && !bounds.empty()) {
      if (auto key = bounds[0].integer())
        if (auto row = table_.rowOfKey(*key)) {
          row_ = *row;
          end_ = *row + 1;
        }
      return;
    }
    end_ = table_.rowCount();
  }
  void next() override { ++row_; }
  bool eof() const override { return row_ >= end_; }
  std::int64_t rowid() const override { return row_; }
  void column(int column, sqlite3_context* ctx) const override { table_.column(row_, column, ctx); }

 private:
  const RowTable& table_;
  std::int64_t row_ = 0, end_ = 0;
};

}  // namespace

ScanPlan RowTable::plan(const PlanRequest& request) const {
  ScanPlan plan;
  plan.cost = 1e6;
  plan.rows = 1'000'000;
  for (std::size_t i = 0; i < request.offered.size(); ++i) {
    const Offered& o = request.offered[i];
    if (o.column == keyColumn() && o.op == Compare::Eq) {
      plan.use = {static_cast<int>(i)};
      plan.mode = 1;
      plan.cost = 1;
      plan.rows = 1;
      break;
    }
  }
  return plan;
}

std::unique_ptr<Cursor> RowTable::open() const { return std::make_unique<RowCursor>(*this); }

namespace {

struct VTab : sqlite3_vtab {
  const Table* table = nullptr;
};
struct VCursor : sqlite3_vtab_cursor {
  std::unique_ptr<Cursor> cursor;
};

int xConnect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  const auto* table = static_cast<const Table*>(aux);
  const int rc = sqlite3_declare_vtab(db, table->declaration().c_str());
  if (rc != SQLITE_OK) return rc;
  // Reading the model has no side effect: views may use the table with an untrusted schema.
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  auto* vtab = new (std::nothrow) VTab();
  if (!vtab) return SQLITE_NOMEM;
  vtab->table = table;
  *out = vtab;
  return SQLITE_OK;
}

int xDisconnect(sqlite3_vtab* vtab) {
  delete static_cast<VTab*>(vtab);
  return SQLITE_OK;
}

std::optional<Compare> compareOf(unsigned char op) {
  switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ:
      return Compare::Eq;
    case SQLITE_INDEX_CONSTRAINT_GT:
      return Compare::Gt;
    case SQLITE_INDEX_CONSTRAINT_GE:
      return Compare::Ge;
    case SQLITE_INDEX_CONSTRAINT_LT:
      return Compare::Lt;
    case SQLITE_INDEX_CONSTRAINT_LE:
      return Compare::Le;
    default:
      return std::nullopt;
  }
}

int xBestIndex(sqlite3_vtab* vtab, sqlite3_index_info* info) try {
  const Table& table = *static_cast<VTab*>(vtab)->table;
  PlanRequest request;
  std::vector<int> constraintOf;  // offered index -> aConstraint index
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (!c.usable || c.iColumn < 0) continue;
    const auto op = compareOf(c.op);
    if (!op) continue;
    const char* collation = sqlite3_vtab_collation(info, i);
    request.offered.push_back(
        {c.iColumn, *op, collation == nullptr || sqlite3_stricmp(collation, "BINARY") == 0});
    constraintOf.push_back(i);
  }
  for (int i = 0; i < info->nOrderBy; ++i)
    request.orderBy.push_back({info->aOrderBy[i].iColumn, info->aOrderBy[i].desc != 0});

  const ScanPlan plan = table.plan(request);
  std::string used;  // "column:op," for each constraint the cursor gets, in argv order
  int argv = 1;
  for (const int u : plan.use) {
    auto& usage = info->aConstraintUsage[constraintOf[static_cast<std::size_t>(u)]];
    usage.argvIndex = argv++;
    usage.omit = 0;  // SQLite checks it again: a scan may return a superset
    const Offered& o = request.offered[static_cast<std::size_t>(u)];
    used += std::to_string(o.column) + ":" + std::to_string(static_cast<int>(o.op)) + ",";
  }
  info->idxNum = plan.mode;
  info->idxStr = sqlite3_mprintf("%s", used.c_str());
  info->needToFreeIdxStr = 1;
  info->orderByConsumed = plan.ordered ? 1 : 0;
  info->estimatedCost = plan.cost;
  info->estimatedRows = plan.rows;
  return SQLITE_OK;
} catch (const std::bad_alloc&) {
  return SQLITE_NOMEM;
}

int xOpen(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) try {
  auto* cursor = new VCursor();
  cursor->cursor = static_cast<VTab*>(vtab)->table->open();
  *out = cursor;
  return SQLITE_OK;
} catch (const std::bad_alloc&) {
  return SQLITE_NOMEM;
}

int xClose(sqlite3_vtab_cursor* cursor) {
  delete static_cast<VCursor*>(cursor);
  return SQLITE_OK;
}

int xFilter(sqlite3_vtab_cursor* base, int idxNum, const char* idxStr, int argc,
            sqlite3_value** argv) try {
  std::vector<Bound> bounds;
  bounds.reserve(static_cast<std::size_t>(argc));
  const char* p = idxStr ? idxStr : "";
  for (int i = 0; i < argc && *p; ++i) {
    int column = 0, op = 0, read = 0;
    if (std::sscanf(p, "%d:%d,%n", &column, &op, &read) != 2 || read == 0) break;
    p += read;
    bounds.push_back({column, static_cast<Compare>(op), argv[i]});
  }
  static_cast<VCursor*>(base)->cursor->filter(idxNum, bounds);
  return SQLITE_OK;
} catch (const std::bad_alloc&) {
  return SQLITE_NOMEM;
}

int xNext(sqlite3_vtab_cursor* base) {
  static_cast<VCursor*>(base)->cursor->next();
  return SQLITE_OK;
}

int xEof(sqlite3_vtab_cursor* base) { return static_cast<VCursor*>(base)->cursor->eof() ? 1 : 0; }

int xColumn(sqlite3_vtab_cursor* base, sqlite3_context* ctx, int column) try {
  static_cast<VCursor*>(base)->cursor->column(column, ctx);
  return SQLITE_OK;
} catch (const std::bad_alloc&) {
  return SQLITE_NOMEM;
}

int xRowid(sqlite3_vtab_cursor* base, sqlite3_int64* rowid) {
  *rowid = static_cast<VCursor*>(base)->cursor->rowid();
  return SQLITE_OK;
}

sqlite3_module makeModule() {
  sqlite3_module m;
  std::memset(&m, 0, sizeof m);
  m.iVersion = 0;
  m.xCreate = nullptr;  // eponymous only: the table is there without CREATE VIRTUAL TABLE
  m.xConnect = xConnect;
  m.xBestIndex = xBestIndex;
  m.xDisconnect = xDisconnect;
  m.xDestroy = xDisconnect;
  m.xOpen = xOpen;
  m.xClose = xClose;
  m.xFilter = xFilter;
  m.xNext = xNext;
  m.xEof = xEof;
  m.xColumn = xColumn;
  m.xRowid = xRowid;
  return m;
}

const sqlite3_module kModule = makeModule();

}  // namespace

int registerTable(sqlite3* db, const Table& table) {
  const std::string name(table.name());
  return sqlite3_create_module_v2(db, name.c_str(), &kModule,
                                  const_cast<void*>(static_cast<const void*>(&table)), nullptr);
}

}  // namespace sutra::sql
