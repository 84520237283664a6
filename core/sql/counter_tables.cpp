// SPDX-License-Identifier: MIT
// Perfetto's `counter` (id, ts, track_id, value, arg_set_id) and `counter_track` (id, name, type,
// upid, rank) over the run's counter series (Kineto "C" events, the memory curves Sutra adds). A
// counter track's id follows the thread tracks' (one id space, as Perfetto's tracks). `counter`
// reads one track where track_id = is given, and finds a time window in each track's samples by
// binary search (they are sorted by time).
#include <algorithm>

#include "sql/tables.h"

namespace sutra::sql {
namespace {

enum CounterCol { kId, kTs, kTrackId, kValue, kArgSetId };

class CounterCursor final : public Cursor {
 public:
  explicit CounterCursor(const RunModel& model) : model_(&model) {}

  void filter(int, std::span<const Bound> bounds) override {
    *this = CounterCursor(*model_);
    IntRange ts, track, id;
    for (const Bound& b : bounds) {
      if (b.column == kTs) ts.narrow(b);
      if (b.column == kTrackId) track.narrow(b);
      if (b.column == kId) id.narrow(b);
    }
    const auto& tracks = model_->counterTracks();
    for (std::size_t t = 0; t < tracks.size(); ++t) {
      if (!track.contains(model_->counterTrackId(t))) continue;
      const auto& samples = tracks[t].series->samples;
      auto first = samples.begin(), last = samples.end();
      auto before = [](const std::pair<TimeNs, double>& s, TimeNs v) { return s.first < v; };
      if (ts.lo != INT64_MIN) first = std::lower_bound(first, last, ts.lo, before);
      if (ts.hi != INT64_MAX) last = std::lower_bound(first, last, ts.hi + 1, before);
      auto begin = static_cast<std::int64_t>(first - samples.begin());
      auto end = static_cast<std::int64_t>(last - samples.begin());
      // An id range narrows too (id = sampleBase + sample).
      begin = std::max(begin, id.lo == INT64_MIN ? begin : id.lo - tracks[t].sampleBase);
      end = std::min(end, id.hi == INT64_MAX ? end : id.hi - tracks[t].sampleBase + 1);
      if (begin < end) spans_.push_back({t, begin, end});
    }
    startAt(0);
  }
  void next() override {
    if (++sample_ >= spans_[span_].end) startAt(span_ + 1);
  }
  bool eof() const override { return span_ >= spans_.size(); }
  std::int64_t rowid() const override {
    return model_->counterTracks()[spans_[span_].track].sampleBase + sample_;
  }
  void column(int column, sqlite3_context* ctx) const override {
    const std::size_t t = spans_[span_].track;
    const auto& sample =
        model_->counterTracks()[t].series->samples[static_cast<std::size_t>(sample_)];
    switch (column) {
      case kId:
        resultInt(ctx, rowid());
        break;
      case kTs:
        resultInt(ctx, sample.first);
        break;
      case kTrackId:
        resultInt(ctx, model_->counterTrackId(t));
        break;
      case kValue:
        sqlite3_result_double(ctx, sample.second);
        break;
      default:
        sqlite3_result_null(ctx);
    }
  }

 private:
  struct Span {
    std::size_t track;
    std::int64_t begin, end;
  };
  void startAt(std::size_t span) {
    span_ = span;
    if (span_ < spans_.size()) sample_ = spans_[span_].begin;
  }

  const RunModel* model_;
  std::vector<Span> spans_;
  std::size_t span_ = 0;
  std::int64_t sample_ = 0;
};

class CounterTable final : public Table {
 public:
  explicit CounterTable(const RunModel& model) : model_(model) {}
  std::string_view name() const override { return "counter"; }
  std::string declaration() const override {
    return "CREATE TABLE x(id INTEGER, ts INTEGER, track_id INTEGER, value REAL, "
           "arg_set_id INTEGER)";
  }
  ScanPlan plan(const PlanRequest& request) const override {
    ScanPlan plan;
    const auto all = static_cast<double>(std::max<std::int64_t>(model_.counterSampleCount(), 1));
    plan.cost = all;
    bool track = false, id = false, ts = false;
    for (std::size_t i = 0; i < request.offered.size(); ++i) {
      const Offered& o = request.offered[i];
      if (o.column == kTs || o.column == kTrackId || o.column == kId) {
        plan.use.push_back(static_cast<int>(i));
        track = track || (o.column == kTrackId && o.op == Compare::Eq);
        id = id || (o.column == kId && o.op == Compare::Eq);
        ts = ts || o.column == kTs;
      }
    }
    plan.cost = id ? 1 : track ? all / 10 : ts ? all / 2 : all;
    plan.rows = static_cast<std::int64_t>(plan.cost);
    return plan;
  }
  std::unique_ptr<Cursor> open() const override { return std::make_unique<CounterCursor>(model_); }

 private:
  const RunModel& model_;
};

class CounterTrackTable final : public RowTable {
 public:
  explicit CounterTrackTable(const RunModel& model) : model_(model) {}
  std::string_view name() const override { return "counter_track"; }
  std::string declaration() const override {
    return "CREATE TABLE x(id INTEGER, name TEXT, type TEXT, upid INTEGER, rank INTEGER)";
  }
  int keyColumn() const override { return 0; }
  std::int64_t rowCount() const override {
    return static_cast<std::int64_t>(model_.counterTracks().size());
  }
  std::optional<std::int64_t> rowOfKey(std::int64_t key) const override {
    const std::int64_t row = key - model_.laneCount();
    if (row < 0 || row >= rowCount()) return std::nullopt;
    return row;
  }
  void column(std::int64_t row, int column, sqlite3_context* ctx) const override {
    const CounterTrack& c = model_.counterTracks()[static_cast<std::size_t>(row)];
    switch (column) {
      case 0:
        resultInt(ctx, model_.counterTrackId(static_cast<std::size_t>(row)));
        break;
      case 1:
        resultView(ctx, c.series->name);
        break;
      case 2:
        resultView(ctx, "counter_track");
        break;
      case 3:
        resultIntOr(ctx, c.upid, -1);
        break;
      case 4:
        resultInt(ctx, model_.slots()[c.rank].run->rank);
        break;
      default:
        sqlite3_result_null(ctx);
    }
  }

 private:
  const RunModel& model_;
};

}  // namespace

std::vector<std::unique_ptr<Table>> makeCounterTables(const RunModel& model) {
  std::vector<std::unique_ptr<Table>> tables;
  tables.push_back(std::make_unique<CounterTable>(model));
  tables.push_back(std::make_unique<CounterTrackTable>(model));
  return tables;
}

}  // namespace sutra::sql
