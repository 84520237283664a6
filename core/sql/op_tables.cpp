// SPDX-License-Identifier: MIT
// Sutra's operator tables:
//   op        each CPU operator: where the rank's ET is linked, the linked trace's CPU ops with
//             their ET node (et_node_id), shapes, types and schema; else the Kineto trace's
//             framework ops (cpu_op, user_annotation) with no ET columns. slice_id is the Kineto
//             event (NULL for an ET op with no match).
//   et_node   every node of each rank's execution trace, as read.
//   op_table  the operator table (torch's key_averages()) the run built for the whole trace: the
//             same rows and numbers as `sutra-cli stats`, one per name.
#include <nlohmann/json.hpp>

#include "sql/rank_rows.h"
#include "sql/tables.h"

namespace sutra::sql {
namespace {

// A JSON array of texts ("Tensor(float)", "Int" ...).
std::string jsonTexts(std::span<const std::string_view> texts) {
  nlohmann::json array = nlohmann::json::array();
  for (const std::string_view t : texts) array.push_back(std::string(t));
  return array.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

enum OpCol {
  kId,
  kRank,
  kSliceId,
  kEtNodeId,
  kEtPlusId,
  kName,
  kTs,
  kDur,
  kSelfDur,
  kBlockedDur,
  kTid,
  kIsAnnotation,
  kInputShapes,
  kInputTypes,
  kOutputShapes,
  kOutputTypes,
  kOpSchema
};

class OpTableRows final : public RankRowsTable {
 public:
  using RankRowsTable::RankRowsTable;
  std::string_view name() const override { return "op"; }
  std::string declaration() const override {
    return "CREATE TABLE x(id INTEGER, rank INTEGER, slice_id INTEGER, et_node_id INTEGER, "
           "et_plus_id INTEGER, name TEXT, ts INTEGER, dur INTEGER, self_dur INTEGER, "
           "blocked_dur INTEGER, tid INTEGER, is_annotation INTEGER, input_shapes TEXT, "
           "input_types TEXT, output_shapes TEXT, output_types TEXT, op_schema TEXT)";
  }
  int keyColumn() const override { return kId; }
  std::optional<std::int64_t> rowOfKey(std::int64_t key) const override {
    if (key < 0 || key >= rowCount()) return std::nullopt;
    return key;
  }
  std::size_t builtBytes() const override {
    std::size_t n = 0;
    for (const auto& r : rows_) n += r.capacity() * sizeof(std::uint32_t);
    return n;
  }

 protected:
  std::size_t rowsOf(const RankSlot& slot, std::size_t rank) const override {
    if (rows_.size() <= rank) rows_.resize(rank + 1);
    auto& rows = rows_[rank];
    if (const LinkedTrace* linked = slot.run->linked().get()) {
      for (std::uint32_t i = 0; i < linked->ops.size(); ++i)
        if (linked->ops[i].isCpu()) rows.push_back(i);
    } else if (slot.trace) {
      const auto& events = slot.trace->events;
      for (EventId e = 0; e < events.size(); ++e)
        if (events[e].klass == CategoryClass::CpuOp ||
            events[e].klass == CategoryClass::UserAnnotation)
          rows.push_back(e);
    }
    rows.shrink_to_fit();
    return rows.size();
  }

  void rankColumn(const RankSlot& slot, std::size_t rank, std::size_t row, int column,
                  sqlite3_context* ctx) const override {
    const std::uint32_t at = rows_[rank][row];
    if (column == kId) return resultInt(ctx, firstRowOf(rank) + static_cast<std::int64_t>(row));
    if (column == kRank) return resultInt(ctx, slot.run->rank);
    if (const LinkedTrace* linked = slot.run->linked().get())
      return linkedColumn(*linked, rank, linked->ops[at], column, ctx);
    const Trace& trace = *slot.trace;
    const Event& e = trace.events[at];
    switch (column) {
      case kSliceId:
        return resultInt(ctx, model_.sliceId(rank, at));
      case kName:
        return resultView(ctx, trace.name(e));
      case kTs:
        return resultInt(ctx, e.start);
      case kDur:
        return resultInt(ctx, e.dur);
      case kTid:
        return resultInt(ctx, trace.lanes[e.lane].tidNumber);
      case kIsAnnotation:
        return resultInt(ctx, e.klass == CategoryClass::UserAnnotation ? 1 : 0);
      default:
        return sqlite3_result_null(ctx);
    }
  }

 private:
  void linkedColumn(const LinkedTrace& linked, std::size_t rank, const LinkedOp& op, int column,
                    sqlite3_context* ctx) const {
    const EtNode* node = linked.etNode(op);
    switch (column) {
      case kSliceId:
        return resultIntOr(ctx, model_.sliceId(rank, op.kinetoEvent), -1);
      case kEtNodeId:
        if (node) return resultInt(ctx, node->id);
        return sqlite3_result_null(ctx);
      case kEtPlusId:
        return resultInt(ctx, op.id);
      case kName:
        return resultView(ctx, op.name);
      case kTs:
        return resultInt(ctx, op.ts);
      case kDur:
        return resultInt(ctx, op.inclusiveDur);
      case kSelfDur:
        return resultInt(ctx, op.exclusiveDur);
      case kBlockedDur:
        return resultInt(ctx, op.blockedDur);
      case kTid:
        return resultInt(ctx, op.tid);
      case kIsAnnotation:
        return resultInt(ctx, op.annotation ? 1 : 0);
      case kInputShapes:
        if (node) return resultViewOrNull(ctx, node->inputs.shapesJson());
        break;
      case kInputTypes:
        if (node) return resultCopy(ctx, jsonTexts(node->inputs.types()));
        break;
      case kOutputShapes:
        if (node) return resultViewOrNull(ctx, node->outputs.shapesJson());
        break;
      case kOutputTypes:
        if (node) return resultCopy(ctx, jsonTexts(node->outputs.types()));
        break;
      case kOpSchema:
        if (node) return resultViewOrNull(ctx, node->opSchema);
        break;
      default:
        break;
    }
    sqlite3_result_null(ctx);
  }

  mutable std::vector<std::vector<std::uint32_t>> rows_;  // per rank: linked op or event index
};

class EtNodeTable final : public RankRowsTable {
 public:
  using RankRowsTable::RankRowsTable;
  std::string_view name() const override { return "et_node"; }
  std::string declaration() const override {
    return "CREATE TABLE x(rank INTEGER, id INTEGER, name TEXT, parent INTEGER, rf_id INTEGER, "
           "seq_id INTEGER, scope INTEGER, tid INTEGER, fw_tid INTEGER, fw_parent INTEGER, "
           "op_schema TEXT, input_values TEXT, input_shapes TEXT, input_types TEXT, "
           "output_values TEXT, output_shapes TEXT, output_types TEXT, category TEXT, "
           "collective TEXT, pg_name TEXT)";
  }

 protected:
  std::size_t rowsOf(const RankSlot& slot, std::size_t) const override {
    return slot.run->et() ? slot.run->et()->nodes.size() : 0;
  }
  void rankColumn(const RankSlot& slot, std::size_t, std::size_t row, int column,
                  sqlite3_context* ctx) const override {
    const EtNode& n = slot.run->et()->nodes[row];
    switch (column) {
      case 0:
        return resultInt(ctx, slot.run->rank);
      case 1:
        return resultInt(ctx, n.id);
      case 2:
        return resultView(ctx, n.name);
      case 3:
        return resultInt(ctx, n.parent);
      case 4:
        return resultIntOr(ctx, n.rfId, -1);
      case 5:
        return resultIntOr(ctx, n.seqId, -1);
      case 6:
        return resultInt(ctx, n.scope);
      case 7:
        return resultInt(ctx, n.tid);
      case 8:
        return resultInt(ctx, n.fwTid);
      case 9:
        return resultInt(ctx, n.fwParent);
      case 10:
        return resultViewOrNull(ctx, n.opSchema);
      case 11:
        return resultViewOrNull(ctx, n.inputs.valuesJson);
      case 12:
        return resultViewOrNull(ctx, n.inputs.shapesJson());
      case 13:
        return resultCopy(ctx, jsonTexts(n.inputs.types()));
      case 14:
        return resultViewOrNull(ctx, n.outputs.valuesJson);
      case 15:
        return resultViewOrNull(ctx, n.outputs.shapesJson());
      case 16:
        return resultCopy(ctx, jsonTexts(n.outputs.types()));
      case 17:
        return resultViewOrNull(ctx, n.category());
      case 18:
        if (n.comm) return resultViewOrNull(ctx, n.comm->collectiveName);
        break;
      case 19:
        if (n.comm) return resultViewOrNull(ctx, n.comm->pgName);
        break;
      default:
        break;
    }
    sqlite3_result_null(ctx);
  }
};

class KeyAveragesTable final : public RankRowsTable {
 public:
  using RankRowsTable::RankRowsTable;
  std::string_view name() const override { return "op_table"; }
  std::string declaration() const override {
    return "CREATE TABLE x(rank INTEGER, name TEXT, on_device INTEGER, calls INTEGER, "
           "self_cpu INTEGER, cpu_total INTEGER, self_device INTEGER, device_total INTEGER)";
  }

 protected:
  std::size_t rowsOf(const RankSlot& slot, std::size_t) const override {
    return slot.run->opTable() ? slot.run->opTable()->rows.size() : 0;
  }
  void rankColumn(const RankSlot& slot, std::size_t, std::size_t row, int column,
                  sqlite3_context* ctx) const override {
    const OpRow& r = slot.run->opTable()->rows[row];
    switch (column) {
      case 0:
        return resultInt(ctx, slot.run->rank);
      case 1:
        return resultView(ctx, r.name);
      case 2:
        return resultInt(ctx, r.onDevice ? 1 : 0);
      case 3:
        return resultInt(ctx, static_cast<std::int64_t>(r.calls));
      case 4:
        return resultInt(ctx, r.selfCpu);
      case 5:
        return resultInt(ctx, r.cpuTotal);
      case 6:
        return resultInt(ctx, r.selfDevice);
      case 7:
        return resultInt(ctx, r.deviceTotal);
      default:
        return sqlite3_result_null(ctx);
    }
  }
};

}  // namespace

std::vector<std::unique_ptr<Table>> makeOpTables(const RunModel& model) {
  std::vector<std::unique_ptr<Table>> tables;
  tables.push_back(std::make_unique<OpTableRows>(model));
  tables.push_back(std::make_unique<EtNodeTable>(model));
  tables.push_back(std::make_unique<KeyAveragesTable>(model));
  return tables;
}

}  // namespace sutra::sql
