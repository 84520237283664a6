// SPDX-License-Identifier: MIT
// Sutra's run tables: `rank` (one row per rank: its files, events, span, how its ET was linked)
// and `step` (each rank's steps as the analyses find them: ProfilerStep#N, else the iterations
// between repeats of the outermost repeating annotation, else the whole trace).
#include "sql/rank_rows.h"
#include "sql/tables.h"

namespace sutra::sql {
namespace {

std::string_view stepSourceName(StepSource source) {
  switch (source) {
    case StepSource::ProfilerStep:
      return "profiler_step";
    case StepSource::RepeatingAnnotation:
      return "repeating_annotation";
    case StepSource::WholeTrace:
      return "whole_trace";
  }
  return "whole_trace";
}

class RankTable final : public RowTable {
 public:
  explicit RankTable(const RunModel& model) : model_(model) {}
  std::string_view name() const override { return "rank"; }
  std::string declaration() const override {
    return "CREATE TABLE x(rank INTEGER, kineto_path TEXT, et_path TEXT, chakra_path TEXT, "
           "events INTEGER, lanes INTEGER, start_ts INTEGER, end_ts INTEGER, "
           "device_backend TEXT, world_size INTEGER, link_note TEXT)";
  }
  std::int64_t rowCount() const override {
    return static_cast<std::int64_t>(model_.slots().size());
  }
  void column(std::int64_t row, int column, sqlite3_context* ctx) const override {
    const RankSlot& slot = model_.slots()[static_cast<std::size_t>(row)];
    const RankRun& run = *slot.run;
    const Trace* t = slot.trace;
    switch (column) {
      case 0:
        return resultInt(ctx, run.rank);
      case 1:
        return resultViewOrNull(ctx, run.kinetoPath);
      case 2:
        return resultViewOrNull(ctx, run.etPath);
      case 3:
        return resultViewOrNull(ctx, run.chakraPath);
      case 4:
        return resultInt(ctx, t ? static_cast<std::int64_t>(t->events.size()) : 0);
      case 5:
        return resultInt(ctx, t ? static_cast<std::int64_t>(t->lanes.size()) : 0);
      case 6:
        if (t) return resultInt(ctx, t->startNs);
        break;
      case 7:
        if (t) return resultInt(ctx, t->endNs);
        break;
      case 8:
        if (t) return resultView(ctx, t->meta.deviceBackend);
        break;
      case 9:
        if (t && t->meta.worldSize) return resultInt(ctx, *t->meta.worldSize);
        break;
      case 10:
        return resultViewOrNull(ctx, run.linkNote());
      default:
        break;
    }
    sqlite3_result_null(ctx);
  }

 private:
  const RunModel& model_;
};

class StepTable final : public RankRowsTable {
 public:
  using RankRowsTable::RankRowsTable;
  std::string_view name() const override { return "step"; }
  std::string declaration() const override {
    return "CREATE TABLE x(rank INTEGER, number INTEGER, name TEXT, ts INTEGER, dur INTEGER, "
           "end_ts INTEGER, host_dur INTEGER, annotation_id INTEGER, source TEXT)";
  }

 protected:
  std::size_t rowsOf(const RankSlot& slot, std::size_t) const override {
    return slot.run->steps().size();
  }
  void rankColumn(const RankSlot& slot, std::size_t rank, std::size_t row, int column,
                  sqlite3_context* ctx) const override {
    const Step& s = slot.run->steps()[row];
    switch (column) {
      case 0:
        return resultInt(ctx, slot.run->rank);
      case 1:
        return resultInt(ctx, s.number);
      case 2:
        return resultView(ctx, s.name);
      case 3:
        return resultInt(ctx, s.start);
      case 4:
        return resultInt(ctx, s.duration());
      case 5:
        return resultInt(ctx, s.deviceEnd);
      case 6:
        return resultInt(ctx, s.end - s.start);
      case 7:
        return resultIntOr(ctx, model_.sliceId(rank, s.annotation), -1);
      case 8:
        return resultView(ctx, stepSourceName(s.source));
      default:
        return sqlite3_result_null(ctx);
    }
  }
};

}  // namespace

std::vector<std::unique_ptr<Table>> makeRunTables(const RunModel& model) {
  std::vector<std::unique_ptr<Table>> tables;
  tables.push_back(std::make_unique<RankTable>(model));
  tables.push_back(std::make_unique<StepTable>(model));
  return tables;
}

}  // namespace sutra::sql
