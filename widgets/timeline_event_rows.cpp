// SPDX-License-Identifier: MIT
#include "timeline_event_rows.h"

#include <QCoreApplication>
#include <QPainter>
#include <algorithm>

#include "text/format.h"
#include "theme.h"

namespace sutra::widgets {

using namespace timeline;

namespace {
constexpr double kLabelMinPx = 28.0;  // a box gets its name written from this width on

QString tr(const char* text) { return QCoreApplication::translate("TimelineView", text); }
}  // namespace

struct TimelineEventRows::Geometry {
  TimeRange range;
  int width = -1;
  int height = -1;
  int scroll = -1;
  std::vector<TimelineBox> boxes;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> rowSpan;  // per row: [begin, end) in boxes
  std::array<std::vector<QRectF>, kColourCount> batches;
  struct Label {
    QRectF rect;
    StringId name;
    int colour;
    std::uint16_t part;
  };
  std::vector<Label> labels;
  std::vector<QRectF> outlines;  // highlighted events wide enough to be outlined
};

TimelineEventRows::TimelineEventRows(const TimelineScene& scene) : scene_(scene) {}

TimelineEventRows::~TimelineEventRows() = default;

void TimelineEventRows::invalidate() { geometry_.reset(); }

const TimelineEventRows::Geometry& TimelineEventRows::geometry() const {
  const TimelineScene& s = scene_;
  if (geometry_ && geometry_->range == s.range && geometry_->width == s.areaWidth &&
      geometry_->height == s.height && geometry_->scroll == s.scroll)
    return *geometry_;
  if (!geometry_) geometry_ = std::make_unique<Geometry>();
  Geometry& g = *geometry_;
  g.range = s.range;
  g.width = s.areaWidth;
  g.height = s.height;
  g.scroll = s.scroll;
  g.boxes.clear();
  g.labels.clear();
  g.outlines.clear();
  for (auto& batch : g.batches) batch.clear();
  stats_ = {};
  if (s.parts.empty()) return g;
  g.rowSpan.assign(s.parts.back().rowBase + s.parts.back().part.layout->rows().size(), {0, 0});
  const bool sameView = pending_.frames > 0 && pending_.range == s.range &&
                        pending_.width == s.areaWidth && pending_.height == s.height &&
                        pending_.scroll == s.scroll;
  GeometryOptions options;
  options.waitForDisk = sameView && pending_.frames >= kPatienceFrames;
  const TimelineScene::LineRange lines = s.visibleLines();
  for (auto line = lines.first; line != lines.last; ++line)
    if (line->kind == TimelineScene::Line::Row) addRowGeometry(g, *line, options);
  if (stats_.pendingRows > 0)
    pending_ = {s.range, s.areaWidth, s.height, s.scroll, sameView ? pending_.frames + 1 : 1};
  else
    pending_.frames = 0;
  stats_.boxes = g.boxes.size();
  stats_.labels = g.labels.size();
  return g;
}

// The boxes of one row on screen, each in its colour's batch, with the labels and outlines it
// needs.
void TimelineEventRows::addRowGeometry(Geometry& g, const TimelineScene::Line& line,
                                       const GeometryOptions& options) const {
  const TimelineScene::PartState& state = scene_.parts[line.part];
  const Trace& trace = *state.part.trace;
  const std::uint32_t r = line.index;
  const LayoutRow& row = state.part.layout->rows()[r];
  const Band band = state.part.layout->tracks()[row.track].band;
  const auto begin = static_cast<std::uint32_t>(g.boxes.size());
  if (buildRowBoxes(trace, row, r, scene_.localRange(state), g.width, g.boxes, options) ==
      RowDetail::Pending)
    ++stats_.pendingRows;
  g.rowSpan[state.rowBase + r] = {begin, static_cast<std::uint32_t>(g.boxes.size())};
  const double y = scene_.top(line) + 1;
  const double h = line.height - 2;
  const bool partLit = !state.highlightMask.empty();
  for (std::uint32_t b = begin; b < g.boxes.size(); ++b) {
    const TimelineBox& box = g.boxes[b];
    const QRectF rect(scene_.labelWidth + box.x0, y, std::max(box.x1 - box.x0, 1.0f), h);
    int colour;
    if (box.count == 1) {
      // The box carries its event and name: drawing reads no event (a row's level of detail
      // spares a zoomed-out frame every read of a trace that may lie on disk).
      const EventId id = box.event;
      const bool lit = partLit && state.highlightMask[id];
      colour = state.nameColour[box.name] + (scene_.fading && !lit ? kFadedOffset : 0);
      // A folded frames' band is too thin for text: its boxes are named by their tooltips.
      if (box.x1 - box.x0 >= kLabelMinPx && line.height >= kRowHeight)
        g.labels.push_back({rect, box.name, colour, line.part});
      if (lit && box.x1 - box.x0 >= 3) g.outlines.push_back(rect);
    } else {
      colour = runColourIndex(band) + (scene_.fading ? kFadedOffset : 0);
      ++stats_.runs;
      stats_.mergedEvents += box.count;
    }
    g.batches[static_cast<std::size_t>(colour)].push_back(rect);
  }
}

void TimelineEventRows::paint(const TimelineFrame& f) const {
  const Geometry& g = geometry();
  // The boxes, one batch of rectangles per colour.
  f.p.setPen(Qt::NoPen);
  for (int c = 0; c < kColourCount; ++c) {
    const auto& batch = g.batches[static_cast<std::size_t>(c)];
    if (batch.empty()) continue;
    f.p.setBrush(f.theme.fill(c));
    f.p.drawRects(batch.data(), static_cast<int>(batch.size()));
  }
  // Names on the boxes wide enough for them, elided to fit.
  const QFontMetrics metrics(scene_.font);
  f.p.setFont(scene_.font);
  for (const auto& label : g.labels) {
    const TimelineScene::PartState& state = scene_.parts[label.part];
    QString& text = state.nameText[label.name];
    if (text.isNull()) text = QString::fromUtf8(state.part.trace->names.view(label.name));
    const QRectF inner = label.rect.adjusted(3, 0, -3, 0).intersected(QRectF(f.eventArea));
    if (inner.width() < 12) continue;
    const QString shown =
        metrics.horizontalAdvance(text) <= inner.width()
            ? text
            : metrics.elidedText(text, Qt::ElideRight, static_cast<int>(inner.width()));
    if (shown.size() <= 1) continue;
    f.p.setPen(textColourOn(f.theme.fill(label.colour)));
    f.p.drawText(inner, Qt::AlignVCenter | Qt::AlignLeft, shown);
  }
  // Highlighted events wide enough to be outlined.
  f.p.setBrush(Qt::NoBrush);
  f.p.setPen(QPen(f.theme.searchOutline, 1.5));
  for (const auto& r : g.outlines) f.p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
}

void TimelineEventRows::paintLabel(const TimelineFrame& f, const TimelineScene::Line& line) const {
  const LaneLayout& layout = *scene_.parts[line.part].part.layout;
  const LayoutRow& row = layout.rows()[line.index];
  const LayoutTrack& track = layout.tracks()[row.track];
  const int y = scene_.top(line);
  const int labelWidth = scene_.labelWidth;
  if (row.depth == 0) {
    const int trackHeight = static_cast<int>(track.rowCount) * kRowHeight -
                            (track.foldedPythonDepth > 0 ? kRowHeight - kFoldedRowHeight : 0);
    f.p.fillRect(QRect(10, y + 1, 4, trackHeight - 2), f.theme.band(track.band));
  }
  if (row.pythonFrames) {
    QFont tiny = scene_.font;
    tiny.setPointSizeF(scene_.font.pointSizeF() * 0.7);
    f.p.setFont(tiny);
    f.p.setPen(f.theme.labelDimText);
    drawTimelineLabel(f.p, QRect(20, y, labelWidth - 24, line.height),
                      QCoreApplication::translate("TimelineView", "\u25B8 Python frames, %n deep",
                                                  nullptr, track.foldedPythonDepth));
    return;
  }
  const int depth = row.depth - (track.foldedPythonDepth > 0 ? 1 : 0);  // under the frames' band
  if (depth == 0) {
    f.p.setFont(scene_.font);
    f.p.setPen(f.theme.labelText);
    drawTimelineLabel(f.p, QRect(20, y, labelWidth - 24, kRowHeight),
                      QString::fromStdString(track.shortLabel));
  } else if (depth == 1 && !track.threadName.empty()) {
    QFont small = scene_.font;
    small.setPointSizeF(scene_.font.pointSizeF() * 0.9);
    f.p.setFont(small);
    f.p.setPen(f.theme.labelDimText);
    drawTimelineLabel(f.p, QRect(20, y, labelWidth - 24, kRowHeight),
                      QString::fromStdString(track.threadName));
  }
}

TimelineEventRows::Hit TimelineEventRows::boxAt(const QPoint& pos) const {
  if (scene_.parts.empty() || !scene_.inEventArea(pos.x())) return {};
  const int line = scene_.lineAt(pos.y());
  if (line < 0 || scene_.lines[static_cast<std::size_t>(line)].kind != TimelineScene::Line::Row)
    return {};
  const TimelineScene::Line& l = scene_.lines[static_cast<std::size_t>(line)];
  const Geometry& g = geometry();
  const auto [begin, end] = g.rowSpan[scene_.parts[l.part].rowBase + l.index];
  const double x = pos.x() - scene_.labelWidth;
  // Boxes of a row are in x order and do not overlap (merged runs absorb their neighbours).
  auto it = std::lower_bound(g.boxes.begin() + begin, g.boxes.begin() + end, x - 1.0,
                             [](const TimelineBox& b, double v) { return b.x1 < v; });
  const TimelineBox* best = nullptr;
  for (; it != g.boxes.begin() + end && it->x0 <= x + 1.0; ++it)
    best = &*it;  // the last box starting at or before the cursor: the innermost at its edge
  if (!best) return {};
  const TimelinePart& shown = scene_.parts[l.part].part;
  return {static_cast<int>(l.part), best, &shown, &shown.layout->rows()[best->row]};
}

std::pair<TimeNs, TimeNs> TimelineEventRows::Hit::runSpan() const {
  const auto& events = shown->trace->events;
  const TimeNs start = events[row->events[box->first]].start;
  TimeNs end = start;
  for (std::uint32_t i = box->first; i < box->first + box->count; ++i)
    end = std::max(end, events[row->events[i]].end());
  return {start, end};
}

TimelineEvent TimelineEventRows::eventAt(const QPoint& pos) const {
  const Hit hit = boxAt(pos);
  if (!hit.box) return {};
  const LayoutRow& row = *hit.row;
  if (hit.box->count == 1) return {hit.part, row.events[hit.box->first]};
  // In a run: the event that starts last at or before the cursor's time.
  const TimeNs t =
      xToTime(pos.x() - scene_.labelWidth, scene_.range, scene_.areaWidth) - hit.shown->offset;
  const auto begin = row.events.begin() + hit.box->first;
  const auto end = begin + hit.box->count;
  const Trace& trace = *hit.shown->trace;
  auto it = std::upper_bound(begin, end, t,
                             [&](TimeNs v, EventId id) { return v < trace.events[id].start; });
  return {hit.part, it == begin ? *begin : *(it - 1)};
}

QString TimelineEventRows::toolTip(const Hit& hit, TimeNs origin) const {
  if (!hit.box) return {};
  const TimelineBox* box = hit.box;
  const Trace& trace = *hit.shown->trace;
  const LayoutRow& row = *hit.row;
  const LayoutTrack& track = hit.shown->layout->tracks()[row.track];
  // Times read on the shared axis, as the ruler counts them.
  const TimeNs local = origin - hit.shown->offset;
  if (box->count > 1) {
    const auto [start, end] = hit.runSpan();
    return tr("<b>%1 events</b>, each narrower than a pixel<br>from +%2 for "
              "%3<br>%4<br><i>double-click to zoom in</i>")
        .arg(box->count)
        .arg(durationText(start - local), durationText(end - start),
             QString::fromStdString(track.label).toHtmlEscaped());
  }
  const EventId id = row.events[box->first];
  const Event& e = trace.events[id];
  return tr("<b>%1</b><br>duration: %2<br>start: +%3<br>category: %4<br>lane: %5")
      .arg(QString::fromUtf8(trace.name(e)).toHtmlEscaped(), durationText(e.dur),
           durationText(e.start - local), QString::fromUtf8(trace.category(e)).toHtmlEscaped(),
           QString::fromStdString(track.label).toHtmlEscaped());
}

}  // namespace sutra::widgets
