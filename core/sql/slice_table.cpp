// SPDX-License-Identifier: MIT
// `slice`: every complete event of every rank, with Perfetto's columns (id, ts, dur, category,
// name, track_id, depth, parent_id, arg_set_id) and Sutra's (rank, kind, correlation,
// external_id); Perfetto's thread_ts and thread_dur (a thread's CPU time) are NULL, as Perfetto
// leaves them where the trace has no thread time, which Kineto never records. Scans read the
// model's lanes where a constraint narrows them:
//   id = / arg_set_id =   one event;
//   parent_id =           the parent's lane from the parent on, while events start inside it;
//   ts bounds, track_id = each lane's events by binary search on start (lanes are sorted);
//   name =                the slices of that name (the name order), by id;
//   ORDER BY name / GROUP BY name: the name order, so SQLite neither sorts nor builds a table;
// and every other constraint (dur, depth, category, rank) is checked on the event's fields
// (interned ids, no string compare) before SQLite sees the row.
#include <algorithm>

#include "sql/tables.h"

namespace sutra::sql {
namespace {

enum Col {
  kId,
  kTs,
  kDur,
  kCategory,
  kName,
  kTrackId,
  kDepth,
  kParentId,
  kArgSetId,
  kRank,
  kKind,
  kCorrelation,
  kExternalId,
  kThreadTs,  // NULL: no thread time in a Kineto trace
  kThreadDur
};

enum Mode { kFull, kSingle, kChildren, kWindow, kNameBucket, kNameOrder, kNameOrderDesc };

class SliceCursor final : public Cursor {
 public:
  explicit SliceCursor(const RunModel& model) : model_(&model) {}

  void filter(int mode, std::span<const Bound> bounds) override {
    *this = SliceCursor(*model_);
    for (const Bound& b : bounds) {
      switch (b.column) {
        case kId:
        case kArgSetId:
          id_.narrow(b);
          break;
        case kTs:
          ts_.narrow(b);
          break;
        case kDur:
          dur_.narrow(b);
          break;
        case kDepth:
          depth_.narrow(b);
          break;
        case kTrackId:
          track_.narrow(b);
          break;
        case kParentId:
          parent_.narrow(b);
          break;
        case kRank:
          rank_.narrow(b);
          break;
        case kName:
          if (b.op == Compare::Eq) name_ = b.text();
          break;
        case kCategory:
          if (b.op == Compare::Eq) category_ = b.text();
          break;
        default:
          break;
      }
    }
    if (id_.empty() || ts_.empty() || dur_.empty() || depth_.empty() || track_.empty() ||
        parent_.empty() || rank_.empty()) {
      done_ = true;
      return;
    }
    const auto& slots = model_->slots();
    if (name_ || category_) {
      if (name_) nameIds_.assign(slots.size(), StringTable::kMissing);
      if (category_) categoryIds_.assign(slots.size(), StringTable::kMissing);
      for (std::size_t r = 0; r < slots.size(); ++r) {
        if (!slots[r].trace) continue;
        if (name_) nameIds_[r] = slots[r].trace->names.find(*name_);
        if (category_) categoryIds_[r] = slots[r].trace->categories.find(*category_);
      }
    }
    checks_ = !id_.whole() || !ts_.whole() || !dur_.whole() || !depth_.whole() || !track_.whole() ||
              !parent_.whole() || !rank_.whole() || name_ || category_;
    if (!startSource(static_cast<Mode>(mode))) startSpans(false);
    settle();
  }

  void next() override {
    advance();
    settle();
  }
  bool eof() const override { return done_; }
  std::int64_t rowid() const override { return model_->slots()[rank_at_].eventBase + event_; }

  void column(int column, sqlite3_context* ctx) const override {
    const RankSlot& slot = model_->slots()[rank_at_];
    const Trace& trace = *slot.trace;
    const Event& e = trace.events[event_];
    switch (column) {
      case kId:
        resultInt(ctx, slot.eventBase + event_);
        break;
      case kTs:
        resultInt(ctx, e.start);
        break;
      case kDur:
        resultInt(ctx, e.dur);
        break;
      case kCategory:
        resultView(ctx, trace.category(e));
        break;
      case kName:
        // Rows in the name order come a name at a time: its text is looked up once.
        if (e.name != nameCacheId_ || rank_at_ != nameCacheRank_) {
          nameCacheId_ = e.name;
          nameCacheRank_ = rank_at_;
          nameCache_ = trace.name(e);
        }
        resultView(ctx, nameCache_);
        break;
      case kTrackId:
        resultInt(ctx, slot.laneBase + e.lane);
        break;
      case kDepth:
        resultInt(ctx, e.depth);
        break;
      case kParentId:
        resultIntOr(ctx, model_->sliceId(rank_at_, e.parent), -1);
        break;
      case kArgSetId:
        if (e.args == kNoArgs)
          sqlite3_result_null(ctx);
        else
          resultInt(ctx, slot.eventBase + event_);
        break;
      case kRank:
        resultInt(ctx, slot.run->rank);
        break;
      case kKind:
        resultView(ctx, categoryClassName(e.klass));
        break;
      case kCorrelation:
        resultIntOr(ctx, e.correlation, kNoId);
        break;
      case kExternalId:
        resultIntOr(ctx, e.externalId, kNoId);
        break;
      default:
        sqlite3_result_null(ctx);
    }
  }

 private:
  struct Span {
    std::size_t rank;
    EventId begin, end;
  };

  // Sets up the source the plan chose; false where it cannot (then the spans of every lane).
  bool startSource(Mode mode) {
    switch (mode) {
      case kSingle: {
        if (id_.lo != id_.hi) return false;
        const std::size_t r = model_->rankOfSlice(id_.lo);
        if (r != kNoRank) {
          const auto e = static_cast<EventId>(id_.lo - model_->slots()[r].eventBase);
          spans_.push_back({r, e, e + 1});
        }
        startAt(0);
        return true;
      }
      case kChildren: {
        if (parent_.lo != parent_.hi) return false;
        const std::size_t r = model_->rankOfSlice(parent_.lo);
        if (r != kNoRank) {
          const Trace& t = *model_->slots()[r].trace;
          const auto p = static_cast<EventId>(parent_.lo - model_->slots()[r].eventBase);
          const Event& parent = t.events[p];
          const EventId laneEnd = t.lanes[parent.lane].endEvent;
          EventId end = p + 1;
          while (end < laneEnd && t.events[end].start <= parent.end()) ++end;
          spans_.push_back({r, p + 1, end});
        }
        startAt(0);
        return true;
      }
      case kWindow:
        startSpans(true);
        return true;
      case kNameBucket: {
        if (!name_) return false;
        const NameOrder* order = model_->nameOrder();
        if (!order) return false;
        byName_ = true;
        for (std::size_t r = 0; r < nameIds_.size(); ++r) {
          if (nameIds_[r] == StringTable::kMissing) continue;
          const std::uint32_t place = order->placeOf[r][nameIds_[r]];
          order_ = order;
          begin_ = pos_ = order->start[place];
          end_ = order->start[place + 1];
          break;
        }
        locate();
        return true;
      }
      case kNameOrder:
      case kNameOrderDesc: {
        const NameOrder* order = model_->nameOrder();
        if (!order) return false;
        byName_ = true;
        descending_ = mode == kNameOrderDesc;
        order_ = order;
        begin_ = pos_ = 0;
        end_ = order->slices.size();
        locate();
        return true;
      }
      case kFull:
        return false;
    }
    return false;
  }

  // One span per rank, or per lane where the time window or the track narrows the scan.
  void startSpans(bool byLane) {
    const auto& slots = model_->slots();
    for (std::size_t r = 0; r < slots.size(); ++r) {
      const RankSlot& slot = slots[r];
      if (!slot.trace || !rank_.contains(slot.run->rank)) continue;
      if (!nameIds_.empty() && nameIds_[r] == StringTable::kMissing) continue;
      if (!categoryIds_.empty() && categoryIds_[r] == StringTable::kMissing) continue;
      const Trace& t = *slot.trace;
      if (!byLane || (ts_.whole() && track_.whole())) {
        if (!t.events.empty()) spans_.push_back({r, 0, static_cast<EventId>(t.events.size())});
        continue;
      }
      for (LaneId l = 0; l < t.lanes.size(); ++l) {
        if (!track_.contains(slot.laneBase + l)) continue;
        const Lane& lane = t.lanes[l];
        const EventId begin = ts_.lo == INT64_MIN ? lane.firstEvent : t.lowerBound(l, ts_.lo);
        const EventId end = ts_.hi == INT64_MAX ? lane.endEvent : t.lowerBound(l, ts_.hi + 1);
        if (begin < end) spans_.push_back({r, begin, end});
      }
    }
    startAt(0);
  }

  void startAt(std::size_t span) {
    span_ = span;
    if (span_ >= spans_.size()) {
      done_ = true;
      return;
    }
    rank_at_ = spans_[span_].rank;
    event_ = spans_[span_].begin;
  }

  // The name order's current entry as (rank, event), or done.
  void locate() {
    if (pos_ >= end_) {
      done_ = true;
      return;
    }
    // Descending walks the same entries from the last: entry k is slices[end_ - 1 - k].
    const std::int64_t id = order_->slices[descending_ ? end_ - 1 - (pos_ - begin_) : pos_];
    rank_at_ = model_->rankOfSlice(id, rank_at_);
    event_ = static_cast<EventId>(id - model_->slots()[rank_at_].eventBase);
  }

  // The name order jumps through the events (each name's slices by id): the event a few rows
  // ahead is asked for now, so it is in the cache when its row comes.
  void prefetchAhead() const {
    constexpr std::size_t kAhead = 16;
    if (pos_ + kAhead >= end_) return;
    const std::size_t k = pos_ + kAhead;
    const std::int64_t id = order_->slices[descending_ ? end_ - 1 - (k - begin_) : k];
    const std::size_t r = model_->rankOfSlice(id, rank_at_);
    if (r == kNoRank) return;
    const RankSlot& slot = model_->slots()[r];
    __builtin_prefetch(&slot.trace->events[static_cast<std::size_t>(id - slot.eventBase)]);
  }

  void advance() {
    if (byName_) {
      ++pos_;
      locate();
      prefetchAhead();
      return;
    }
    if (++event_ >= spans_[span_].end) startAt(span_ + 1);
  }

  // Moves on to the first row from here that every constraint admits.
  void settle() {
    if (!checks_) return;
    while (!done_ && !admits()) advance();
  }

  bool admits() const {
    const RankSlot& slot = model_->slots()[rank_at_];
    const Event& e = slot.trace->events[event_];
    if (name_ && e.name != nameIds_[rank_at_]) return false;
    if (category_ && e.category != categoryIds_[rank_at_]) return false;
    return ts_.contains(e.start) && dur_.contains(e.dur) && depth_.contains(e.depth) &&
           id_.contains(slot.eventBase + event_) && track_.contains(slot.laneBase + e.lane) &&
           rank_.contains(slot.run->rank) &&
           (parent_.whole() ||
            (e.parent != kNoEvent && parent_.contains(slot.eventBase + e.parent)));
  }

  const RunModel* model_;
  IntRange id_, ts_, dur_, depth_, track_, parent_, rank_;
  std::optional<std::string_view> name_, category_;
  std::vector<StringId> nameIds_, categoryIds_;  // per rank; kMissing: none there
  bool checks_ = false;
  std::vector<Span> spans_;
  std::size_t span_ = 0;
  bool byName_ = false, descending_ = false;
  const NameOrder* order_ = nullptr;
  std::size_t begin_ = 0, pos_ = 0, end_ = 0;  // entries [begin_, end_) of order_->slices
  mutable StringId nameCacheId_ = StringTable::kMissing;
  mutable std::size_t nameCacheRank_ = kNoRank;
  mutable std::string_view nameCache_;
  std::size_t rank_at_ = 0;
  EventId event_ = 0;
  bool done_ = false;
};

class SliceTable final : public Table {
 public:
  explicit SliceTable(const RunModel& model) : model_(model) {}
  std::string_view name() const override { return "slice"; }
  std::string declaration() const override {
    return "CREATE TABLE x(id INTEGER, ts INTEGER, dur INTEGER, category TEXT, name TEXT, "
           "track_id INTEGER, depth INTEGER, parent_id INTEGER, arg_set_id INTEGER, rank INTEGER, "
           "kind TEXT, correlation INTEGER, external_id INTEGER, thread_ts INTEGER, "
           "thread_dur INTEGER)";
  }

  ScanPlan plan(const PlanRequest& request) const override {
    ScanPlan plan;
    bool single = false, children = false, window = false, named = false, bothEnds = false;
    bool tsLow = false, tsHigh = false;
    for (std::size_t i = 0; i < request.offered.size(); ++i) {
      const Offered& o = request.offered[i];
      const bool eq = o.op == Compare::Eq;
      bool use = true;
      switch (o.column) {
        case kId:
        case kArgSetId:
          single = single || eq;
          break;
        case kParentId:
          children = children || eq;
          break;
        case kTs:
          tsLow = tsLow || eq || o.op == Compare::Gt || o.op == Compare::Ge;
          tsHigh = tsHigh || eq || o.op == Compare::Lt || o.op == Compare::Le;
          window = true;
          break;
        case kTrackId:
          window = window || eq;
          bothEnds = bothEnds || eq;
          break;
        case kName:
          use = eq && o.binaryCollation;
          named = named || use;
          break;
        case kCategory:
          use = eq && o.binaryCollation;
          break;
        case kDur:
        case kDepth:
        case kRank:
          break;
        default:
          use = false;
      }
      if (use) plan.use.push_back(static_cast<int>(i));
    }
    bothEnds = bothEnds || (tsLow && tsHigh);
    const auto all = static_cast<double>(std::max<std::int64_t>(model_.sliceCount(), 1));
    if (single) {
      plan.mode = kSingle;
      plan.cost = 1;
      plan.rows = 1;
    } else if (children) {
      plan.mode = kChildren;
      plan.cost = 20;
      plan.rows = 10;
    } else if (window) {
      plan.mode = kWindow;
      plan.cost = bothEnds ? std::max(10.0, all / 1000) : all / 4;
      plan.rows = static_cast<std::int64_t>(plan.cost);
    } else if (named && model_.sliceCount() < UINT32_MAX) {
      plan.mode = kNameBucket;
      plan.cost = std::max(10.0, all / 100);
      plan.rows = static_cast<std::int64_t>(plan.cost);
    } else {
      plan.mode = kFull;
      plan.cost = all;
      plan.rows = model_.sliceCount();
    }
    // Rows come by id in every source but the name order; by name in the name order.
    if (request.orderBy.size() == 1) {
      const OrderTerm& term = request.orderBy[0];
      if (term.column == kId && !term.descending && plan.mode != kNameOrder) {
        plan.ordered = true;
      } else if (term.column == kName && plan.mode == kNameBucket) {
        plan.ordered = true;
      } else if (term.column == kName && plan.mode == kFull && model_.sliceCount() < UINT32_MAX) {
        plan.mode = term.descending ? kNameOrderDesc : kNameOrder;
        plan.ordered = true;
      }
    }
    return plan;
  }

  std::unique_ptr<Cursor> open() const override { return std::make_unique<SliceCursor>(model_); }

 private:
  const RunModel& model_;
};

}  // namespace

std::unique_ptr<Table> makeSliceTable(const RunModel& model) {
  return std::make_unique<SliceTable>(model);
}

}  // namespace sutra::sql
