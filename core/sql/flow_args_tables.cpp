// SPDX-License-Identifier: MIT
// Perfetto's `flow` (id, slice_out, slice_in, trace_id, arg_set_id; and Sutra's category) and
// `args` (arg_set_id, flat_key, key, int_value, string_value, real_value, value_type,
// display_value), with EXTRACT_ARG(arg_set_id, key). A slice's arg set is its args JSON, parsed
// when read (the model keeps args as text): its arg_set_id is the slice's id, and keys are
// Perfetto's for a JSON trace: "args.<name>", nested objects joined with '.', array items as
// "[i]" in `key` (not in `flat_key`). `args` reads one slice's args where arg_set_id = is given.
#include <nlohmann/json.hpp>

#include "sql/tables.h"

namespace sutra::sql {
namespace {

class FlowTable final : public RowTable {
 public:
  explicit FlowTable(const RunModel& model) : model_(model) {}
  std::string_view name() const override { return "flow"; }
  std::string declaration() const override {
    return "CREATE TABLE x(id INTEGER, slice_out INTEGER, slice_in INTEGER, trace_id INTEGER, "
           "arg_set_id INTEGER, category TEXT)";
  }
  int keyColumn() const override { return 0; }
  std::int64_t rowCount() const override { return model_.flowCount(); }
  std::optional<std::int64_t> rowOfKey(std::int64_t key) const override {
    if (key < 0 || key >= rowCount()) return std::nullopt;
    return key;
  }
  void column(std::int64_t row, int column, sqlite3_context* ctx) const override {
    const std::size_t r = model_.rankOfFlow(row);
    const RankSlot& slot = model_.slots()[r];
    const Flow& f = slot.trace->flows[static_cast<std::size_t>(row - slot.flowBase)];
    switch (column) {
      case 0:
        resultInt(ctx, row);
        break;
      case 1:
        resultIntOr(ctx, model_.sliceId(r, f.from), -1);
        break;
      case 2:
        resultIntOr(ctx, model_.sliceId(r, f.to), -1);
        break;
      case 3:
        resultInt(ctx, f.id);
        break;
      case 5:
        resultView(ctx, slot.trace->categories.view(f.category));
        break;
      default:
        sqlite3_result_null(ctx);
    }
  }

 private:
  const RunModel& model_;
};

// One argument of an arg set, flattened.
struct Arg {
  std::string flatKey, key;
  nlohmann::json value;  // a scalar
};

void flatten(const nlohmann::json& value, const std::string& flatKey, const std::string& key,
             std::vector<Arg>& out) {
  if (value.is_object()) {
    for (const auto& [name, item] : value.items())
      flatten(item, flatKey + "." + name, key + "." + name, out);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      flatten(value[i], flatKey, key + "[" + std::to_string(i) + "]", out);
  } else {
    out.push_back({flatKey, key, value});
  }
}

// The args of slice `id` flattened; empty where it has none or they do not parse.
std::vector<Arg> argsOf(const RunModel& model, std::int64_t id) {
  std::vector<Arg> args;
  const std::size_t r = model.rankOfSlice(id);
  if (r == kNoRank) return args;
  const Trace& trace = *model.slots()[r].trace;
  const Event& e = trace.events[static_cast<std::size_t>(id - model.slots()[r].eventBase)];
  const std::string_view text = trace.argsJson(e);
  if (text.empty()) return args;
  const auto parsed = nlohmann::json::parse(text, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) return args;
  flatten(parsed, "args", "args", args);
  return args;
}

std::string_view typeName(const nlohmann::json& v) {
  if (v.is_boolean()) return "bool";
  if (v.is_number_unsigned()) return "uint";
  if (v.is_number_integer()) return "int";
  if (v.is_number_float()) return "real";
  if (v.is_string()) return "string";
  return "null";
}

// A scalar as SQLite's value: integers and booleans as integers, reals, strings as text.
void resultJson(sqlite3_context* ctx, const nlohmann::json& v) {
  if (v.is_boolean())
    resultInt(ctx, v.get<bool>() ? 1 : 0);
  else if (v.is_number_unsigned())
    resultInt(ctx, static_cast<std::int64_t>(v.get<std::uint64_t>()));
  else if (v.is_number_integer())
    resultInt(ctx, v.get<std::int64_t>());
  else if (v.is_number_float())
    sqlite3_result_double(ctx, v.get<double>());
  else if (v.is_string())
    resultCopy(ctx, v.get_ref<const std::string&>());
  else
    sqlite3_result_null(ctx);
}

enum ArgsCol {
  kArgSetId,
  kFlatKey,
  kKey,
  kIntValue,
  kStringValue,
  kRealValue,
  kValueType,
  kDisplayValue
};

class ArgsCursor final : public Cursor {
 public:
  explicit ArgsCursor(const RunModel& model) : model_(&model) {}
  void filter(int, std::span<const Bound> bounds) override {
    IntRange ids;
    ids.lo = 0;
    ids.hi = model_->sliceCount() - 1;
    for (const Bound& b : bounds)
      if (b.column == kArgSetId) ids.narrow(b);
    next_ = ids.lo;
    last_ = ids.hi;
    args_.clear();
    at_ = 0;
    row_ = 0;
    fill();
  }
  void next() override {
    ++row_;
    if (++at_ >= args_.size()) fill();
  }
  bool eof() const override { return at_ >= args_.size(); }
  std::int64_t rowid() const override { return row_; }
  void column(int column, sqlite3_context* ctx) const override {
    const Arg& a = args_[at_];
    switch (column) {
      case kArgSetId:
        resultInt(ctx, slice_);
        break;
      case kFlatKey:
        resultCopy(ctx, a.flatKey);
        break;
      case kKey:
        resultCopy(ctx, a.key);
        break;
      case kIntValue:
        if (a.value.is_number_integer() || a.value.is_boolean())
          resultJson(ctx, a.value);
        else
          sqlite3_result_null(ctx);
        break;
      case kStringValue:
        if (a.value.is_string())
          resultJson(ctx, a.value);
        else
          sqlite3_result_null(ctx);
        break;
      case kRealValue:
        if (a.value.is_number_float())
          resultJson(ctx, a.value);
        else
          sqlite3_result_null(ctx);
        break;
      case kValueType:
        resultView(ctx, typeName(a.value));
        break;
      case kDisplayValue:
        if (a.value.is_string())
          resultJson(ctx, a.value);
        else if (a.value.is_null())
          sqlite3_result_null(ctx);
        else
          resultCopy(ctx, a.value.dump());
        break;
      default:
        sqlite3_result_null(ctx);
    }
  }

 private:
  // Parses slices from next_ on until one has args.
  void fill() {
    args_.clear();
    at_ = 0;
    while (args_.empty() && next_ <= last_) {
      slice_ = next_++;
      args_ = argsOf(*model_, slice_);
    }
  }

  const RunModel* model_;
  std::int64_t next_ = 0, last_ = -1, slice_ = 0, row_ = 0;
  std::vector<Arg> args_;
  std::size_t at_ = 0;
};

class ArgsTable final : public Table {
 public:
  explicit ArgsTable(const RunModel& model) : model_(model) {}
  std::string_view name() const override { return "args"; }
  std::string declaration() const override {
    return "CREATE TABLE x(arg_set_id INTEGER, flat_key TEXT, key TEXT, int_value INTEGER, "
           "string_value TEXT, real_value REAL, value_type TEXT, display_value TEXT)";
  }
  ScanPlan plan(const PlanRequest& request) const override {
    ScanPlan plan;
    plan.cost = static_cast<double>(model_.sliceCount()) * 20;  // every slice's args parsed
    for (std::size_t i = 0; i < request.offered.size(); ++i)
      if (request.offered[i].column == kArgSetId) {
        plan.use.push_back(static_cast<int>(i));
        if (request.offered[i].op == Compare::Eq) plan.cost = 5;
      }
    plan.rows = static_cast<std::int64_t>(plan.cost);
    return plan;
  }
  std::unique_ptr<Cursor> open() const override { return std::make_unique<ArgsCursor>(model_); }

 private:
  const RunModel& model_;
};

void extractArg(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  const auto* model = static_cast<const RunModel*>(sqlite3_user_data(ctx));
  if (argc != 2 || sqlite3_value_type(argv[0]) != SQLITE_INTEGER ||
      sqlite3_value_type(argv[1]) != SQLITE_TEXT) {
    sqlite3_result_null(ctx);
    return;
  }
  const std::string_view key(reinterpret_cast<const char*>(sqlite3_value_text(argv[1])),
                             static_cast<std::size_t>(sqlite3_value_bytes(argv[1])));
  for (const Arg& a : argsOf(*model, sqlite3_value_int64(argv[0])))
    if (a.key == key) return resultJson(ctx, a.value);
  sqlite3_result_null(ctx);
}

}  // namespace

std::vector<std::unique_ptr<Table>> makeFlowArgsTables(const RunModel& model) {
  std::vector<std::unique_ptr<Table>> tables;
  tables.push_back(std::make_unique<FlowTable>(model));
  tables.push_back(std::make_unique<ArgsTable>(model));
  return tables;
}

int registerExtractArg(sqlite3* db, const RunModel& model) {
  return sqlite3_create_function_v2(
      db, "extract_arg", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
      const_cast<RunModel*>(&model), extractArg, nullptr, nullptr, nullptr);
}

}  // namespace sutra::sql
