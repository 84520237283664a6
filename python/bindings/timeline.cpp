// SPDX-License-Identifier: MIT
// A rank's timeline as the window lays it out, for Python's pictures (sutra/_plot.py): core/view's
// lane layout (groups, tracks, rows by nesting depth) built once, and for a time range the boxes
// the window would paint at a given width, narrow events merged into runs, each with its colour
// slot (timeline_palette). Columns go to NumPy without a copy, as in columns.cpp.
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "numpy_array.h"
#include "run_handle.h"
#include "view/lane_layout.h"
#include "view/timeline_geometry.h"
#include "view/timeline_palette.h"

namespace sutra::python {
namespace {

// The lane layout's options as Python sets them (sutra.Run.plot_timeline(layout=...)): every
// field of LaneLayout::build's options is one attribute here, so an option core adds appears in
// Python by binding its field below and passing it on in TimelineLayout's constructor.
struct LayoutOptions {
  bool processes = false;        // LaneGrouping::Processes; the window's default is Layers
  bool foldPythonFrames = true;  // a thread's Python frames in one band, as the window shows them
};

// One rank's layout, kept by the Python Run for the plots of that rank. Holds the run handle, so
// the trace outlives it.
class TimelineLayout {
 public:
  TimelineLayout(std::shared_ptr<RunHandle> handle, std::size_t rankIndex,
                 const LayoutOptions& options)
      : handle_(std::move(handle)) {
    if (rankIndex >= handle_->run.ranks.size()) throw nb::index_error("no such rank index");
    const auto& rank = *handle_->run.ranks[rankIndex];
    if (!rank.trace) throw CoreError(rank.path() + ": a Chakra graph alone has no timeline");
    trace_ = rank.trace.get();
    const view::LaneGrouping grouping =
        options.processes ? view::LaneGrouping::Processes : view::LaneGrouping::Layers;
    nb::gil_scoped_release release;
    layout_ = view::LaneLayout::build(*trace_, "rank" + std::to_string(rank.rank),
                                      view::LayoutOptions{grouping, options.foldPythonFrames});
  }

  TimeNs start() const { return trace_->startNs; }
  TimeNs end() const { return trace_->endNs; }

  // Groups, tracks and rows: what the window's label column shows.
  nb::dict structure() const {
    nb::list groups;
    for (const auto& g : layout_.groups()) {
      nb::dict d;
      d["label"] = g.label;
      d["device"] = g.device;
      nb::list tracks;
      for (std::uint32_t t : g.tracks) tracks.append(t);
      d["tracks"] = tracks;
      groups.append(d);
    }
    nb::list tracks;
    for (const auto& t : layout_.tracks()) {
      nb::dict d;
      d["label"] = t.label;
      d["short_label"] = t.shortLabel;
      d["thread_name"] = t.threadName;
      d["band"] = std::string(view::bandName(t.band));
      d["group"] = t.group;
      d["first_row"] = t.firstRow;
      d["row_count"] = t.rowCount;
      d["events"] = t.eventCount;
      tracks.append(d);
    }
    nb::dict out;
    out["groups"] = groups;
    out["tracks"] = tracks;
    return out;
  }

  // The boxes of every row for [start, end] drawn `widthPx` wide: row, start and end in ns
  // (clipped to the range; a box narrower than a pixel is the caller's to widen), the colour slot,
  // and for a single event its id and name, for a run of narrow ones the count (id -1).
  nb::dict boxes(TimeNs start, TimeNs end, double widthPx) const {
    if (end <= start) throw nb::value_error("end must be after start");
    if (!(widthPx >= 1)) throw nb::value_error("width_px: 1 or more");
    std::vector<std::uint32_t> row, count;
    std::vector<std::int64_t> t0, t1, event;
    std::vector<std::uint8_t> colour;
    std::vector<std::int32_t> name;
    {
      nb::gil_scoped_release release;
      const view::TimeRange range{start, end};
      std::vector<view::TimelineBox> out;
      view::GeometryOptions exact;
      exact.waitForDisk = true;  // an image made once: every row's events, read however slowly
      const auto& rows = layout_.rows();
      for (std::size_t r = 0; r < rows.size(); ++r) {
        out.clear();
        const view::LayoutRow& layoutRow = rows[r];
        view::buildRowBoxes(*trace_, layoutRow, static_cast<std::uint32_t>(r), range, widthPx, out,
                            exact);
        const view::Band band = layout_.tracks()[layoutRow.track].band;
        for (const auto& box : out) {
          // The box's time from its events (a run: the first one's start to the latest end).
          const EventId first = layoutRow.events[box.first];
          const TimeNs from = trace_->events[first].start;
          const TimeNs to = box.count == 1 ? trace_->events[first].end()
                                           : layoutRow.maxEnd[box.first + box.count - 1];
          // Left out where it only touches the window's edge (ends where the window starts, or
          // starts where it ends): the window paints a sliver there, a picture would give it a row.
          if ((to <= start && from < start) || (from >= end && to > end)) continue;
          row.push_back(box.row);
          t0.push_back(std::max(start, from));
          t1.push_back(std::min(end, to));
          count.push_back(box.count);
          if (box.count == 1) {
            const Event& e = trace_->events[first];
            event.push_back(first);
            name.push_back(e.name);
            colour.push_back(view::nameColourIndex(trace_->name(e)));
          } else {
            event.push_back(-1);
            name.push_back(-1);
            colour.push_back(static_cast<std::uint8_t>(view::runColourIndex(band)));
          }
        }
      }
    }
    // The names the boxes use, by StringId (codes into this list).
    nb::list names;
    for (std::size_t i = 0; i < trace_->names.size(); ++i) {
      const std::string_view n = trace_->names.view(static_cast<StringId>(i));
      names.append(nb::str(n.data(), n.size()));
    }
    nb::dict d;
    d["row"] = toNumpy(std::move(row));
    d["start_ns"] = toNumpy(std::move(t0));
    d["end_ns"] = toNumpy(std::move(t1));
    d["count"] = toNumpy(std::move(count));
    d["event"] = toNumpy(std::move(event));
    d["name"] = toNumpy(std::move(name));
    d["colour"] = toNumpy(std::move(colour));
    d["names"] = names;
    return d;
  }

 private:
  std::shared_ptr<RunHandle> handle_;
  const Trace* trace_ = nullptr;
  view::LaneLayout layout_;
};

}  // namespace

void bindTimeline(nb::module_& m) {
  nb::class_<LayoutOptions>(m, "LaneLayoutOptions",
                            "core/view's lane layout options: processes groups tracks by process "
                            "(the window's Processes grouping) instead of by layer; "
                            "fold_python_frames (default True) draws a thread's Python frames "
                            "as one band above its ops, as the window does.")
      .def(nb::init<>())
      .def_rw("processes", &LayoutOptions::processes)
      .def_rw("fold_python_frames", &LayoutOptions::foldPythonFrames);
  nb::class_<TimelineLayout>(m, "TimelineLayout")
      .def(nb::init<std::shared_ptr<RunHandle>, std::size_t, const LayoutOptions&>(),
           nb::arg("run"), nb::arg("rank_index"), nb::arg("options"))
      .def_prop_ro("start_ns", &TimelineLayout::start)
      .def_prop_ro("end_ns", &TimelineLayout::end)
      .def("structure", &TimelineLayout::structure)
      .def("boxes", &TimelineLayout::boxes, nb::arg("start_ns"), nb::arg("end_ns"),
           nb::arg("width_px"));
  m.attr("NAME_COLOURS") = view::kNameColours;
  m.attr("RUN_COLOUR_BASE") = view::kRunColourBase;
}

}  // namespace sutra::python
