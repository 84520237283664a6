// SPDX-License-Identifier: MIT
// sutra-bench-timeline: paints the lane timeline into an image at a range of zoom levels, from the
// whole trace down to a microsecond, and prints how long each frame took (geometry rebuilt, as
// when zooming or panning):
//   {"events":N,"frames":[{"visible_ns":..,"ms":..},...],"max_ms":X}
// "cpu_ms" is the same frame in CPU time of the painting thread (robust on a loaded machine).
// With --all-ranks the traces are the ranks of one run, stacked in one view as the window's
// all-ranks view shows them (--ranks R repeats the synthetic trace R times); "parts" says how many.
// With --cache a TRACE is opened through the trace cache, as the window opens it (mapped from the
// cache where there is one); "open_s", "first_frame_s" (from the start of the open) and the
// resident memory are printed too. A frame of a trace on disk never waits for its pages: rows whose
// pages are not in memory are drawn from their blocks and the frame is drawn again until none is
// pending; each such frame counts as a frame, and "detail_ms" is how long the exact frame took to
// arrive ("max_detail_ms" the longest).
// Usage: sutra-bench-timeline [--synthetic N] [--ranks R] [--all-ranks] [--width W] [--height H]
// [--cache] [TRACE...]
#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QThread>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "io/readers.h"
#include "io/trace_cache.h"
#include "synthetic_trace.h"
#include "timeline_view.h"
#include "view/lane_layout.h"

namespace {

// CPU time of this thread: on a shared, loaded machine wall time also counts waiting for a core.
double threadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

// This process's resident memory now and at its peak (VmRSS, VmHWM), mapped pages included.
double statusMb(const char* field) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind(field, 0) == 0) return std::atof(line.c_str() + std::strlen(field)) / 1024.0;
  return 0;
}
double residentMb() { return statusMb("VmRSS:"); }
double peakResidentMb() { return statusMb("VmHWM:"); }

int usage() {
  std::fprintf(stderr,
               "usage: sutra-bench-timeline [--synthetic EVENTS] [--ranks R] [--all-ranks] "
               "[--width W] [--height H] [--cache] "
               "[TRACE...]\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (!std::getenv("QT_QPA_PLATFORM")) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  std::vector<std::string> paths;
  std::uint64_t synthetic = 0;
  bool cache = false;
  int width = 1600, height = 1000;
  int ranks = 1;
  bool allRanks = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    if (arg == "--synthetic") {
      const char* v = value();
      if (!v) return usage();
      synthetic = std::strtoull(v, nullptr, 10);
    } else if (arg == "--ranks") {
      const char* v = value();
      if (!v || std::atoi(v) < 1) return usage();
      ranks = std::atoi(v);
    } else if (arg == "--cache") {
      cache = true;
    } else if (arg == "--all-ranks") {
      allRanks = true;
    } else if (arg == "--width") {
      const char* v = value();
      if (!v) return usage();
      width = std::atoi(v);
    } else if (arg == "--height") {
      const char* v = value();
      if (!v) return usage();
      height = std::atoi(v);
    } else if (arg == "--help" || arg == "-h") {
      usage();
      return 0;
    } else if (!arg.empty() && arg[0] == '-') {
      return usage();
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.empty() && synthetic == 0) return usage();
  QApplication app(argc, argv);

  std::vector<std::shared_ptr<const sutra::Trace>> traces;
  if (synthetic > 0) {
    auto trace =
        std::make_shared<const sutra::Trace>(sutra::test::makeSyntheticTrace({synthetic, 4, 4}));
    for (int r = 0; r < ranks; ++r) traces.push_back(trace);
  }
  const auto openStart = std::chrono::steady_clock::now();
  for (const auto& path : paths) {
    // --cache: through the trace cache, as the window opens a big file (mapped where cached).
    sutra::TraceCacheOptions cacheOptions = sutra::TraceCacheOptions::fromEnvironment();
    cacheOptions.enabled = cache;
    auto trace =
        sutra::readKinetoTraceCached(path, sutra::KinetoReadOptions{}, {}, cacheOptions).trace;
    if (!trace) {
      std::fprintf(stderr, "%s\n", trace.error().message.c_str());
      return 2;
    }
    traces.push_back(std::make_shared<const sutra::Trace>(std::move(trace).value()));
  }
  const double openSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - openStart).count();

  nlohmann::json out;
  std::uint64_t events = 0;
  double maxMs = 0, maxCpuMs = 0, maxDetailMs = 0;
  std::size_t pendingFrames = 0;
  nlohmann::json frames = nlohmann::json::array();
  // One view per trace, or one view of all of them as ranks.
  std::vector<std::vector<sutra::widgets::TimelinePart>> views;
  const auto layoutStart = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < traces.size(); ++i) {
    const std::string label = "rank" + std::to_string(allRanks ? i : 0);
    auto layout = std::make_shared<const sutra::widgets::LaneLayout>(
        sutra::widgets::LaneLayout::build(*traces[i], label));
    if (!allRanks || views.empty()) views.emplace_back();
    views.back().push_back({traces[i], layout, QString::fromStdString(label), 0});
    events += traces[i]->events.size();
  }
  const double layoutSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - layoutStart).count();
  double firstFrameSeconds = -1;
  for (auto& parts : views) {
    sutra::widgets::TimelineView view;
    view.resize(width, height);
    view.setParts(std::move(parts));
    QImage image(view.size(), QImage::Format_ARGB32_Premultiplied);
    const sutra::widgets::TimeRange all = view.boundsRange();
    const sutra::TimeNs centre = all.start + all.span() / 2;
    // Whole trace, then each tenth narrower, down to 1 us; then the same windows panned by half a
    // screen, since panning rebuilds the geometry as zooming does.
    std::vector<sutra::widgets::TimeRange> windows;
    for (sutra::TimeNs span = all.span(); span >= 1000; span /= 10)
      windows.push_back({centre - span / 2, centre - span / 2 + span});
    const std::size_t zooms = windows.size();
    for (std::size_t i = 0; i < zooms; ++i) {
      const auto w = windows[i];
      windows.push_back({w.start + w.span() / 2, w.end + w.span() / 2});
    }
    {  // warm up fonts and caches once, so the first frame measures the timeline, not Qt's start
      QPainter painter(&image);
      view.render(&painter);
    }
    if (firstFrameSeconds < 0)  // from the start of the open: what a user waits for
      firstFrameSeconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - openStart).count();
    auto frame = [&] {  // one frame: wall and CPU milliseconds
      const auto begin = std::chrono::steady_clock::now();
      const double cpuBegin = threadCpuMs();
      QPainter painter(&image);
      view.render(&painter);
      painter.end();
      const double ms =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin)
              .count();
      const double cpuMs = threadCpuMs() - cpuBegin;
      maxMs = std::max(maxMs, ms);
      maxCpuMs = std::max(maxCpuMs, cpuMs);
      return std::pair{ms, cpuMs};
    };
    for (const auto& window : windows) {
      view.setVisibleRange(window);
      const auto begin = std::chrono::steady_clock::now();
      const auto [ms, cpuMs] = frame();
      const auto stats = view.lastFrameStats();
      // Rows waiting on the disk: the view draws the frame again on its timer, as the window does.
      std::size_t redraws = 0;
      double worstRedrawMs = 0;
      // (at most a minute: a disk that never delivers is reported, not waited on for ever)
      while (view.lastFrameStats().pendingRows > 0 && redraws < 4000) {
        QThread::msleep(sutra::widgets::TimelineView::kDetailRetryMs);
        QApplication::processEvents();
        worstRedrawMs = std::max(worstRedrawMs, frame().first);
        ++redraws;
      }
      const double detailMs =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin)
              .count();
      pendingFrames += stats.pendingRows > 0 ? 1 : 0;
      maxDetailMs = std::max(maxDetailMs, detailMs);
      nlohmann::json entry = {{"visible_ns", view.visibleRange().span()},
                              {"ms", std::round(ms * 1000) / 1000},
                              {"cpu_ms", std::round(cpuMs * 1000) / 1000},
                              {"boxes", stats.boxes},
                              {"runs", stats.runs},
                              {"labels", stats.labels}};
      if (stats.pendingRows > 0) {
        entry["pending_rows"] = stats.pendingRows;
        entry["redraws"] = redraws;
        entry["worst_redraw_ms"] = std::round(worstRedrawMs * 1000) / 1000;
        entry["detail_ms"] = std::round(detailMs * 1000) / 1000;
      }
      frames.push_back(entry);
    }
  }
  out["events"] = events;
  out["open_s"] = std::round(openSeconds * 1000) / 1000;
  out["layout_s"] = std::round(layoutSeconds * 1000) / 1000;
  out["first_frame_s"] = std::round(firstFrameSeconds * 1000) / 1000;
  out["resident_mb"] = residentMb();
  out["peak_resident_mb"] = peakResidentMb();
  out["parts"] = allRanks ? traces.size() : 1;
  out["frames"] = frames;
  out["max_ms"] = std::round(maxMs * 1000) / 1000;
  out["max_cpu_ms"] = std::round(maxCpuMs * 1000) / 1000;
  out["frames_waiting_on_disk"] = pendingFrames;
  out["max_detail_ms"] = std::round(maxDetailMs * 1000) / 1000;
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
