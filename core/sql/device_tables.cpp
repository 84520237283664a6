// SPDX-License-Identifier: MIT
// Sutra's device-side tables, each a rank's results the run built once, read in place:
//   kernel        every device op (kernel, memcpy, memset) with its launch: the runtime call
//                 (launch_slice_id) and the framework op that made the call (op_slice_id)
//   launch        each launch of a device op: the call, the op it launched and the delay between
//   sync          the synchronisation dependencies: which call (or device op) waited on which op
//   collective    each collective matched across ranks, one row per member
//   memory_event  the [memory] allocations and frees with the allocation curve after each
#include "analysis/memory.h"
#include "link/launch_index.h"
#include "link/sync_dependencies.h"
#include "session/run_collectives.h"
#include "sql/rank_rows.h"
#include "sql/tables.h"

namespace sutra::sql {
namespace {

enum KernelCol {
  kId,
  kRank,
  kTs,
  kDur,
  kName,
  kCategory,
  kKind,
  kDevice,
  kStream,
  kTrackId,
  kLaunchSliceId,
  kOpSliceId,
  kCorrelation
};

class KernelTable final : public RankRowsTable {
 public:
  using RankRowsTable::RankRowsTable;
  std::string_view name() const override { return "kernel"; }
  std::string declaration() const override {
    return "CREATE TABLE x(id INTEGER, rank INTEGER, ts INTEGER, dur INTEGER, name TEXT, "
           "category TEXT, kind TEXT, device INTEGER, stream INTEGER, track_id INTEGER, "
           "launch_slice_id INTEGER, op_slice_id INTEGER, correlation INTEGER)";
  }

 protected:
  std::size_t rowsOf(const RankSlot& slot, std::size_t) const override {
    return slot.run->launches() ? slot.run->launches()->launches().size() : 0;
  }
  void rankColumn(const RankSlot& slot, std::size_t rank, std::size_t row, int column,
                  sqlite3_context* ctx) const override {
    const DeviceLaunch& launch = slot.run->launches()->launches()[row];
    const Trace& trace = *slot.trace;
    const Event& e = trace.events[launch.deviceOp];
    const Lane& lane = trace.lanes[e.lane];
    switch (column) {
      case kId:
        return resultInt(ctx, model_.sliceId(rank, launch.deviceOp));
      case kRank:
        return resultInt(ctx, slot.run->rank);
      case kTs:
        return resultInt(ctx, e.start);
      case kDur:
        return resultInt(ctx, e.dur);
      case kName:
        return resultView(ctx, trace.name(e));
      case kCategory:
        return resultView(ctx, trace.category(e));
      case kKind:
        return resultView(ctx, categoryClassName(e.klass));
      case kDevice:
        return resultIntOr(ctx, lane.device, -1);
      case kStream:
        return resultIntOr(ctx, lane.stream, -1);
      case kTrackId:
        return resultInt(ctx, slot.laneBase + e.lane);
      case kLaunchSliceId:
        return resultIntOr(ctx, model_.sliceId(rank, launch.runtimeCall), -1);
      case kOpSliceId:
        return resultIntOr(ctx, model_.sliceId(rank, launch.launcher), -1);
      case kCorrelation:
        return resultIntOr(ctx, e.correlation, kNoId);
      default:
        return sqlite3_result_null(ctx);
    }
  }
};

class LaunchTable final : public RankRowsTable {
 public:
  using RankRowsTable::RankRowsTable;
  std::string_view name() const override { return "launch"; }
  std::string declaration() const override {
    return "CREATE TABLE x(slice_id INTEGER, rank INTEGER, ts INTEGER, dur INTEGER, name TEXT, "
           "kernel_id INTEGER, op_slice_id INTEGER, delay INTEGER)";
  }
  std::size_t builtBytes() const override {
    std::size_t n = 0;
    for (const auto& r : rows_) n += r.capacity() * sizeof(std::uint32_t);
    return n;
  }

 protected:
  std::size_t rowsOf(const RankSlot& slot, std::size_t rank) const override {
    if (rows_.size() <= rank) rows_.resize(rank + 1);
    if (!slot.run->launches()) return 0;
    const auto& launches = slot.run->launches()->launches();
    for (std::uint32_t i = 0; i < launches.size(); ++i)
      if (launches[i].runtimeCall != kNoEvent) rows_[rank].push_back(i);
    rows_[rank].shrink_to_fit();
    return rows_[rank].size();
  }
  void rankColumn(const RankSlot& slot, std::size_t rank, std::size_t row, int column,
                  sqlite3_context* ctx) const override {
    const DeviceLaunch& launch = slot.run->launches()->launches()[rows_[rank][row]];
    const Trace& trace = *slot.trace;
    const Event& call = trace.events[launch.runtimeCall];
    switch (column) {
      case 0:
        return resultInt(ctx, model_.sliceId(rank, launch.runtimeCall));
      case 1:
        return resultInt(ctx, slot.run->rank);
      case 2:
        return resultInt(ctx, call.start);
      case 3:
        return resultInt(ctx, call.dur);
      case 4:
        return resultView(ctx, trace.name(call));
      case 5:
        return resultInt(ctx, model_.sliceId(rank, launch.deviceOp));
      case 6:
        return resultIntOr(ctx, model_.sliceId(rank, launch.launcher), -1);
      case 7:
        return resultInt(ctx, trace.events[launch.deviceOp].start - call.start);
      default:
        return sqlite3_result_null(ctx);
    }
  }

 private:
  mutable std::vector<std::vector<std::uint32_t>> rows_;  // per rank: launches with a call
};

class SyncTable final : public RankRowsTable {
 public:
  using RankRowsTable::RankRowsTable;
  std::string_view name() const override { return "sync"; }
  std::string declaration() const override {
    return "CREATE TABLE x(rank INTEGER, kind TEXT, waiter_id INTEGER, waited_on_id INTEGER, "
           "sync_slice_id INTEGER)";
  }

 protected:
  std::size_t rowsOf(const RankSlot& slot, std::size_t) const override {
    return slot.run->syncs() ? slot.run->syncs()->size() : 0;
  }
  void rankColumn(const RankSlot& slot, std::size_t rank, std::size_t row, int column,
                  sqlite3_context* ctx) const override {
    const SyncDependency& s = (*slot.run->syncs())[row];
    switch (column) {
      case 0:
        return resultInt(ctx, slot.run->rank);
      case 1:
        return resultView(ctx, syncKindName(s.kind));
      case 2:
        return resultIntOr(ctx, model_.sliceId(rank, s.waiter), -1);
      case 3:
        return resultIntOr(ctx, model_.sliceId(rank, s.waitedOn), -1);
      case 4:
        return resultIntOr(ctx, model_.sliceId(rank, s.syncEvent), -1);
      default:
        return sqlite3_result_null(ctx);
    }
  }
};

// One row per member of each matched collective.
class CollectiveTable final : public RowTable {
 public:
  explicit CollectiveTable(const RunModel& model) : model_(model) {}
  std::string_view name() const override { return "collective"; }
  std::string declaration() const override {
    return "CREATE TABLE x(collective_id INTEGER, rank INTEGER, slice_id INTEGER, ts INTEGER, "
           "dur INTEGER, name TEXT)";
  }
  std::int64_t rowCount() const override {
    members();
    return static_cast<std::int64_t>(members_.size());
  }
  void column(std::int64_t row, int column, sqlite3_context* ctx) const override {
    const auto& [collective, member] = members_[static_cast<std::size_t>(row)];
    const auto rank = static_cast<std::size_t>(member.rank);
    const RankSlot& slot = model_.slots()[rank];
    if (column == 0) return resultInt(ctx, collective);
    if (column == 1) return resultInt(ctx, slot.run->rank);
    if (column == 2) return resultIntOr(ctx, model_.sliceId(rank, member.event), -1);
    if (!slot.trace || member.event == kNoEvent) return sqlite3_result_null(ctx);
    const Event& e = slot.trace->events[member.event];
    if (column == 3) return resultInt(ctx, e.start);
    if (column == 4) return resultInt(ctx, e.dur);
    if (column == 5) return resultView(ctx, slot.trace->name(e));
    sqlite3_result_null(ctx);
  }

 private:
  void members() const {
    if (built_) return;
    built_ = true;
    const auto& collectives = model_.run().collectives;
    if (!collectives) return;
    for (std::size_t c = 0; c < collectives->collectives.size(); ++c)
      for (const auto& m : collectives->collectives[c])
        if (m.rank >= 0 && static_cast<std::size_t>(m.rank) < model_.slots().size())
          members_.emplace_back(static_cast<std::int64_t>(c), m);
  }
  const RunModel& model_;
  mutable bool built_ = false;
  mutable std::vector<std::pair<std::int64_t, RunCollectives::Member>> members_;
};

// The [memory] events, read from each rank's trace on first use (buildMemoryReport).
class MemoryEventTable final : public RankRowsTable {
 public:
  using RankRowsTable::RankRowsTable;
  std::string_view name() const override { return "memory_event"; }
  std::string declaration() const override {
    return "CREATE TABLE x(rank INTEGER, device_type INTEGER, device TEXT, device_id INTEGER, "
           "ts INTEGER, bytes INTEGER, allocated INTEGER, reserved INTEGER, op_slice_id INTEGER)";
  }

 protected:
  struct Row {
    const MemoryDevice* device;
    const MemoryPoint* point;
  };
  std::size_t rowsOf(const RankSlot& slot, std::size_t rank) const override {
    if (reports_.size() <= rank) {
      reports_.resize(rank + 1);
      rows_.resize(rank + 1);
    }
    if (!slot.trace) return 0;
    reports_[rank] = std::make_unique<MemoryReport>(buildMemoryReport(*slot.trace));
    for (const MemoryDevice& d : reports_[rank]->devices)
      for (const MemoryPoint& p : d.points) rows_[rank].push_back({&d, &p});
    return rows_[rank].size();
  }
  void rankColumn(const RankSlot& slot, std::size_t rank, std::size_t row, int column,
                  sqlite3_context* ctx) const override {
    const Row& r = rows_[rank][row];
    switch (column) {
      case 0:
        return resultInt(ctx, slot.run->rank);
      case 1:
        return resultInt(ctx, r.device->deviceType);
      case 2:
        return resultView(ctx, r.device->typeName);
      case 3:
        return resultInt(ctx, r.device->deviceId);
      case 4:
        return resultInt(ctx, r.point->time);
      case 5:
        return resultInt(ctx, r.point->bytes);
      case 6:
        return resultInt(ctx, r.point->allocated);
      case 7:
        return resultIntOr(ctx, r.point->reserved, -1);
      case 8:
        return resultIntOr(ctx, model_.sliceId(rank, r.point->op), -1);
      default:
        return sqlite3_result_null(ctx);
    }
  }

 private:
  mutable std::vector<std::unique_ptr<MemoryReport>> reports_;
  mutable std::vector<std::vector<Row>> rows_;
};

}  // namespace

std::vector<std::unique_ptr<Table>> makeDeviceTables(const RunModel& model) {
  std::vector<std::unique_ptr<Table>> tables;
  tables.push_back(std::make_unique<KernelTable>(model));
  tables.push_back(std::make_unique<LaunchTable>(model));
  tables.push_back(std::make_unique<SyncTable>(model));
  tables.push_back(std::make_unique<CollectiveTable>(model));
  tables.push_back(std::make_unique<MemoryEventTable>(model));
  return tables;
}

}  // namespace sutra::sql
