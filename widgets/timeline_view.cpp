// SPDX-License-Identifier: MIT
#include "timeline_view.h"

#include <QApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>

#include "counter_geometry.h"
#include "format.h"
#include "theme.h"
#include "timeline_palette.h"

namespace sutra::widgets {
namespace {

constexpr int kRulerHeight = 28;
constexpr int kRowHeight = 18;
constexpr int kHeaderHeight = 22;
constexpr int kTrackGap = 3;
constexpr int kCounterHeight = 30;
constexpr double kLabelMinPx = 28.0;  // a box gets its name written from this width on

}  // namespace

struct TimelineView::Geometry {
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
  };
  std::vector<Label> labels;
  std::vector<QRectF> outlines;  // highlighted events wide enough to be outlined
};

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(400, 160);
  vscroll_ = new QScrollBar(Qt::Vertical, this);
  connect(vscroll_, &QScrollBar::valueChanged, this, [this] { update(); });
  range_ = {0, 1000};
}

TimelineView::~TimelineView() = default;

void TimelineView::setTrace(std::shared_ptr<const Trace> trace, std::shared_ptr<const LaneLayout> layout) {
  trace_ = std::move(trace);
  layout_ = std::move(layout);
  selected_ = kNoEvent;
  timeRange_ = {0, 0};
  selectionFlows_.clear();
  highlighted_.clear();
  highlightMask_.clear();
  matches_.clear();
  currentMatch_ = -1;
  nameColour_.clear();
  nameText_.clear();
  collapsed_.clear();
  if (trace_ && layout_) {
    nameColour_.resize(trace_->names.size());
    for (StringId id = 0; id < trace_->names.size(); ++id) nameColour_[id] = nameColourIndex(trace_->names.view(id));
    nameText_.resize(trace_->names.size());
    collapsed_.assign(layout_->groups().size(), false);
    const QFontMetrics metrics(font());
    int widest = 0;
    for (const auto& track : layout_->tracks())
      widest = std::max(widest, metrics.horizontalAdvance(QString::fromStdString(track.shortLabel)));
    for (const auto& group : layout_->groups())
      widest = std::max(widest, QFontMetrics(QFont(font().family(), font().pointSize(), QFont::Bold))
                                        .horizontalAdvance(QString::fromStdString(group.label)) + 10);
    labelWidth_ = std::max(std::clamp(widest + 24, 180, 380), minimumLabelWidth_);
  }
  rebuildLines();
  range_ = {};
  setVisibleRange(boundsRange());
  invalidateGeometry();
  update();
}

void TimelineView::clear() { setTrace(nullptr, nullptr); }

int TimelineView::rulerHeight() const { return kRulerHeight; }

void TimelineView::setSelectedTimeRange(TimeRange range) {
  if (range.end < range.start) std::swap(range.start, range.end);
  if (range == timeRange_) return;
  timeRange_ = range;
  update();
}

TimeRange TimelineView::boundsRange() const {
  if (!trace_ || trace_->endNs <= trace_->startNs) return extraBounds_.value_or(TimeRange{0, 1000});
  TimeNs start = trace_->startNs, end = trace_->endNs;
  if (extraBounds_) {
    start = std::min(start, extraBounds_->start);
    end = std::max(end, extraBounds_->end);
  }
  const TimeNs margin = std::max<TimeNs>((end - start) / 50, 1);
  return {start - margin, end + margin};
}

void TimelineView::setExtraBounds(TimeRange range) {
  extraBounds_ = range;
  setVisibleRange(range_);  // clamped anew
}

void TimelineView::setMinimumLabelWidth(int width) {
  minimumLabelWidth_ = width;
  if (labelWidth_ >= width) return;
  labelWidth_ = width;
  invalidateGeometry();
  update();
}

int TimelineView::eventAreaWidth() const {
  return std::max(1, width() - labelWidth_ - vscroll_->sizeHint().width());
}

void TimelineView::setVisibleRange(TimeRange range) {
  range = clampRange(range, boundsRange());
  if (range == range_) return;
  range_ = range;
  update();
  emit visibleRangeChanged(range_.start, range_.end);
}

void TimelineView::fitAll() { setVisibleRange(boundsRange()); }

void TimelineView::fitSelection() {
  if (!trace_ || selected_ == kNoEvent) return;
  const Event& e = trace_->events[selected_];
  const TimeNs margin = std::max<TimeNs>(e.dur / 10, 50);
  setVisibleRange({e.start - margin, e.end() + margin});
}

double TimelineView::anchorX() const {
  const QPoint cursor = mapFromGlobal(QCursor::pos());
  const double x = cursor.x() - labelWidth_;
  if (rect().contains(cursor) && x >= 0 && x < eventAreaWidth()) return x;
  return eventAreaWidth() / 2.0;
}

void TimelineView::zoomBy(double factor) {
  const TimeNs anchor = xToTime(anchorX(), range_, eventAreaWidth());
  setVisibleRange(zoomAround(range_, anchor, factor));
}

void TimelineView::panBy(double fraction) { setVisibleRange(panByFraction(range_, fraction)); }

// ---- lines: group headers and rows, top to bottom --------------------------------------------

void TimelineView::rebuildLines() {
  lines_.clear();
  rowLine_.clear();
  int y = 0;
  if (layout_) {
    rowLine_.assign(layout_->rows().size(), -1);
    for (std::uint32_t g = 0; g < layout_->groups().size(); ++g) {
      lines_.push_back({Line::GroupHeader, g, y, kHeaderHeight});
      y += kHeaderHeight;
      if (collapsed_[g]) continue;
      for (std::uint32_t t : layout_->groups()[g].tracks) {
        const auto& track = layout_->tracks()[t];
        for (std::uint32_t r = track.firstRow; r < track.firstRow + track.rowCount; ++r) {
          rowLine_[r] = static_cast<int>(lines_.size());
          lines_.push_back({Line::Row, r, y, kRowHeight});
          y += kRowHeight;
        }
        y += kTrackGap;
      }
      for (std::uint32_t c : layout_->groups()[g].counters) {
        lines_.push_back({Line::Counter, c, y, kCounterHeight});
        y += kCounterHeight + kTrackGap;
      }
    }
  }
  contentHeight_ = y;
  updateScrollBar();
  invalidateGeometry();
}

void TimelineView::updateScrollBar() {
  const int area = std::max(0, height() - kRulerHeight);
  vscroll_->setGeometry(width() - vscroll_->sizeHint().width(), kRulerHeight, vscroll_->sizeHint().width(), area);
  vscroll_->setRange(0, std::max(0, contentHeight_ - area));
  vscroll_->setPageStep(std::max(1, area));
  vscroll_->setSingleStep(kRowHeight);
}

bool TimelineView::isGroupCollapsed(std::uint32_t group) const {
  return group < collapsed_.size() && collapsed_[group];
}

void TimelineView::setGroupCollapsed(std::uint32_t group, bool collapsed) {
  if (group >= collapsed_.size() || collapsed_[group] == collapsed) return;
  collapsed_[group] = collapsed;
  rebuildLines();
  update();
}

int TimelineView::lineAt(int y) const {
  if (y < kRulerHeight) return -1;
  const int contentY = y - kRulerHeight + vscroll_->value();
  auto it = std::upper_bound(lines_.begin(), lines_.end(), contentY, [](int v, const Line& l) { return v < l.y; });
  if (it == lines_.begin()) return -1;
  --it;
  if (contentY >= it->y + it->height) return -1;
  return static_cast<int>(it - lines_.begin());
}

int TimelineView::counterTop(std::uint32_t counter) const {
  for (const Line& line : lines_)
    if (line.kind == Line::Counter && line.index == counter) return line.y - vscroll_->value() + kRulerHeight;
  return -1;
}

int TimelineView::rowTop(std::uint32_t row) const {
  if (row >= rowLine_.size() || rowLine_[row] < 0) return -1;
  return lines_[static_cast<std::size_t>(rowLine_[row])].y - vscroll_->value() + kRulerHeight;
}

// ---- geometry ----------------------------------------------------------------------------------

void TimelineView::invalidateGeometry() { geometry_.reset(); }

const TimelineView::Geometry& TimelineView::geometry() const {
  const int width = eventAreaWidth();
  const int scroll = vscroll_->value();
  if (geometry_ && geometry_->range == range_ && geometry_->width == width && geometry_->height == height() &&
      geometry_->scroll == scroll)
    return *geometry_;
  if (!geometry_) geometry_ = std::make_unique<Geometry>();
  Geometry& g = *geometry_;
  g.range = range_;
  g.width = width;
  g.height = height();
  g.scroll = scroll;
  g.boxes.clear();
  g.labels.clear();
  g.outlines.clear();
  for (auto& batch : g.batches) batch.clear();
  stats_ = {};
  if (!trace_ || !layout_) return g;
  const auto& rows = layout_->rows();
  g.rowSpan.assign(rows.size(), {0, 0});
  const bool fading = !highlightMask_.empty();

  const int top = scroll;
  const int bottom = scroll + height() - kRulerHeight;
  auto first = std::upper_bound(lines_.begin(), lines_.end(), top, [](int v, const Line& l) { return v < l.y; });
  if (first != lines_.begin()) --first;
  for (auto line = first; line != lines_.end() && line->y < bottom; ++line) {
    if (line->kind != Line::Row) continue;
    const std::uint32_t r = line->index;
    const LayoutRow& row = rows[r];
    const Band band = layout_->tracks()[row.track].band;
    const auto begin = static_cast<std::uint32_t>(g.boxes.size());
    buildRowBoxes(*trace_, row, r, range_, width, g.boxes);
    g.rowSpan[r] = {begin, static_cast<std::uint32_t>(g.boxes.size())};
    const double y = line->y - scroll + kRulerHeight + 1;
    const double h = kRowHeight - 2;
    for (std::uint32_t b = begin; b < g.boxes.size(); ++b) {
      const TimelineBox& box = g.boxes[b];
      const QRectF rect(labelWidth_ + box.x0, y, std::max(box.x1 - box.x0, 1.0f), h);
      int colour;
      if (box.count == 1) {
        const EventId id = row.events[box.first];
        const Event& e = trace_->events[id];
        const bool lit = fading && highlightMask_[id];
        colour = nameColour_[e.name] + (fading && !lit ? kFadedOffset : 0);
        if (box.x1 - box.x0 >= kLabelMinPx) g.labels.push_back({rect, e.name, colour});
        if (lit && box.x1 - box.x0 >= 3) g.outlines.push_back(rect);
      } else {
        colour = runColourIndex(band) + (fading ? kFadedOffset : 0);
        ++stats_.runs;
        stats_.mergedEvents += box.count;
      }
      g.batches[static_cast<std::size_t>(colour)].push_back(rect);
    }
  }
  stats_.boxes = g.boxes.size();
  stats_.labels = g.labels.size();
  return g;
}

// ---- painting ----------------------------------------------------------------------------------

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const Theme& theme = themeFor(*this);  // the palette's set: a PaletteChange repaints in the new one
  p.fillRect(rect(), theme.background);
  const int areaWidth = eventAreaWidth();
  const QRect eventArea(labelWidth_, kRulerHeight, areaWidth, height() - kRulerHeight);
  const int scroll = vscroll_->value();
  const int bottom = scroll + height() - kRulerHeight;
  const TimeNs origin = trace_ ? trace_->startNs : 0;

  // Backgrounds: group headers, and every other track shaded so rows read as one thread.
  auto first = std::upper_bound(lines_.begin(), lines_.end(), scroll, [](int v, const Line& l) { return v < l.y; });
  if (first != lines_.begin()) --first;
  for (auto line = first; line != lines_.end() && line->y < bottom; ++line) {
    const int y = line->y - scroll + kRulerHeight;
    if (line->kind == Line::GroupHeader) {
      p.fillRect(QRect(0, y, width(), line->height), theme.headerBackground);
    } else if (line->kind == Line::Row && layout_->rows()[line->index].track % 2 == 1) {
      p.fillRect(QRect(0, y, width(), line->height), theme.trackShade);
    }
  }

  // Grid lines at the ruler's ticks.
  const TimeNs step = tickStep(range_.span(), areaWidth, 110);
  auto firstTick = [&] {
    const TimeNs offset = range_.start - origin;
    TimeNs k = offset / step;
    if (k * step < offset) ++k;
    return origin + k * step;
  };
  p.setPen(theme.gridLine);
  for (TimeNs t = firstTick(); t <= range_.end; t += step) {
    const int x = labelWidth_ + static_cast<int>(std::lround(timeToX(t, range_, areaWidth)));
    p.drawLine(x, kRulerHeight, x, height());
  }

  if (trace_ && layout_) {
    const Geometry& g = geometry();
    p.save();
    p.setClipRect(eventArea);
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(Qt::NoPen);
    for (int c = 0; c < kColourCount; ++c) {
      const auto& batch = g.batches[static_cast<std::size_t>(c)];
      if (batch.empty()) continue;
      p.setBrush(theme.fill(c));
      p.drawRects(batch.data(), static_cast<int>(batch.size()));
    }
    const QFontMetrics metrics(font());
    p.setFont(font());
    for (const auto& label : g.labels) {
      QString& text = nameText_[label.name];
      if (text.isNull()) text = QString::fromUtf8(trace_->names.view(label.name));
      const QRectF inner = label.rect.adjusted(3, 0, -3, 0).intersected(QRectF(eventArea));
      if (inner.width() < 12) continue;
      const QString shown = metrics.horizontalAdvance(text) <= inner.width()
                                ? text
                                : metrics.elidedText(text, Qt::ElideRight, static_cast<int>(inner.width()));
      if (shown.size() <= 1) continue;
      p.setPen(textColourOn(theme.fill(label.colour)));
      p.drawText(inner, Qt::AlignVCenter | Qt::AlignLeft, shown);
    }
    // Counters: per pixel column, the value at its start joined to the next, and the range of
    // values inside it (counterColumns folds the samples of the window).
    for (auto line = first; line != lines_.end() && line->y < bottom; ++line) {
      if (line->kind != Line::Counter) continue;
      const LayoutCounter& counter = layout_->counters()[line->index];
      const auto columns = counterColumns(trace_->counters[counter.series].samples, range_, areaWidth);
      const double top = line->y - scroll + kRulerHeight + 2, h = kCounterHeight - 4;
      const double span = counter.high - counter.low;
      auto yOf = [&](double v) { return span > 0 ? top + h - (v - counter.low) / span * h : top + h / 2; };
      QVector<QLineF> segments;
      segments.reserve(static_cast<qsizetype>(columns.size() * 2));
      for (std::size_t i = 0; i < columns.size(); ++i) {
        const CounterColumn& c = columns[i];
        const double x = labelWidth_ + c.x + 0.5;
        if (c.high > c.low) segments.append(QLineF(x, yOf(c.low), x, yOf(c.high)));
        const double next = i + 1 < columns.size() ? columns[i + 1].first : c.first;
        segments.append(QLineF(x, yOf(c.first), x + 1, yOf(next)));
      }
      p.setPen(QPen(theme.counterLine, 1));
      p.drawLines(segments);
    }
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(theme.searchOutline, 1.5));
    for (const auto& r : g.outlines) p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));

    // The selection, and arrows along its flows (launch -> device op).
    if (selected_ != kNoEvent) {
      const std::uint32_t row = layout_->rowOf(selected_);
      const int top = rowTop(row);
      if (top >= 0) {
        const Event& e = trace_->events[selected_];
        const double x0 = std::max(-4.0, timeToX(e.start, range_, areaWidth));
        const double x1 = std::min(areaWidth + 4.0, std::max(timeToX(e.end(), range_, areaWidth), x0 + 3));
        p.setPen(QPen(theme.selection, 2));
        p.drawRect(QRectF(labelWidth_ + x0, top + 0.5, x1 - x0, kRowHeight - 1));
      }
      p.setRenderHint(QPainter::Antialiasing, true);
      auto anchor = [&](EventId id) -> std::optional<QPointF> {
        const std::uint32_t row = layout_->rowOf(id);
        int top = rowTop(row);
        if (top < 0) {  // in a collapsed group: point at its header
          const auto group = layout_->tracks()[layout_->rows()[row].track].group;
          for (const auto& line : lines_)
            if (line.kind == Line::GroupHeader && line.index == group) top = line.y - scroll + kRulerHeight;
        }
        if (top < 0) return std::nullopt;
        const double x = std::clamp(timeToX(trace_->events[id].start, range_, areaWidth), -1e5, 1e5);
        return QPointF(labelWidth_ + x, top + kRowHeight / 2.0);
      };
      for (const auto& [from, to] : selectionFlows_) {
        const auto a = anchor(from);
        const auto b = anchor(to);
        if (!a || !b) continue;
        QPainterPath path(*a);
        const double bend = std::max(20.0, std::abs(b->y() - a->y()) / 2);
        path.cubicTo(a->x(), a->y() + (b->y() > a->y() ? bend : -bend), b->x(), b->y() - (b->y() > a->y() ? bend : -bend),
                     b->x(), b->y());
        p.setPen(QPen(theme.flow, 1.6));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        const double dir = b->y() >= a->y() ? -1 : 1;  // the curve arrives vertically
        QPolygonF head;
        head << *b << QPointF(b->x() - 4.5, b->y() + dir * 8) << QPointF(b->x() + 4.5, b->y() + dir * 8);
        p.setBrush(theme.flow);
        p.drawPolygon(head);
        p.setBrush(Qt::NoBrush);
      }
      p.setRenderHint(QPainter::Antialiasing, false);
    }
    p.restore();
  }

  // The time range selected on the ruler, shaded over the lanes and the ruler.
  if (timeRange_.end > timeRange_.start) {
    const double x0 = std::clamp(timeToX(timeRange_.start, range_, areaWidth), -1.0, areaWidth + 1.0);
    const double x1 = std::clamp(timeToX(timeRange_.end, range_, areaWidth), -1.0, areaWidth + 1.0);
    QColor shade = theme.rangeShade;
    p.fillRect(QRectF(labelWidth_ + x0, kRulerHeight, std::max(1.0, x1 - x0), height() - kRulerHeight), shade);
  }

  // Ruler.
  p.fillRect(QRect(0, 0, width(), kRulerHeight), theme.rulerBackground);
  p.setPen(theme.rulerText);
  for (TimeNs t = firstTick(); t <= range_.end; t += step) {
    const int x = labelWidth_ + static_cast<int>(std::lround(timeToX(t, range_, areaWidth)));
    if (x < labelWidth_) continue;
    p.drawLine(x, kRulerHeight - 6, x, kRulerHeight);
    p.drawText(QRect(x + 3, 0, 200, kRulerHeight - 4), Qt::AlignLeft | Qt::AlignVCenter,
               QString::fromStdString(tickLabel(t - origin, step)));
  }
  p.drawLine(0, kRulerHeight - 1, width(), kRulerHeight - 1);
  if (timeRange_.end > timeRange_.start) {
    const double x0 = std::clamp(timeToX(timeRange_.start, range_, areaWidth), -1.0, areaWidth + 1.0);
    const double x1 = std::clamp(timeToX(timeRange_.end, range_, areaWidth), -1.0, areaWidth + 1.0);
    const QRectF band(labelWidth_ + x0, 0, std::max(1.0, x1 - x0), kRulerHeight - 1);
    p.fillRect(band, theme.rangeRuler);
    p.setPen(theme.rangeRulerText);
    p.drawText(band, Qt::AlignCenter, durationText(timeRange_.span()));
  }

  // Label column.
  p.fillRect(QRect(0, kRulerHeight, labelWidth_, height() - kRulerHeight), theme.labelBackground);
  p.fillRect(QRect(0, 0, labelWidth_, kRulerHeight - 1), theme.rulerBackground);
  p.drawText(QRect(8, 0, labelWidth_ - 12, kRulerHeight - 2), Qt::AlignVCenter | Qt::AlignLeft,
             tr("window %1").arg(durationText(range_.span())));
  if (layout_) {
    p.setClipRect(QRect(0, kRulerHeight, labelWidth_, height() - kRulerHeight));
    QFont bold = font();
    bold.setBold(true);
    QFont small = font();
    small.setPointSizeF(font().pointSizeF() * 0.9);
    for (auto line = first; line != lines_.end() && line->y < bottom; ++line) {
      const int y = line->y - scroll + kRulerHeight;
      if (line->kind == Line::GroupHeader) {
        const auto& group = layout_->groups()[line->index];
        p.fillRect(QRect(0, y, labelWidth_, line->height), theme.headerBackground);
        p.setFont(bold);
        p.setPen(theme.labelText);
        const QString arrow = collapsed_[line->index] ? QStringLiteral("\u25B8 ") : QStringLiteral("\u25BE ");
        p.drawText(QRect(6, y, labelWidth_ - 10, line->height), Qt::AlignVCenter | Qt::AlignLeft,
                   arrow + QString::fromStdString(group.label));
        continue;
      }
      if (line->kind == Line::Counter) {
        const LayoutCounter& counter = layout_->counters()[line->index];
        p.fillRect(QRect(10, y + 2, 4, line->height - 4), theme.counterLine);
        p.setFont(font());
        p.setPen(theme.labelText);
        p.drawText(QRect(20, y, labelWidth_ - 24, line->height), Qt::AlignVCenter | Qt::AlignLeft,
                   QString::fromStdString(counter.label) +
                       QStringLiteral("  (%1 .. %2)").arg(counter.low, 0, 'g', 4).arg(counter.high, 0, 'g', 4));
        continue;
      }
      const LayoutRow& row = layout_->rows()[line->index];
      const LayoutTrack& track = layout_->tracks()[row.track];
      if (row.depth == 0) {
        p.fillRect(QRect(10, y + 1, 4, static_cast<int>(track.rowCount) * kRowHeight - 2), theme.band(track.band));
        p.setFont(font());
        p.setPen(theme.labelText);
        p.drawText(QRect(20, y, labelWidth_ - 24, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   QString::fromStdString(track.shortLabel));
      } else if (row.depth == 1 && !track.threadName.empty()) {
        p.setFont(small);
        p.setPen(theme.labelDimText);
        p.drawText(QRect(20, y, labelWidth_ - 24, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                   QString::fromStdString(track.threadName));
      }
    }
    p.setClipping(false);
  } else {
    p.setPen(theme.labelDimText);
    p.drawText(eventArea, Qt::AlignCenter, tr("Open a trace: File > Open Trace Directory... or drop files here"));
  }
  p.setPen(theme.separator);
  p.drawLine(labelWidth_ - 1, 0, labelWidth_ - 1, height());
}

void TimelineView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  updateScrollBar();
}

// ---- hit testing -------------------------------------------------------------------------------

const TimelineBox* TimelineView::boxAt(const QPoint& pos) const {
  if (!trace_ || !layout_ || pos.x() < labelWidth_ || pos.x() >= labelWidth_ + eventAreaWidth()) return nullptr;
  const int line = lineAt(pos.y());
  if (line < 0 || lines_[static_cast<std::size_t>(line)].kind != Line::Row) return nullptr;
  const Geometry& g = geometry();
  const auto [begin, end] = g.rowSpan[lines_[static_cast<std::size_t>(line)].index];
  const double x = pos.x() - labelWidth_;
  // Boxes of a row are in x order and do not overlap (merged runs absorb their neighbours).
  auto it = std::lower_bound(g.boxes.begin() + begin, g.boxes.begin() + end, x - 1.0,
                             [](const TimelineBox& b, double v) { return b.x1 < v; });
  const TimelineBox* best = nullptr;
  for (; it != g.boxes.begin() + end && it->x0 <= x + 1.0; ++it)
    best = &*it;  // the last box starting at or before the cursor: the innermost at its edge
  return best;
}

EventId TimelineView::eventAt(const QPoint& pos) const {
  const TimelineBox* box = boxAt(pos);
  if (!box) return kNoEvent;
  const LayoutRow& row = layout_->rows()[box->row];
  if (box->count == 1) return row.events[box->first];
  // In a run: the event that starts last at or before the cursor's time.
  const TimeNs t = xToTime(pos.x() - labelWidth_, range_, eventAreaWidth());
  const auto begin = row.events.begin() + box->first;
  const auto end = begin + box->count;
  auto it = std::upper_bound(begin, end, t, [&](TimeNs v, EventId id) { return v < trace_->events[id].start; });
  return it == begin ? *begin : *(it - 1);
}

QString TimelineView::toolTipAt(const QPoint& pos) const {
  const TimelineBox* box = boxAt(pos);
  if (!box) return {};
  const LayoutRow& row = layout_->rows()[box->row];
  const LayoutTrack& track = layout_->tracks()[row.track];
  const TimeNs origin = trace_->startNs;
  if (box->count > 1) {
    const Event& a = trace_->events[row.events[box->first]];
    TimeNs end = a.end();
    for (std::uint32_t i = box->first; i < box->first + box->count; ++i)
      end = std::max(end, trace_->events[row.events[i]].end());
    return tr("<b>%1 events</b>, each narrower than a pixel<br>from +%2 for %3<br>%4<br><i>double-click to zoom in</i>")
        .arg(box->count)
        .arg(durationText(a.start - origin), durationText(end - a.start),
             QString::fromStdString(track.label).toHtmlEscaped());
  }
  const EventId id = row.events[box->first];
  const Event& e = trace_->events[id];
  return tr("<b>%1</b><br>duration: %2<br>start: +%3<br>category: %4<br>lane: %5")
      .arg(QString::fromUtf8(trace_->name(e)).toHtmlEscaped(), durationText(e.dur), durationText(e.start - origin),
           QString::fromUtf8(trace_->category(e)).toHtmlEscaped(), QString::fromStdString(track.label).toHtmlEscaped());
}

// ---- selection, highlight, search --------------------------------------------------------------

void TimelineView::selectEvent(EventId event, bool reveal) {
  if (!trace_ || event >= trace_->events.size()) event = kNoEvent;
  const bool changed = event != selected_;
  selected_ = event;
  computeSelectionFlows();
  if (reveal && event != kNoEvent) revealEvent(event);
  update();
  if (changed) emit selectionChanged(selected_);
}

void TimelineView::computeSelectionFlows() {
  selectionFlows_.clear();
  if (!trace_ || selected_ == kNoEvent) return;
  // The selection and its descendants are one contiguous range of its lane: flows leaving an aten
  // op start at the runtime calls inside it.
  const Event& s = trace_->events[selected_];
  const EventId laneEnd = trace_->lanes[s.lane].endEvent;
  EventId last = selected_ + 1;
  while (last < laneEnd && trace_->events[last].start < s.end() && trace_->events[last].depth > s.depth) ++last;
  for (const Flow& flow : trace_->flows)
    if ((flow.from >= selected_ && flow.from < last) || (flow.to >= selected_ && flow.to < last))
      selectionFlows_.emplace_back(flow.from, flow.to);
}

void TimelineView::revealEvent(EventId event) {
  const std::uint32_t row = layout_->rowOf(event);
  if (row == kNoRow) return;
  const std::uint32_t group = layout_->tracks()[layout_->rows()[row].track].group;
  if (isGroupCollapsed(group)) setGroupCollapsed(group, false);
  const int line = rowLine_[row];
  if (line >= 0) {
    const int y = lines_[static_cast<std::size_t>(line)].y;
    const int area = height() - kRulerHeight;
    if (y < vscroll_->value() || y + kRowHeight > vscroll_->value() + area) vscroll_->setValue(y - area / 3);
  }
  const Event& e = trace_->events[event];
  if (e.start >= range_.start && e.end() <= range_.end) return;
  if (e.dur * 10 > range_.span() * 8) {
    fitSelection();
  } else {
    const TimeNs centre = e.start + e.dur / 2;
    setVisibleRange({centre - range_.span() / 2, centre - range_.span() / 2 + range_.span()});
  }
}

void TimelineView::setHighlighted(std::vector<EventId> events) {
  highlighted_ = std::move(events);
  highlightMask_.clear();
  if (trace_ && !highlighted_.empty()) {
    highlightMask_.assign(trace_->events.size(), false);
    for (EventId id : highlighted_)
      if (id < highlightMask_.size()) highlightMask_[id] = true;
  }
  invalidateGeometry();
  update();
}

int TimelineView::search(const QString& pattern, bool regex) {
  if (!trace_ || pattern.isEmpty()) {
    clearSearch();
    return 0;
  }
  std::vector<bool> nameMatches(trace_->names.size(), false);
  if (regex) {
    const QRegularExpression re(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!re.isValid()) return -1;
    for (StringId id = 1; id < trace_->names.size(); ++id)
      nameMatches[id] = re.match(QString::fromUtf8(trace_->names.view(id))).hasMatch();
  } else {
    for (StringId id = 1; id < trace_->names.size(); ++id)
      nameMatches[id] = QString::fromUtf8(trace_->names.view(id)).contains(pattern, Qt::CaseInsensitive);
  }
  std::vector<EventId> matches;
  for (EventId i = 0; i < trace_->events.size(); ++i)
    if (nameMatches[trace_->events[i].name]) matches.push_back(i);
  applyMatches(std::move(matches));
  return matchCount();
}

void TimelineView::clearSearch() { applyMatches({}); }

void TimelineView::applyMatches(std::vector<EventId> matches) {
  if (trace_)
    std::sort(matches.begin(), matches.end(), [&](EventId a, EventId b) {
      const TimeNs sa = trace_->events[a].start, sb = trace_->events[b].start;
      return sa != sb ? sa < sb : a < b;
    });
  matches_ = std::move(matches);
  currentMatch_ = -1;
  setHighlighted(matches_);
  emit matchesChanged(currentMatch_, matchCount());
}

void TimelineView::nextMatch() {
  if (matches_.empty()) return;
  int next = 0;
  if (currentMatch_ >= 0) {
    next = (currentMatch_ + 1) % matchCount();
  } else {
    // The first match from the window's start on.
    auto it = std::lower_bound(matches_.begin(), matches_.end(), range_.start,
                               [&](EventId id, TimeNs t) { return trace_->events[id].start < t; });
    next = it == matches_.end() ? 0 : static_cast<int>(it - matches_.begin());
  }
  currentMatch_ = next;
  selectEvent(matches_[static_cast<std::size_t>(next)], true);
  emit matchesChanged(currentMatch_, matchCount());
}

void TimelineView::previousMatch() {
  if (matches_.empty()) return;
  int previous = matchCount() - 1;
  if (currentMatch_ >= 0) {
    previous = (currentMatch_ + matchCount() - 1) % matchCount();
  } else {
    auto it = std::lower_bound(matches_.begin(), matches_.end(), range_.end,
                               [&](EventId id, TimeNs t) { return trace_->events[id].start < t; });
    previous = it == matches_.begin() ? matchCount() - 1 : static_cast<int>(it - matches_.begin()) - 1;
  }
  currentMatch_ = previous;
  selectEvent(matches_[static_cast<std::size_t>(previous)], true);
  emit matchesChanged(currentMatch_, matchCount());
}

// ---- input -------------------------------------------------------------------------------------

void TimelineView::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (event->modifiers() & Qt::ControlModifier) {
    const double x = event->position().x() - labelWidth_;
    const TimeNs anchor = xToTime(std::clamp(x, 0.0, double(eventAreaWidth())), range_, eventAreaWidth());
    setVisibleRange(zoomAround(range_, anchor, std::pow(0.8, steps)));
  } else if (event->modifiers() & Qt::ShiftModifier) {
    panBy(-0.1 * steps);
  } else {
    vscroll_->setValue(vscroll_->value() - static_cast<int>(steps * 3 * kRowHeight));
  }
  event->accept();
}

void TimelineView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  pressed_ = true;
  dragging_ = false;
  pressPos_ = event->position().toPoint();
  pressRange_ = range_;
  pressScroll_ = vscroll_->value();
  rangeDrag_ = trace_ && pressPos_.y() < kRulerHeight && pressPos_.x() >= labelWidth_;
  setFocus();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
  if (!pressed_) return;
  const QPoint delta = event->position().toPoint() - pressPos_;
  if (!dragging_ && delta.manhattanLength() < QApplication::startDragDistance()) return;
  dragging_ = true;
  if (rangeDrag_) {
    const auto timeAt = [&](int x) {
      return xToTime(std::clamp(double(x - labelWidth_), 0.0, double(eventAreaWidth())), range_, eventAreaWidth());
    };
    setSelectedTimeRange({timeAt(pressPos_.x()), timeAt(event->position().toPoint().x())});
    return;
  }
  setCursor(Qt::ClosedHandCursor);
  const double fraction = -double(delta.x()) / eventAreaWidth();
  setVisibleRange(panByFraction(pressRange_, fraction));
  vscroll_->setValue(pressScroll_ - delta.y());
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !pressed_) return QWidget::mouseReleaseEvent(event);
  pressed_ = false;
  unsetCursor();
  if (rangeDrag_) {
    rangeDrag_ = false;
    dragging_ = false;
    // A drag selects a range; a click on the ruler clears it.
    if (!(timeRange_.end > timeRange_.start) || pressPos_ == event->position().toPoint()) timeRange_ = {0, 0};
    update();
    emit timeRangeSelected(timeRange_.start, timeRange_.end);
    return;
  }
  if (dragging_) {
    dragging_ = false;
    return;
  }
  const QPoint pos = event->position().toPoint();
  const int line = lineAt(pos.y());
  if (line >= 0 && lines_[static_cast<std::size_t>(line)].kind == Line::GroupHeader) {
    const std::uint32_t group = lines_[static_cast<std::size_t>(line)].index;
    setGroupCollapsed(group, !isGroupCollapsed(group));
    return;
  }
  if (pos.x() >= labelWidth_) selectEvent(eventAt(pos), false);
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
  const TimelineBox* box = boxAt(event->position().toPoint());
  if (!box) return;
  const LayoutRow& row = layout_->rows()[box->row];
  if (box->count > 1) {
    TimeNs start = trace_->events[row.events[box->first]].start, end = start;
    for (std::uint32_t i = box->first; i < box->first + box->count; ++i)
      end = std::max(end, trace_->events[row.events[i]].end());
    const TimeNs margin = std::max<TimeNs>((end - start) / 10, 10);
    setVisibleRange({start - margin, end + margin});
  } else {
    emit eventActivated(row.events[box->first]);
  }
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
  switch (event->key()) {
    case Qt::Key_W: zoomBy(0.8); break;
    case Qt::Key_S: zoomBy(1.25); break;
    case Qt::Key_A: panBy(-0.15); break;
    case Qt::Key_D: panBy(0.15); break;
    case Qt::Key_F: fitSelection(); break;
    case Qt::Key_0: fitAll(); break;
    case Qt::Key_Escape: selectEvent(kNoEvent, false); break;
    default: return QWidget::keyPressEvent(event);
  }
  event->accept();
}

bool TimelineView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const QString text = toolTipAt(help->pos());
    if (text.isEmpty()) {
      QToolTip::hideText();
      event->ignore();
    } else {
      QToolTip::showText(help->globalPos(), text, this);
    }
    return true;
  }
  return QWidget::event(event);
}

}  // namespace sutra::widgets
