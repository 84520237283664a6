// SPDX-License-Identifier: MIT
#include "view/timeline_geometry.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <random>
#include <thread>

#include "model/trace_builder.h"
#include "test_support.h"
#include "util/mapped_file.h"
#include "util/page_residency.h"

namespace sutra::view {
namespace {

// A trace with one host lane holding the given (start, dur) events, all at depth 0.
Trace rowTrace(const std::vector<std::pair<TimeNs, TimeNs>>& spans) {
  TraceBuilder b("mem");
  const LaneId lane = b.lane("1", "1");
  const auto cat = static_cast<std::uint16_t>(b.trace().categories.intern("cpu_op"));
  const StringId name = b.trace().names.intern("op");
  for (auto [start, dur] : spans) {
    Event e;
    e.lane = lane;
    e.name = name;
    e.category = cat;
    e.klass = CategoryClass::CpuOp;
    e.start = start;
    e.dur = dur;
    b.addEvent(e);
  }
  return b.finish();
}

// Boxes must cover the row's visible events exactly once, in order, without overlapping.
void expectPartition(const Trace& trace, const LayoutRow& row, const TimeRange& range,
                     const std::vector<TimelineBox>& boxes) {
  std::size_t expectedFirst = row.firstEndingAtOrAfter(range.start);
  for (const auto& box : boxes) {
    ASSERT_EQ(box.first, expectedFirst);
    ASSERT_GE(box.count, 1u);
    ASSERT_LE(box.x0, box.x1);
    expectedFirst = box.first + box.count;
  }
  // Everything after the last box starts after the window.
  for (std::size_t i = expectedFirst; i < row.events.size(); ++i)
    ASSERT_GT(trace.events[row.events[i]].start, range.end - 1) << i;
  for (std::size_t b = 1; b < boxes.size(); ++b) ASSERT_LE(boxes[b - 1].x1, boxes[b].x0 + 1.0f);
}

TEST(TimelineGeometry, MergesSubPixelEventsIntoOneRunThatKeepsTheirCount) {
  std::vector<std::pair<TimeNs, TimeNs>> spans;
  for (int i = 0; i < 1000; ++i) spans.emplace_back(i * 10, 1);  // 1 ns events every 10 ns
  const Trace trace = rowTrace(spans);
  const LaneLayout layout = LaneLayout::build(trace, "");
  std::vector<TimelineBox> boxes;
  buildRowBoxes(trace, layout.rows()[0], 0, {0, 10'000}, 100, boxes);  // 100 ns per pixel
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_EQ(boxes[0].count, 1000u);
  EXPECT_FLOAT_EQ(boxes[0].x0, 0.0f);
  EXPECT_NEAR(boxes[0].x1, 99.91f, 0.01f);  // the last event ends at 9991 ns
}

TEST(TimelineGeometry, DrawsWideEventsOneByOneAndSplitsRunsAroundThem) {
  const Trace trace = rowTrace({{0, 1}, {5, 1}, {10, 500}, {600, 1}, {606, 1}, {2000, 1}});
  const LaneLayout layout = LaneLayout::build(trace, "");
  std::vector<TimelineBox> boxes;
  buildRowBoxes(trace, layout.rows()[0], 0, {0, 2000}, 200, boxes);  // 10 ns per pixel
  ASSERT_EQ(boxes.size(), 4u);
  EXPECT_EQ(boxes[0].count, 2u);  // 0 and 5: within a pixel of each other
  EXPECT_EQ(boxes[1].count, 1u);  // the 500 ns event: 50 px
  EXPECT_FLOAT_EQ(boxes[1].x0, 1.0f);
  EXPECT_FLOAT_EQ(boxes[1].x1, 51.0f);
  EXPECT_EQ(boxes[2].count, 2u);  // 600 and 606
  EXPECT_EQ(boxes[3].count, 1u);  // 2000: alone, at the window's edge
  expectPartition(trace, layout.rows()[0], {0, 2000}, boxes);
}

TEST(TimelineGeometry, SkipsEventsOutsideTheWindowAndClipsTheOnesAcrossItsEdges) {
  const Trace trace = rowTrace({{0, 100}, {200, 1000}, {5000, 100}});
  const LaneLayout layout = LaneLayout::build(trace, "");
  std::vector<TimelineBox> boxes;
  buildRowBoxes(trace, layout.rows()[0], 0, {300, 400}, 1000, boxes);
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_EQ(boxes[0].first, 1u);
  EXPECT_FLOAT_EQ(boxes[0].x0, -2.0f);  // clipped just outside the view
  EXPECT_FLOAT_EQ(boxes[0].x1, 1002.0f);
  boxes.clear();
  buildRowBoxes(trace, layout.rows()[0], 0, {2000, 3000}, 1000, boxes);
  EXPECT_TRUE(boxes.empty());
  buildRowBoxes(trace, layout.rows()[0], 0, {2000, 2000}, 1000, boxes);  // degenerate window
  buildRowBoxes(trace, layout.rows()[0], 0, {0, 6000}, 0, boxes);        // zero width
  EXPECT_TRUE(boxes.empty());
}

TEST(TimelineGeometry, PartitionsRandomRowsAtEveryZoom) {
  std::mt19937_64 random(11);
  std::vector<std::pair<TimeNs, TimeNs>> spans;
  TimeNs t = 1'700'000'000'000'000'000;
  for (int i = 0; i < 5000; ++i) {
    const TimeNs dur = (random() % 10 == 0) ? static_cast<TimeNs>(random() % 100'000)
                                            : static_cast<TimeNs>(random() % 50);
    spans.emplace_back(t, dur);
    t += dur + static_cast<TimeNs>(random() % 300);
  }
  const Trace trace = rowTrace(spans);
  const LaneLayout layout = LaneLayout::build(trace, "");
  const LayoutRow& row = layout.rows()[0];
  ASSERT_EQ(layout.rows().size(), 1u);
  const TimeNs begin = trace.startNs, span = trace.endNs - trace.startNs;
  for (TimeNs window = span; window >= 10; window /= 7) {
    for (TimeNs offset : {TimeNs{0}, span / 3, span - window}) {
      const TimeRange range{begin + offset, begin + offset + window};
      std::vector<TimelineBox> boxes;
      buildRowBoxes(trace, row, 0, range, 1200, boxes);
      expectPartition(trace, row, range, boxes);
      EXPECT_LE(boxes.size(), 1210u);  // never more boxes than pixels (plus the edges)
    }
  }
}

// A row of more than kLodFromEvents events is drawn zoomed out from its level of detail: the
// boxes still cover its visible events once each, in order, as many as the event walk gives to
// within the level's resolution, and each single box carries its event and name.
TEST(TimelineGeometry, AZoomedOutFrameOfABigRowComesFromItsLevelOfDetail) {
  std::mt19937_64 random(5);
  std::vector<std::pair<TimeNs, TimeNs>> spans;
  TimeNs t = 1'000'000;
  for (std::size_t i = 0; i < kLodFromEvents + 5000; ++i) {
    const TimeNs dur = (random() % 500 == 0) ? static_cast<TimeNs>(random() % 20'000'000)
                                             : static_cast<TimeNs>(random() % 2'000);
    spans.emplace_back(t, dur);
    t += dur + static_cast<TimeNs>(random() % 3'000);
  }
  const Trace trace = rowTrace(spans);
  const LaneLayout layout = LaneLayout::build(trace, "");
  const LayoutRow& row = layout.rows()[0];
  ASSERT_FALSE(row.lod.empty());
  ASSERT_GT(row.lodNsPerPx, 0);
  LayoutRow exact;  // the same row without a level of detail: the event walk
  exact.events = row.events;
  exact.maxEnd = row.maxEnd;
  const TimeNs begin = trace.startNs, span = trace.endNs - trace.startNs;
  int fromLod = 0;
  for (TimeNs window = span; window >= 1000; window /= 5) {
    for (TimeNs offset : {TimeNs{0}, span / 3, span - window}) {
      const TimeRange range{begin + offset, begin + offset + window};
      std::vector<TimelineBox> boxes, walked;
      buildRowBoxes(trace, row, 0, range, 1200, boxes);
      buildRowBoxes(trace, exact, 0, range, 1200, walked);
      if (static_cast<double>(window) / 1200 < row.lodNsPerPx) continue;  // the event walk
      ++fromLod;
      ASSERT_FALSE(boxes.empty());
      // Contiguous, in order, every box's events within the window's reach.
      for (std::size_t b = 1; b < boxes.size(); ++b)
        ASSERT_EQ(boxes[b].first, boxes[b - 1].first + boxes[b - 1].count);
      ASSERT_LE(boxes.front().first, row.firstEndingAtOrAfter(range.start));
      const std::size_t last = boxes.back().first + boxes.back().count;
      for (std::size_t i = last; i < row.events.size(); ++i)
        ASSERT_GT(trace.events[row.events[i]].start, range.end - 1) << i;
      for (const TimelineBox& box : boxes)
        if (box.count == 1) {
          ASSERT_EQ(box.event, row.events[box.first]);
          ASSERT_EQ(box.name, trace.events[box.event].name);
        }
      EXPECT_LE(boxes.size(), 1210u);
      EXPECT_NEAR(static_cast<double>(boxes.size()), static_cast<double>(walked.size()),
                  0.1 * static_cast<double>(walked.size()) + 3);
    }
  }
  EXPECT_GE(fromLod, 3);
}

namespace {

// `trace` with its events moved into a file of `folder` and mapped back from it, as a trace opened
// from its cache is; `evict` then drops their pages from memory, as the kernel does under
// pressure (unmapped from this process, then out of the page cache).
struct EventsOnDisk {
  std::string path;
  std::shared_ptr<const MappedFile> file;

  EventsOnDisk(Trace& trace, const std::string& folder) : path(folder + "/events.bin") {
    {
      std::ofstream out(path, std::ios::binary);
      out.write(reinterpret_cast<const char*>(trace.events.data()),
                static_cast<std::streamsize>(trace.events.size() * sizeof(Event)));
    }
    file = MappedFile::open(path).value();
    trace.events = Column<Event>::mapped(file, reinterpret_cast<const Event*>(file->data()),
                                         file->size() / sizeof(Event));
  }
  void evict() const {
    unmapFilePages(file->data(), file->size());
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    ::fdatasync(fd);
    ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    ::close(fd);
  }
};

}  // namespace

// A trace that lies on disk: every row gets its blocks, and a frame never waits for the disk. A
// zoomed-in frame whose events' pages were dropped draws the row's blocks (runs covering the
// visible events once each, in order) and asks for the pages; once they are in, the same frame
// is exact, box for box as one that read them at once.
TEST(TimelineGeometry, AFrameOfARowOnDiskDrawsItsBlocksWhileItsPagesAreReadIn) {
  std::mt19937_64 random(9);
  std::vector<std::pair<TimeNs, TimeNs>> spans;
  TimeNs t = 1'000'000;
  for (int i = 0; i < 200'000; ++i) {
    const TimeNs dur = static_cast<TimeNs>(random() % 2'000);
    spans.emplace_back(t, dur);
    t += dur + static_cast<TimeNs>(random() % 3'000);
  }
  Trace mappedTrace = rowTrace(spans);
  test::TempDir dir;
  const EventsOnDisk onDisk(mappedTrace, dir.path());
  const Trace& trace = mappedTrace;  // read only: a change would copy the mapped events
  ASSERT_TRUE(trace.events.isMapped());
  const LaneLayout layout = LaneLayout::build(trace, "");
  const LayoutRow& row = layout.rows()[0];
  // Blocks partition the row, at most kRowBlockEvents each, with no gap inside wider than their
  // resolution.
  ASSERT_GE(row.blocks.size(), (spans.size() + kRowBlockEvents - 1) / kRowBlockEvents);
  ASSERT_GT(row.blockNsPerPx, 0);
  std::size_t next = 0;
  for (const LodItem& block : row.blocks) {
    ASSERT_EQ(block.first, next);
    ASSERT_GE(block.count, 1u);
    ASSERT_LE(block.count, kRowBlockEvents);
    ASSERT_EQ(block.start, trace.events[row.events[block.first]].start);
    ASSERT_EQ(block.end, row.maxEnd[block.first + block.count - 1]);
    for (std::size_t k = block.first + 1; k < block.first + block.count; ++k)
      ASSERT_LE(static_cast<double>(trace.events[row.events[k]].start - row.maxEnd[k - 1]),
                row.blockNsPerPx);
    next += block.count;
  }
  ASSERT_EQ(next, row.events.size());
  const TimeNs begin = trace.startNs, span = trace.endNs - trace.startNs;
  const TimeRange range{begin + span / 2, begin + span / 2 + span / 500};  // ~400 events
  GeometryOptions waiting;
  waiting.waitForDisk = true;
  std::vector<TimelineBox> exact;
  ASSERT_EQ(buildRowBoxes(trace, row, 0, range, 1200, exact, waiting), RowDetail::Exact);
  expectPartition(trace, row, range, exact);

  onDisk.evict();
  ASSERT_FALSE(pagesInMemory(trace.events.data(), trace.events.size() * sizeof(Event)))
      << "the test's folder keeps its pages in memory (tmpfs?): " << dir.path();
  std::vector<TimelineBox> coarse;
  ASSERT_EQ(buildRowBoxes(trace, row, 0, range, 1200, coarse), RowDetail::Pending);
  ASSERT_FALSE(coarse.empty());
  for (std::size_t b = 1; b < coarse.size(); ++b)
    ASSERT_EQ(coarse[b].first, coarse[b - 1].first + coarse[b - 1].count);
  EXPECT_LE(coarse.front().first, exact.front().first);
  EXPECT_GE(coarse.back().first + coarse.back().count, exact.back().first + exact.back().count);

  // The kernel reads them in the background: a later frame is exact.
  std::vector<TimelineBox> later;
  RowDetail detail = RowDetail::Pending;
  for (int attempt = 0; attempt < 500 && detail == RowDetail::Pending; ++attempt) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    later.clear();
    detail = buildRowBoxes(trace, row, 0, range, 1200, later);
  }
  ASSERT_EQ(detail, RowDetail::Exact) << "the pages were not read in within 5 s";
  ASSERT_EQ(later.size(), exact.size());
  for (std::size_t b = 0; b < exact.size(); ++b) {
    EXPECT_EQ(later[b].first, exact[b].first);
    EXPECT_EQ(later[b].count, exact[b].count);
    EXPECT_EQ(later[b].x0, exact[b].x0);
    EXPECT_EQ(later[b].x1, exact[b].x1);
  }
}

// A row on disk too small for a level of detail, zoomed out to its blocks' resolution: drawn from
// them, covering every event once, in order, without reading a page of the events; a gap a pixel
// wide or more stays a gap.
TEST(TimelineGeometry, AFrameOfManyEventsAPixelOfARowOnDiskComesFromItsBlocks) {
  std::vector<std::pair<TimeNs, TimeNs>> spans;
  TimeNs t = 1'000;
  for (TimeNs i = 0; i < 50'000; ++i) {
    spans.emplace_back(t, 50 + i % 40);
    t += i % 1000 == 999 ? 500'000 : 100;  // every thousandth event, a gap of several pixels
  }
  Trace mappedTrace = rowTrace(spans);
  test::TempDir dir;
  const EventsOnDisk onDisk(mappedTrace, dir.path());
  const Trace& trace = mappedTrace;
  const LaneLayout layout = LaneLayout::build(trace, "");
  const LayoutRow& row = layout.rows()[0];
  ASSERT_TRUE(row.lod.empty());
  ASSERT_FALSE(row.blocks.empty());
  onDisk.evict();
  std::vector<TimelineBox> boxes;
  ASSERT_EQ(buildRowBoxes(trace, row, 0, {trace.startNs, trace.endNs}, 1200, boxes),
            RowDetail::Exact);
  ASSERT_FALSE(boxes.empty());
  EXPECT_EQ(boxes.front().first, 0u);
  EXPECT_EQ(boxes.back().first + boxes.back().count, row.events.size());
  for (std::size_t b = 1; b < boxes.size(); ++b)
    ASSERT_EQ(boxes[b].first, boxes[b - 1].first + boxes[b - 1].count);
  EXPECT_LE(boxes.size(), 1210u);
  EXPECT_GE(boxes.size(), 50u);  // the 49 gaps are kept
  EXPECT_FALSE(pagesInMemory(trace.events.data(), trace.events.size() * sizeof(Event)));
}

// Residency as mincore reports it: pages of a fresh anonymous mapping are not in memory until
// written; a range that is not mapped counts as held (nothing to wait for).
TEST(PageResidency, SaysWhichPagesAreInMemory) {
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  void* raw = ::mmap(nullptr, 4 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(raw, MAP_FAILED);
  auto* bytes = static_cast<char*>(raw);
  EXPECT_FALSE(pagesInMemory(bytes, 4 * page));
  bytes[page] = 1;
  EXPECT_TRUE(pagesInMemory(bytes + page + 10, 100));
  EXPECT_FALSE(pagesInMemory(bytes, 10));
  EXPECT_FALSE(pagesInMemory(bytes + page, page + 1));  // runs into the next page
  ::munmap(raw, 4 * page);
  EXPECT_TRUE(pagesInMemory(bytes, page));  // unmapped now: mincore cannot tell
}

}  // namespace
}  // namespace sutra::view
