// SPDX-License-Identifier: MIT
#include "io/kineto_batch_merger.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <optional>
#include <thread>

#include "io/block_checksum.h"
#include "io/kineto_metadata.h"

namespace sutra {

KinetoBatchMerger::KinetoBatchMerger(const std::string& path, std::string spillFolder,
                                     KinetoReadOptions::InPlaceColumns* inPlace)
    : builder_(path), spillFolder_(std::move(spillFolder)), inPlace_(inPlace) {
  if (spillFolder_.empty()) return;
  if (inPlace_)  // the store may outlive this merger: the checksum is shared with it
    builder_.trace().args = ArgsStore::spilling(
        spillFolder_, inPlace_->text,
        [checksum = textChecksum_](std::string_view text) { checksum->add(text); });
  else
    builder_.trace().args = ArgsStore::spilling(spillFolder_);
  builder_.spillFlowEndsTo(spillFolder_);
}

MappedArray<Event>& KinetoBatchMerger::laneEvents(LaneId lane) {
  while (laneEvents_.size() <= lane)
    laneEvents_.push_back(std::make_unique<MappedArray<Event>>(
        !spillFolder_.empty() && laneEvents_.size() < kSpilledLanes
            ? MappedArray<Event>::fileBacked(spillFolder_)
            : MappedArray<Event>()));
  return *laneEvents_[lane];
}

void KinetoBatchMerger::merge(KinetoBatch&& b) {
  Trace& t = builder_.trace();
  std::vector<StringId> names(b.names.size());
  for (StringId i = 0; i < names.size(); ++i) names[i] = t.names.intern(b.names.view(i));
  std::vector<std::uint16_t> cats(b.categories.size());
  for (StringId i = 0; i < cats.size(); ++i) {
    const StringId id = t.categories.intern(b.categories.view(i));
    if (id >= classOfCategory_.size()) classOfCategory_.resize(id + 1, CategoryClass::Other);
    classOfCategory_[id] = classifyCategory(b.categories.view(i));
    cats[i] = static_cast<std::uint16_t>(id);
  }
  std::vector<LaneId> lanes(b.lanes.size());
  for (std::size_t i = 0; i < lanes.size(); ++i)
    lanes[i] = builder_.lane(b.lanes[i].pid, b.lanes[i].tid);
  const std::uint32_t argsBase = t.args.adopt(std::move(b.args));
  auto remap = [&](Event& e) {
    e.name = names[e.name];
    e.category = cats[e.category];
    e.klass = classOfCategory_[e.category];
    e.lane = lanes[e.lane];
    if (e.args != kNoArgs) e.args += argsBase;
  };
  // Streaming: a lane's events of the batch are gathered and written to its file at once.
  const bool gather = !spillFolder_.empty();
  const auto put = [&](const Event& e) {
    if (!gather) return laneEvents(e.lane).push_back(e);
    if (gathered_.size() <= e.lane) gathered_.resize(e.lane + 1);
    gathered_[e.lane].push_back(e);
  };
  for (Event& e : b.events) {
    remap(e);
    put(e);
  }
  for (auto& [ph, e] : b.beginEnds) {
    remap(e);
    auto& open = openBegins_[e.lane];
    if (ph == 'B') {
      open.push_back(e);
    } else if (open.empty()) {
      t.problems.add(Severity::Warning, "'E' event without a matching 'B'",
                     std::string(t.names.view(e.name)));
    } else {
      Event begun = open.back();
      open.pop_back();
      begun.dur = std::max<TimeNs>(0, e.start - begun.start);
      put(begun);
    }
  }
  for (FlowEnd& f : b.flowEnds) {
    f.category = cats[f.category];
    f.lane = lanes[f.lane];
  }
  builder_.addFlowEnds(b.flowEnds.data(), b.flowEnds.size());
  for (Instant i : b.instants) {
    i.name = names[i.name];
    i.lane = lanes[i.lane];
    if (i.args != kNoArgs) i.args += argsBase;
    t.instants.push_back(i);
  }
  for (const auto& c : b.counters) builder_.addCounterSample(c.pid, c.series, c.time, c.value);
  for (const auto& m : b.metadata) {
    if (m.kind == "process_name")
      builder_.setProcessName(m.pid, m.name);
    else if (m.kind == "thread_name")
      builder_.setThreadName(m.pid, m.tid, m.name);
    else if (m.kind == "process_sort_index" && m.hasSortIndex)
      builder_.setProcessSortIndex(m.pid, m.sortIndex);
    else if (m.kind == "thread_sort_index" && m.hasSortIndex)
      builder_.setThreadSortIndex(m.pid, m.tid, m.sortIndex);
  }
  t.problems.merge(b.problems);
  for (LaneId lane = 0; lane < gathered_.size(); ++lane) {
    if (gathered_[lane].empty()) continue;
    laneEvents(lane).appendInBulk(gathered_[lane].data(), gathered_[lane].size());
    gathered_[lane].clear();
  }
}

Trace KinetoBatchMerger::finish() {
  std::vector<std::size_t> eventsPerLane;
  std::size_t total = 0;
  for (const auto& lane : laneEvents_) total += eventsPerLane.emplace_back(lane->size());
  auto& events = builder_.trace().events;
  // Streaming: the lanes are moved into one file of the exact size and finished there.
  std::shared_ptr<MappedArray<Event>> inFile;
  if (!spillFolder_.empty()) {
    if (inPlace_) {  // after the args text, which is complete, at the next page boundary
      const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
      inPlace_->textBytes = builder_.trace().args.bytes();
      inPlace_->eventsOffset =
          (inPlace_->text.offset + inPlace_->textBytes + page - 1) / page * page;
    }
    inFile = std::make_shared<MappedArray<Event>>(
        inPlace_ ? MappedArray<Event>::inFile({inPlace_->text.fd, inPlace_->eventsOffset})
                 : MappedArray<Event>::fileBacked(spillFolder_));
    // Mapped whole now, so that data() stays put; each lane is then written into the file (never
    // through the mapping: mapped_array.h says why) and is in place before it is finished.
    inFile->mapAhead(std::max<std::size_t>(total, 1));
    events = Column<Event>::inPlace(inFile, inFile->data(), total, total);
  }
  builder_.placeLanes(eventsPerLane);
  const auto laneCount = static_cast<LaneId>(builder_.trace().lanes.size());
  // The copy into the model is one thread's work, lane after lane. On a large trace a helper sorts
  // the flow ends meanwhile, then sorts and nests each lane as soon as it is in place, and this
  // thread joins in once the copy is done. (A small trace's take less than starting a thread.)
  std::atomic<LaneId> copied{0}, nextToFinish{0};
  // Streaming, a lane sorted and nested is done: in place, it goes into the events' checksum, in
  // lane order (whichever thread finished it), while its pages are still mapped; then they are
  // written back, read again when used.
  std::mutex doneMutex;
  std::vector<char> done(laneCount, 0);
  LaneId settled = 0;  // lanes before it are checksummed and dropped
  bool settling = false;
  BlockChecksum eventsChecksum;
  const auto laneDone = [&](LaneId l) {
    std::unique_lock lock(doneMutex);
    done[l] = 1;
    if (settling) return;  // the thread settling now takes this lane too
    settling = true;
    while (settled < laneCount && done[settled]) {
      const Lane& lane = builder_.trace().lanes[settled];
      lock.unlock();
      if (inPlace_)
        eventsChecksum.add({reinterpret_cast<const char*>(events.data() + lane.firstEvent),
                            (lane.endEvent - lane.firstEvent) * sizeof(Event)});
      inFile->dropResident(lane.firstEvent, lane.endEvent);
      lock.lock();
      ++settled;
    }
    settling = false;
  };
  auto finishLanes = [&] {
    for (LaneId l = nextToFinish++; l < laneCount; l = nextToFinish++) {
      for (LaneId c = copied.load(std::memory_order_acquire); c <= l;
           c = copied.load(std::memory_order_acquire))
        copied.wait(c, std::memory_order_acquire);
      const Lane& lane = builder_.trace().lanes[l];
      if (inFile) inFile->prefault(lane.firstEvent, lane.endEvent);  // the sort writes every page
      builder_.finishLane(l);
      if (inFile) laneDone(l);
    }
  };
  std::thread helper;
  if (total >= TraceBuilder::kParallelFrom)
    helper = std::thread([&] {
      builder_.sortFlowEnds();
      finishLanes();
    });
  for (LaneId l = 0; l < laneCount; ++l) {
    if (l < laneEvents_.size()) {
      if (inFile)
        inFile->appendMovedFrom(*laneEvents_[l]);
      else
        laneEvents_[l]->drainInto(events);
    }
    copied.store(l + 1, std::memory_order_release);
    copied.notify_all();
  }
  finishLanes();
  if (helper.joinable()) helper.join();
  for (auto& [lane, open] : openBegins_)
    if (!open.empty())
      builder_.trace().problems.add(Severity::Warning, "'B' event without a matching 'E'",
                                    open.size(),
                                    std::string(builder_.trace().names.view(open.front().name)));
  Trace trace = builder_.finish();
  if (inPlace_) {
    // Never otherwise: the events grew past their region into memory, and are written out.
    const bool stayed = trace.events.isExternal() && trace.events.data() == inFile->data();
    inPlace_->eventBytes = stayed ? trace.events.size() * sizeof(Event) : 0;
    inPlace_->eventsChecksum = stayed ? eventsChecksum.value() : 0;
    if (!stayed) inPlace_->eventsOffset = 0;
    inPlace_->textChecksum = textChecksum_->value();
  }
  applyKinetoMembers(members_, trace);
  return trace;
}

}  // namespace sutra
