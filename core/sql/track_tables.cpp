// SPDX-License-Identifier: MIT
// Perfetto's `thread`, `process`, `thread_track` and `track` over the run's lanes. Perfetto's
// JSON importer makes every (pid, tid) of a Chrome trace a thread with its thread track, device
// streams included (Kineto writes a stream as tid = stream on pid = device), so each lane is one
// thread (utid) and one thread track with the same id; a process (upid) is a distinct pid of a
// rank. Sutra's columns: rank, and for threads their kind, device and stream.
#include <cctype>

#include "sql/tables.h"

namespace sutra::sql {
namespace {

bool isWholeNumber(std::string_view text) {
  if (text.empty()) return false;
  std::size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i)
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  return true;
}

// A pid or tid: its number where it is written as one, else its text.
void resultPidTid(sqlite3_context* ctx, std::string_view text, std::int64_t number) {
  if (isWholeNumber(text))
    resultInt(ctx, number);
  else
    resultView(ctx, text);
}

std::string_view laneKindName(LaneKind kind) {
  switch (kind) {
    case LaneKind::HostThread:
      return "host_thread";
    case LaneKind::DeviceStream:
      return "device_stream";
    case LaneKind::Other:
      return "other";
  }
  return "other";
}

// Rows are the run's lanes (global track ids).
class LaneRows : public RowTable {
 public:
  explicit LaneRows(const RunModel& model) : model_(model) {}
  std::int64_t rowCount() const override { return model_.laneCount(); }
  std::optional<std::int64_t> rowOfKey(std::int64_t key) const override {
    if (key < 0 || key >= model_.laneCount()) return std::nullopt;
    return key;
  }
  void column(std::int64_t row, int column, sqlite3_context* ctx) const override {
    const std::size_t r = model_.rankOfLane(row);
    const RankSlot& slot = model_.slots()[r];
    const auto lane = static_cast<LaneId>(row - slot.laneBase);
    laneColumn(slot, lane, column, ctx);
  }

 protected:
  virtual void laneColumn(const RankSlot& slot, LaneId lane, int column,
                          sqlite3_context* ctx) const = 0;
  const RunModel& model_;
};

class ThreadTable final : public LaneRows {
 public:
  using LaneRows::LaneRows;
  std::string_view name() const override { return "thread"; }
  std::string declaration() const override {
    return "CREATE TABLE x(utid INTEGER, tid, name TEXT, upid INTEGER, start_ts INTEGER, "
           "rank INTEGER, kind TEXT, device INTEGER, stream INTEGER, end_ts INTEGER, "
           "is_main_thread INTEGER)";
  }
  int keyColumn() const override { return 0; }

 private:
  void laneColumn(const RankSlot& slot, LaneId lane, int column,
                  sqlite3_context* ctx) const override {
    const Lane& l = slot.trace->lanes[lane];
    switch (column) {
      case 0:
        resultInt(ctx, slot.laneBase + lane);
        break;
      case 1:
        resultPidTid(ctx, l.tid, l.tidNumber);
        break;
      case 2:
        resultViewOrNull(ctx, l.threadName);
        break;
      case 3:
        resultInt(ctx, slot.laneUpid[lane]);
        break;
      case 4:
        if (l.firstEvent < l.endEvent)
          resultInt(ctx, slot.trace->events[l.firstEvent].start);
        else
          sqlite3_result_null(ctx);
        break;
      case 5:
        resultInt(ctx, slot.run->rank);
        break;
      case 6:
        resultView(ctx, laneKindName(l.kind));
        break;
      case 7:
        resultIntOr(ctx, l.device, -1);
        break;
      case 8:
        resultIntOr(ctx, l.stream, -1);
        break;
      case 9:
        if (l.firstEvent < l.endEvent)
          resultInt(ctx, slot.laneEnd[lane]);
        else
          sqlite3_result_null(ctx);
        break;
      default:  // is_main_thread: not recorded by Kineto
        sqlite3_result_null(ctx);
    }
  }
};

// The name a track shows: the thread's name, else its tid.
std::string_view trackName(const Lane& l) { return l.threadName.empty() ? l.tid : l.threadName; }

class ThreadTrackTable final : public LaneRows {
 public:
  using LaneRows::LaneRows;
  std::string_view name() const override { return "thread_track"; }
  std::string declaration() const override {
    return "CREATE TABLE x(id INTEGER, name TEXT, type TEXT, utid INTEGER, rank INTEGER)";
  }
  int keyColumn() const override { return 0; }

 private:
  void laneColumn(const RankSlot& slot, LaneId lane, int column,
                  sqlite3_context* ctx) const override {
    const Lane& l = slot.trace->lanes[lane];
    switch (column) {
      case 0:
      case 3:
        resultInt(ctx, slot.laneBase + lane);
        break;
      case 1:
        resultViewOrNull(ctx, trackName(l));
        break;
      case 2:
        resultView(ctx, "thread_track");
        break;
      case 4:
        resultInt(ctx, slot.run->rank);
        break;
      default:
        sqlite3_result_null(ctx);
    }
  }
};

class ProcessTable final : public RowTable {
 public:
  explicit ProcessTable(const RunModel& model) : model_(model) {}
  std::string_view name() const override { return "process"; }
  std::string declaration() const override {
    return "CREATE TABLE x(upid INTEGER, pid, name TEXT, rank INTEGER)";
  }
  int keyColumn() const override { return 0; }
  std::int64_t rowCount() const override {
    return static_cast<std::int64_t>(model_.processes().size());
  }
  std::optional<std::int64_t> rowOfKey(std::int64_t key) const override {
    if (key < 0 || key >= rowCount()) return std::nullopt;
    return key;
  }
  void column(std::int64_t row, int column, sqlite3_context* ctx) const override {
    const ProcessRow& p = model_.processes()[static_cast<std::size_t>(row)];
    switch (column) {
      case 0:
        resultInt(ctx, row);
        break;
      case 1:
        resultPidTid(ctx, p.pid, p.pidNumber);
        break;
      case 2:
        resultViewOrNull(ctx, p.name);
        break;
      case 3:
        resultInt(ctx, model_.slots()[p.rank].run->rank);
        break;
      default:
        sqlite3_result_null(ctx);
    }
  }

 private:
  const RunModel& model_;
};

// Every track: the thread tracks, then the counter tracks.
class TrackTable final : public RowTable {
 public:
  explicit TrackTable(const RunModel& model) : model_(model) {}
  std::string_view name() const override { return "track"; }
  std::string declaration() const override {
    return "CREATE TABLE x(id INTEGER, name TEXT, type TEXT, rank INTEGER)";
  }
  int keyColumn() const override { return 0; }
  std::int64_t rowCount() const override {
    return model_.laneCount() + static_cast<std::int64_t>(model_.counterTracks().size());
  }
  std::optional<std::int64_t> rowOfKey(std::int64_t key) const override {
    if (key < 0 || key >= rowCount()) return std::nullopt;
    return key;
  }
  void column(std::int64_t row, int column, sqlite3_context* ctx) const override {
    if (column == 0) return resultInt(ctx, row);
    const bool counter = row >= model_.laneCount();
    std::size_t rank = 0;
    std::string_view name;
    if (counter) {
      const CounterTrack& c =
          model_.counterTracks()[static_cast<std::size_t>(row - model_.laneCount())];
      rank = c.rank;
      name = c.series->name;
    } else {
      rank = model_.rankOfLane(row);
      const RankSlot& slot = model_.slots()[rank];
      name = trackName(slot.trace->lanes[static_cast<std::size_t>(row - slot.laneBase)]);
    }
    switch (column) {
      case 1:
        resultViewOrNull(ctx, name);
        break;
      case 2:
        resultView(ctx, counter ? "counter_track" : "thread_track");
        break;
      case 3:
        resultInt(ctx, model_.slots()[rank].run->rank);
        break;
      default:
        sqlite3_result_null(ctx);
    }
  }

 private:
  const RunModel& model_;
};

}  // namespace

std::vector<std::unique_ptr<Table>> makeTrackTables(const RunModel& model) {
  std::vector<std::unique_ptr<Table>> tables;
  tables.push_back(std::make_unique<ThreadTable>(model));
  tables.push_back(std::make_unique<ProcessTable>(model));
  tables.push_back(std::make_unique<ThreadTrackTable>(model));
  tables.push_back(std::make_unique<TrackTable>(model));
  return tables;
}

}  // namespace sutra::sql
