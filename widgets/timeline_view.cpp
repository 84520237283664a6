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

#include "text/format.h"
#include "theme.h"
#include "view/counter_geometry.h"
#include "view/timeline_palette.h"

namespace sutra::widgets {
namespace {

constexpr int kRulerHeight = 28;
constexpr int kRowHeight = 18;
constexpr int kFoldedRowHeight = 10;  // a thread's folded Python frames: a thin band over its ops
constexpr int kHeaderHeight = 22;
constexpr int kPartHeaderHeight = 24;
constexpr int kTrackGap = 3;
constexpr int kCounterHeight = 30;
constexpr double kLabelMinPx = 28.0;  // a box gets its name written from this width on

// A label cut to its column with an ellipsis, where the column is narrower than the label.
void drawLabel(QPainter& p, const QRect& rect, const QString& text) {
  p.drawText(rect, Qt::AlignVCenter | Qt::AlignLeft,
             p.fontMetrics().elidedText(text, Qt::ElideRight, rect.width()));
}

// `a` moved a fraction `t` of the way towards `b`.
QColor blend(const QColor& a, const QColor& b, double t) {
  return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                          static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                          static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

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
    std::uint16_t part;
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

TimelineView::PartState TimelineView::makePart(TimelinePart part) const {
  PartState state;
  state.part = std::move(part);
  const Trace& trace = *state.part.trace;
  state.nameColour.resize(trace.names.size());
  for (StringId id = 0; id < trace.names.size(); ++id)
    state.nameColour[id] = nameColourIndex(trace.names.view(id));
  state.nameText.resize(trace.names.size());
  state.collapsed.assign(state.part.layout->groups().size(), false);
  return state;
}

void TimelineView::updateLabelWidth() {
  const QFontMetrics metrics(font());
  const QFontMetrics boldMetrics(QFont(font().family(), font().pointSize(), QFont::Bold));
  int widest = 0;
  for (const PartState& state : parts_) {
    for (const auto& track : state.part.layout->tracks())
      widest =
          std::max(widest, metrics.horizontalAdvance(QString::fromStdString(track.shortLabel)));
    for (const auto& group : state.part.layout->groups())
      widest =
          std::max(widest, boldMetrics.horizontalAdvance(QString::fromStdString(group.label)) + 10);
    if (multiPart())
      widest = std::max(widest, boldMetrics.horizontalAdvance(state.part.label) + 10);
  }
  // At most a quarter of the view, so that the events keep most of a small window; views stacked on
  // one time axis (a minimum width set) keep the width they share.
  const int widestAllowed = minimumLabelWidth_ > 0 ? 380 : std::clamp(width() / 4, 120, 380);
  if (!parts_.empty())
    labelWidth_ = std::max(std::clamp(widest + 24, std::min(180, widestAllowed), widestAllowed),
                           minimumLabelWidth_);
}

void TimelineView::setTrace(std::shared_ptr<const Trace> trace,
                            std::shared_ptr<const LaneLayout> layout) {
  std::vector<TimelinePart> parts;
  if (trace && layout) parts.push_back({std::move(trace), std::move(layout), {}, 0});
  setParts(std::move(parts));
}

void TimelineView::setParts(std::vector<TimelinePart> parts) {
  parts_.clear();
  currentPart_ = 0;
  selected_ = {};
  timeRange_ = {0, 0};
  selectionFlows_.clear();
  fading_ = false;
  matches_.clear();
  linked_.clear();
  pathEdges_.clear();
  currentMatch_ = -1;
  std::uint32_t rowBase = 0;
  for (auto& part : parts) {
    if (!part.trace || !part.layout) continue;
    parts_.push_back(makePart(std::move(part)));
    parts_.back().rowBase = rowBase;
    rowBase += static_cast<std::uint32_t>(parts_.back().part.layout->rows().size());
  }
  updateLabelWidth();
  rebuildLines();
  range_ = {};
  setVisibleRange(boundsRange());
  invalidateGeometry();
  update();
}

void TimelineView::addPart(TimelinePart part) {
  if (!part.trace || !part.layout) return;
  if (parts_.empty()) return setParts({std::move(part)});
  const bool showingAll = range_ == boundsRange();
  const std::uint32_t rowBase =
      parts_.back().rowBase + static_cast<std::uint32_t>(parts_.back().part.layout->rows().size());
  parts_.push_back(makePart(std::move(part)));
  parts_.back().rowBase = rowBase;
  updateLabelWidth();
  rebuildLines();
  setVisibleRange(showingAll ? boundsRange() : range_);
  invalidateGeometry();
  update();
}

void TimelineView::clear() { setTrace(nullptr, nullptr); }

void TimelineView::setLayouts(const std::vector<std::shared_ptr<const LaneLayout>>& layouts) {
  std::uint32_t rowBase = 0;
  for (std::size_t i = 0; i < parts_.size(); ++i) {
    PartState& state = parts_[i];
    if (i < layouts.size() && layouts[i]) {
      state.part.layout = layouts[i];
      state.collapsed.assign(state.part.layout->groups().size(), false);
    }
    state.rowBase = rowBase;
    rowBase += static_cast<std::uint32_t>(state.part.layout->rows().size());
  }
  updateLabelWidth();
  rebuildLines();
  invalidateGeometry();
  update();
}

void TimelineView::setPartOffsets(const std::vector<TimeNs>& offsets) {
  const bool showingAll = range_ == boundsRange();
  for (std::size_t i = 0; i < parts_.size() && i < offsets.size(); ++i)
    parts_[i].part.offset = offsets[i];
  if (!matches_.empty()) {
    auto matches = matches_;
    const int current = currentMatch_;
    applyMatches(std::move(matches));  // their order on the axis may have changed
    currentMatch_ = current < matchCount() ? current : -1;
  }
  setVisibleRange(showingAll ? boundsRange() : range_);
  invalidateGeometry();
  update();
}

void TimelineView::setCurrentPart(int index) {
  if (index >= 0 && index < partCount()) currentPart_ = index;
}

void TimelineView::setAxisNote(const QString& note) {
  axisNote_ = note;
  update();
}

TimeNs TimelineView::timeOrigin() const {
  std::optional<TimeNs> origin;
  for (const PartState& state : parts_) {
    const TimeNs start = state.part.trace->startNs + state.part.offset;
    origin = origin ? std::min(*origin, start) : start;
  }
  return origin.value_or(0);
}

TimeNs TimelineView::shownStart(const TimelineEvent& e) const {
  const auto& state = parts_[static_cast<std::size_t>(e.part)];
  return state.part.trace->events[e.event].start + state.part.offset;
}

int TimelineView::rulerHeight() const { return kRulerHeight; }

void TimelineView::setSelectedTimeRange(TimeRange range) {
  if (range.end < range.start) std::swap(range.start, range.end);
  if (range == timeRange_) return;
  timeRange_ = range;
  update();
}

TimeRange TimelineView::boundsRange() const {
  // The union of every part's extent on the shared axis.
  std::optional<TimeRange> all;
  for (const PartState& state : parts_) {
    const Trace& trace = *state.part.trace;
    if (trace.endNs <= trace.startNs) continue;
    const TimeRange r{trace.startNs + state.part.offset, trace.endNs + state.part.offset};
    all = all ? TimeRange{std::min(all->start, r.start), std::max(all->end, r.end)} : r;
  }
  if (!all) return extraBounds_.value_or(TimeRange{0, 1000});
  TimeNs start = all->start, end = all->end;
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
  // A range dragged on the ruler is the narrower thing asked for than an event's row.
  if (timeRange_.end > timeRange_.start) {
    setVisibleRange(timeRange_);
    return;
  }
  if (parts_.empty() || selected_.event == kNoEvent) return;
  const Event& e =
      parts_[static_cast<std::size_t>(selected_.part)].part.trace->events[selected_.event];
  const TimeNs start = shownStart(selected_);
  const TimeNs margin = std::max<TimeNs>(e.dur / 10, 50);
  setVisibleRange({start - margin, start + e.dur + margin});
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

// ---- lines: part and group headers and rows, top to bottom -------------------------------------

void TimelineView::rebuildLines() {
  lines_.clear();
  int y = 0;
  for (std::size_t p = 0; p < parts_.size(); ++p) {
    PartState& state = parts_[p];
    const LaneLayout& layout = *state.part.layout;
    const auto part = static_cast<std::uint16_t>(p);
    state.rowLine.assign(layout.rows().size(), -1);
    if (multiPart()) {
      lines_.push_back(
          {Line::PartHeader, part, static_cast<std::uint32_t>(p), y, kPartHeaderHeight});
      y += kPartHeaderHeight;
      if (state.folded) continue;
    }
    for (std::uint32_t g = 0; g < layout.groups().size(); ++g) {
      lines_.push_back({Line::GroupHeader, part, g, y, kHeaderHeight});
      y += kHeaderHeight;
      if (state.collapsed[g]) continue;
      for (std::uint32_t t : layout.groups()[g].tracks) {
        const auto& track = layout.tracks()[t];
        for (std::uint32_t r = track.firstRow; r < track.firstRow + track.rowCount; ++r) {
          state.rowLine[r] = static_cast<int>(lines_.size());
          const int h = layout.rows()[r].pythonFrames ? kFoldedRowHeight : kRowHeight;
          lines_.push_back({Line::Row, part, r, y, h});
          y += h;
        }
        y += kTrackGap;
      }
      for (std::uint32_t c : layout.groups()[g].counters) {
        lines_.push_back({Line::Counter, part, c, y, kCounterHeight});
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
  vscroll_->setGeometry(width() - vscroll_->sizeHint().width(), kRulerHeight,
                        vscroll_->sizeHint().width(), area);
  vscroll_->setRange(0, std::max(0, contentHeight_ - area));
  vscroll_->setPageStep(std::max(1, area));
  vscroll_->setSingleStep(kRowHeight);
}

bool TimelineView::isGroupCollapsed(int part, std::uint32_t group) const {
  if (part < 0 || part >= partCount()) return false;
  const auto& collapsed = parts_[static_cast<std::size_t>(part)].collapsed;
  return group < collapsed.size() && collapsed[group];
}

void TimelineView::setGroupCollapsed(int part, std::uint32_t group, bool collapsed) {
  if (part < 0 || part >= partCount()) return;
  auto& flags = parts_[static_cast<std::size_t>(part)].collapsed;
  if (group >= flags.size() || flags[group] == collapsed) return;
  flags[group] = collapsed;
  rebuildLines();
  update();
}

bool TimelineView::isPartCollapsed(int part) const {
  return part >= 0 && part < partCount() && parts_[static_cast<std::size_t>(part)].folded;
}

void TimelineView::setPartCollapsed(int part, bool collapsed) {
  if (part < 0 || part >= partCount() || parts_[static_cast<std::size_t>(part)].folded == collapsed)
    return;
  parts_[static_cast<std::size_t>(part)].folded = collapsed;
  rebuildLines();
  update();
}

void TimelineView::setAllPartsCollapsed(bool collapsed) {
  for (PartState& state : parts_) state.folded = collapsed;
  rebuildLines();
  update();
}

int TimelineView::lineAt(int y) const {
  if (y < kRulerHeight) return -1;
  const int contentY = y - kRulerHeight + vscroll_->value();
  auto it = std::upper_bound(lines_.begin(), lines_.end(), contentY,
                             [](int v, const Line& l) { return v < l.y; });
  if (it == lines_.begin()) return -1;
  --it;
  if (contentY >= it->y + it->height) return -1;
  return static_cast<int>(it - lines_.begin());
}

int TimelineView::counterTop(std::uint32_t counter) const {
  for (const Line& line : lines_)
    if (line.kind == Line::Counter && line.part == currentPart_ && line.index == counter)
      return line.y - vscroll_->value() + kRulerHeight;
  return -1;
}

int TimelineView::partHeaderTop(int part) const {
  for (const Line& line : lines_)
    if (line.kind == Line::PartHeader && line.part == part)
      return line.y - vscroll_->value() + kRulerHeight;
  return -1;
}

int TimelineView::groupHeaderTop(int part, std::uint32_t group) const {
  for (const Line& line : lines_)
    if (line.kind == Line::GroupHeader && line.part == part && line.index == group)
      return line.y - vscroll_->value() + kRulerHeight;
  return -1;
}

int TimelineView::rowHeight(int part, std::uint32_t row) const {
  if (part < 0 || part >= partCount()) return kRowHeight;
  const auto& rowLine = parts_[static_cast<std::size_t>(part)].rowLine;
  if (row >= rowLine.size() || rowLine[row] < 0) return kRowHeight;
  return lines_[static_cast<std::size_t>(rowLine[row])].height;
}

int TimelineView::rowTop(int part, std::uint32_t row) const {
  if (part < 0 || part >= partCount()) return -1;
  const auto& rowLine = parts_[static_cast<std::size_t>(part)].rowLine;
  if (row >= rowLine.size() || rowLine[row] < 0) return -1;
  return lines_[static_cast<std::size_t>(rowLine[row])].y - vscroll_->value() + kRulerHeight;
}

// ---- geometry ----------------------------------------------------------------------------------

void TimelineView::invalidateGeometry() { geometry_.reset(); }

const TimelineView::Geometry& TimelineView::geometry() const {
  const int width = eventAreaWidth();
  const int scroll = vscroll_->value();
  if (geometry_ && geometry_->range == range_ && geometry_->width == width &&
      geometry_->height == height() && geometry_->scroll == scroll)
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
  if (parts_.empty()) return g;
  g.rowSpan.assign(parts_.back().rowBase + parts_.back().part.layout->rows().size(), {0, 0});

  const LineRange lines = visibleLines(scroll);
  for (auto line = lines.first; line != lines.last; ++line)
    if (line->kind == Line::Row) addRowGeometry(g, *line);
  stats_.boxes = g.boxes.size();
  stats_.labels = g.labels.size();
  return g;
}

// The boxes of one row on screen, each in its colour's batch, with the labels and outlines it
// needs.
void TimelineView::addRowGeometry(Geometry& g, const Line& line) const {
  const PartState& state = parts_[line.part];
  const Trace& trace = *state.part.trace;
  const std::uint32_t r = line.index;
  const LayoutRow& row = state.part.layout->rows()[r];
  const Band band = state.part.layout->tracks()[row.track].band;
  const auto begin = static_cast<std::uint32_t>(g.boxes.size());
  // The part's own times: the window moved back by its offset gives the same pixels.
  const TimeRange local{range_.start - state.part.offset, range_.end - state.part.offset};
  buildRowBoxes(trace, row, r, local, g.width, g.boxes);
  g.rowSpan[state.rowBase + r] = {begin, static_cast<std::uint32_t>(g.boxes.size())};
  const double y = line.y - g.scroll + kRulerHeight + 1;
  const double h = line.height - 2;
  const bool partLit = !state.highlightMask.empty();
  for (std::uint32_t b = begin; b < g.boxes.size(); ++b) {
    const TimelineBox& box = g.boxes[b];
    const QRectF rect(labelWidth_ + box.x0, y, std::max(box.x1 - box.x0, 1.0f), h);
    int colour;
    if (box.count == 1) {
      const EventId id = row.events[box.first];
      const Event& e = trace.events[id];
      const bool lit = partLit && state.highlightMask[id];
      colour = state.nameColour[e.name] + (fading_ && !lit ? kFadedOffset : 0);
      // A folded frames' band is too thin for text: its boxes are named by their tooltips.
      if (box.x1 - box.x0 >= kLabelMinPx && line.height >= kRowHeight)
        g.labels.push_back({rect, e.name, colour, line.part});
      if (lit && box.x1 - box.x0 >= 3) g.outlines.push_back(rect);
    } else {
      colour = runColourIndex(band) + (fading_ ? kFadedOffset : 0);
      ++stats_.runs;
      stats_.mergedEvents += box.count;
    }
    g.batches[static_cast<std::size_t>(colour)].push_back(rect);
  }
}

// ---- painting ----------------------------------------------------------------------------------

// What every pass of a frame shares. The passes paint in order, each setting the pen, brush and
// font it draws with, so that none depends on what the one before left in the painter.
struct TimelineView::Frame {
  QPainter& p;
  const Theme& theme;           // the palette's set: a PaletteChange repaints in the new one
  QColor partHeaderBackground;  // a rank's header stands out from its groups' headers
  int areaWidth = 0;
  QRect eventArea;  // right of the labels, below the ruler
  int scroll = 0;
  LineRange lines;  // the lines on screen
  TimeNs origin = 0;
  TimeNs step = 0;  // between the ruler's ticks
};

TimelineView::LineRange TimelineView::visibleLines(int scroll) const {
  const int bottom = scroll + height() - kRulerHeight;
  auto first = std::upper_bound(lines_.begin(), lines_.end(), scroll,
                                [](int v, const Line& l) { return v < l.y; });
  if (first != lines_.begin()) --first;
  const auto last = std::find_if(first, lines_.end(), [&](const Line& l) { return l.y >= bottom; });
  return {first, last};
}

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const Theme& theme = themeFor(*this);
  const int areaWidth = eventAreaWidth();
  const int scroll = vscroll_->value();
  const Frame f{p,
                theme,
                blend(theme.headerBackground, theme.labelText, 0.16),
                areaWidth,
                QRect(labelWidth_, kRulerHeight, areaWidth, height() - kRulerHeight),
                scroll,
                visibleLines(scroll),
                timeOrigin(),
                tickStep(range_.span(), areaWidth, 110)};
  p.fillRect(rect(), theme.background);
  paintBackgrounds(f);
  paintGrid(f);
  if (!parts_.empty()) {
    p.save();
    p.setClipRect(f.eventArea);
    p.setRenderHint(QPainter::Antialiasing, false);
    const Geometry& g = geometry();
    paintBoxes(f, g);
    paintBoxLabels(f, g);
    paintCounters(f);
    paintOutlines(f, g);
    paintSelection(f);
    paintLinkedEvents(f);
    paintPathEdges(f);
    p.restore();
  }
  paintTimeRangeShade(f);
  paintRuler(f);
  paintCorner(f);
  paintLabelColumn(f);
  p.setPen(theme.separator);
  p.drawLine(labelWidth_ - 1, 0, labelWidth_ - 1, height());
}

// Part and group headers, and every other track shaded so rows read as one thread.
void TimelineView::paintBackgrounds(const Frame& f) const {
  for (auto line = f.lines.first; line != f.lines.last; ++line) {
    const int y = line->y - f.scroll + kRulerHeight;
    if (line->kind == Line::PartHeader) {
      f.p.fillRect(QRect(0, y, width(), line->height), f.partHeaderBackground);
    } else if (line->kind == Line::GroupHeader) {
      f.p.fillRect(QRect(0, y, width(), line->height), f.theme.headerBackground);
    } else if (line->kind == Line::Row &&
               parts_[line->part].part.layout->rows()[line->index].track % 2 == 1) {
      f.p.fillRect(QRect(0, y, width(), line->height), f.theme.trackShade);
    }
  }
}

int TimelineView::tickX(const Frame& f, TimeNs t) const {
  return labelWidth_ + static_cast<int>(std::lround(timeToX(t, range_, f.areaWidth)));
}

// Grid lines at the ruler's ticks.
void TimelineView::paintGrid(const Frame& f) const {
  f.p.setPen(f.theme.gridLine);
  for (TimeNs t = firstTickAtOrAfter(range_.start, f.origin, f.step); t <= range_.end;
       t += f.step) {
    const int x = tickX(f, t);
    f.p.drawLine(x, kRulerHeight, x, height());
  }
}

// The boxes, one batch of rectangles per colour.
void TimelineView::paintBoxes(const Frame& f, const Geometry& g) {
  f.p.setPen(Qt::NoPen);
  for (int c = 0; c < kColourCount; ++c) {
    const auto& batch = g.batches[static_cast<std::size_t>(c)];
    if (batch.empty()) continue;
    f.p.setBrush(f.theme.fill(c));
    f.p.drawRects(batch.data(), static_cast<int>(batch.size()));
  }
}

// Names on the boxes wide enough for them, elided to fit.
void TimelineView::paintBoxLabels(const Frame& f, const Geometry& g) const {
  const QFontMetrics metrics(font());
  f.p.setFont(font());
  for (const auto& label : g.labels) {
    const PartState& state = parts_[label.part];
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
}

// Counters: per pixel column, the value at its start joined to the next, and the range of values
// inside it (counterColumns folds the samples of the window).
void TimelineView::paintCounters(const Frame& f) const {
  for (auto line = f.lines.first; line != f.lines.last; ++line) {
    if (line->kind != Line::Counter) continue;
    const PartState& state = parts_[line->part];
    const LayoutCounter& counter = state.part.layout->counters()[line->index];
    const TimeRange local{range_.start - state.part.offset, range_.end - state.part.offset};
    const auto columns =
        counterColumns(state.part.trace->counters[counter.series].samples, local, f.areaWidth);
    const double top = line->y - f.scroll + kRulerHeight + 2, h = kCounterHeight - 4;
    const double span = counter.high - counter.low;
    auto yOf = [&](double v) {
      return span > 0 ? top + h - (v - counter.low) / span * h : top + h / 2;
    };
    QVector<QLineF> segments;
    segments.reserve(static_cast<qsizetype>(columns.size()) * 2);
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const CounterColumn& c = columns[i];
      const double x = labelWidth_ + c.x + 0.5;
      if (c.high > c.low) segments.append(QLineF(x, yOf(c.low), x, yOf(c.high)));
      const double next = i + 1 < columns.size() ? columns[i + 1].first : c.first;
      segments.append(QLineF(x, yOf(c.first), x + 1, yOf(next)));
    }
    f.p.setPen(QPen(f.theme.counterLine, 1));
    f.p.drawLines(segments);
    paintCounterMarks(f, state.part.trace->counters[counter.series].marks, local, top, h, yOf);
  }
}

// A counter's marks (the memory peak): a dashed line across the lane, a diamond at the value and
// the short label beside it, on the side where it fits.
void TimelineView::paintCounterMarks(const Frame& f, const std::vector<CounterMark>& marks,
                                     const TimeRange& local, double top, double h,
                                     const std::function<double(double)>& yOf) const {
  if (marks.empty()) return;
  QFont bold = font();
  bold.setBold(true);
  const QFontMetrics metrics(bold);
  f.p.save();
  f.p.setFont(bold);
  f.p.setRenderHint(QPainter::Antialiasing, true);
  for (const CounterMark& mark : marks) {
    if (mark.time < local.start || mark.time > local.end) continue;
    // On a pixel's centre, so the antialiased line stays one crisp pixel wide.
    const double x = std::floor(labelWidth_ + timeToX(mark.time, local, f.areaWidth)) + 0.5;
    const double y = std::clamp(yOf(mark.value), top + 4, top + h - 4);
    f.p.setPen(QPen(f.theme.counterMark, 1, Qt::DashLine));
    f.p.drawLine(QLineF(x, top, x, top + h));
    f.p.setPen(Qt::NoPen);
    f.p.setBrush(f.theme.counterMark);
    f.p.drawPolygon(QPolygonF({{x, y - 4}, {x + 4, y}, {x, y + 4}, {x - 4, y}}));
    const QString label = QString::fromStdString(mark.label);
    const int w = metrics.horizontalAdvance(label) + 6;
    const double right = labelWidth_ + f.areaWidth;
    const double left = x + 7 + w <= right ? x + 7 : x - 7 - w;
    const QRectF box(left, top + (h - metrics.height()) / 2, w, metrics.height());
    QColor shade = f.theme.background;
    shade.setAlpha(210);
    f.p.setBrush(shade);
    f.p.drawRect(box);
    f.p.setPen(f.theme.counterMark);
    f.p.drawText(box, Qt::AlignCenter, label);
  }
  f.p.restore();
}

// Highlighted events wide enough to be outlined.
void TimelineView::paintOutlines(const Frame& f, const Geometry& g) {
  f.p.setBrush(Qt::NoBrush);
  f.p.setPen(QPen(f.theme.searchOutline, 1.5));
  for (const auto& r : g.outlines) f.p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5));
}

// The selection, and arrows along its flows (launch -> device op).
void TimelineView::paintSelection(const Frame& f) const {
  if (selected_.event == kNoEvent) return;
  const PartState& state = parts_[static_cast<std::size_t>(selected_.part)];
  const Trace& trace = *state.part.trace;
  const LaneLayout& layout = *state.part.layout;
  const TimeNs offset = state.part.offset;
  const int top = rowTop(selected_.part, layout.rowOf(selected_.event));
  if (top >= 0) {
    const Event& e = trace.events[selected_.event];
    const double x0 = std::max(-4.0, timeToX(e.start + offset, range_, f.areaWidth));
    const double x1 = std::min(f.areaWidth + 4.0,
                               std::max(timeToX(e.end() + offset, range_, f.areaWidth), x0 + 3));
    f.p.setBrush(Qt::NoBrush);
    f.p.setPen(QPen(f.theme.selection, 2));
    f.p.drawRect(QRectF(labelWidth_ + x0, top + 0.5, x1 - x0,
                        rowHeight(selected_.part, layout.rowOf(selected_.event)) - 1));
  }
  auto anchor = [&](EventId id) -> std::optional<QPointF> {
    const std::uint32_t row = layout.rowOf(id);
    int top = rowTop(selected_.part, row);
    if (top < 0) {  // in a collapsed group: point at its header, or at its part's
      top = groupHeaderTop(selected_.part, layout.tracks()[layout.rows()[row].track].group);
      if (top < 0) top = partHeaderTop(selected_.part);
    }
    if (top < 0) return std::nullopt;
    const double x =
        std::clamp(timeToX(trace.events[id].start + offset, range_, f.areaWidth), -1e5, 1e5);
    return QPointF(labelWidth_ + x, top + rowHeight(selected_.part, row) / 2.0);
  };
  f.p.setRenderHint(QPainter::Antialiasing, true);
  for (const auto& [from, to] : selectionFlows_) {
    const auto a = anchor(from);
    const auto b = anchor(to);
    if (a && b) paintFlowArrow(f, *a, *b);
  }
  f.p.setRenderHint(QPainter::Antialiasing, false);
}

// A flow from `a` to `b`: a curve leaving and arriving vertically, with an arrow head at `b`.
void TimelineView::paintFlowArrow(const Frame& f, QPointF a, QPointF b) {
  QPainterPath path(a);
  const double bend = std::max(20.0, std::abs(b.y() - a.y()) / 2);
  path.cubicTo(a.x(), a.y() + (b.y() > a.y() ? bend : -bend), b.x(),
               b.y() - (b.y() > a.y() ? bend : -bend), b.x(), b.y());
  f.p.setPen(QPen(f.theme.flow, 1.6));
  f.p.setBrush(Qt::NoBrush);
  f.p.drawPath(path);
  const double dir = b.y() >= a.y() ? -1 : 1;  // the curve arrives vertically
  QPolygonF head;
  head << b << QPointF(b.x() - 4.5, b.y() + dir * 8) << QPointF(b.x() + 4.5, b.y() + dir * 8);
  f.p.setBrush(f.theme.flow);
  f.p.drawPolygon(head);
  f.p.setBrush(Qt::NoBrush);
}

// Linked events (one collective on several ranks): outlined, their starts joined top to bottom.
void TimelineView::paintLinkedEvents(const Frame& f) const {
  if (linked_.empty()) return;
  QPolygonF starts;
  f.p.setBrush(Qt::NoBrush);
  for (const TimelineEvent& linked : linked_) {
    const PartState& state = parts_[static_cast<std::size_t>(linked.part)];
    const LaneLayout& layout = *state.part.layout;
    const std::uint32_t row = layout.rowOf(linked.event);
    if (row == kNoRow) continue;
    const Event& e = state.part.trace->events[linked.event];
    const double x0 =
        std::clamp(timeToX(e.start + state.part.offset, range_, f.areaWidth), -1e5, 1e5);
    const double x1 =
        std::clamp(timeToX(e.end() + state.part.offset, range_, f.areaWidth), -1e5, 1e5);
    int top = rowTop(linked.part, row);
    if (top >= 0) {
      f.p.setPen(QPen(f.theme.flow, 2, Qt::DashLine));
      f.p.drawRect(QRectF(labelWidth_ + x0, top + 1.0, std::max(x1 - x0, 3.0),
                          rowHeight(linked.part, row) - 2.0));
    } else {  // folded away: point at its group's header, or its part's
      top = groupHeaderTop(linked.part, layout.tracks()[layout.rows()[row].track].group);
      if (top < 0) top = partHeaderTop(linked.part);
    }
    if (top >= 0) starts << QPointF(labelWidth_ + x0, top + rowHeight(linked.part, row) / 2.0);
  }
  f.p.setRenderHint(QPainter::Antialiasing, true);
  f.p.setPen(QPen(f.theme.flow, 1.5, Qt::DashLine));
  f.p.drawPolyline(starts);
  f.p.setRenderHint(QPainter::Antialiasing, false);
}

// A critical path's hops between rows (launch to kernel, kernel to the sync that waited on it).
void TimelineView::paintPathEdges(const Frame& f) const {
  if (pathEdges_.empty() || parts_.empty()) return;
  const PartState& state = parts_[static_cast<std::size_t>(currentPart_)];
  const Trace& trace = *state.part.trace;
  const LaneLayout& layout = *state.part.layout;
  auto anchor = [&](EventId id, bool atEnd) -> std::optional<std::pair<std::uint32_t, QPointF>> {
    if (id >= trace.events.size()) return std::nullopt;
    const std::uint32_t row = layout.rowOf(id);
    if (row == kNoRow) return std::nullopt;
    const int top = rowTop(currentPart_, row);
    if (top < 0) return std::nullopt;
    const Event& e = trace.events[id];
    const TimeNs t = (atEnd ? e.end() : e.start) + state.part.offset;
    const double x = std::clamp(timeToX(t, range_, f.areaWidth), -1e5, 1e5);
    return std::pair{row, QPointF(labelWidth_ + x, top + rowHeight(currentPart_, row) / 2.0)};
  };
  f.p.setRenderHint(QPainter::Antialiasing, true);
  for (const auto& [from, to] : pathEdges_) {
    const auto a = anchor(from, true);
    const auto b = anchor(to, false);
    if (a && b && a->first != b->first) paintFlowArrow(f, a->second, b->second);
  }
  f.p.setRenderHint(QPainter::Antialiasing, false);
}

void TimelineView::setPathEdges(std::vector<std::pair<EventId, EventId>> edges) {
  pathEdges_ = std::move(edges);
  update();
}

// The time range selected on the ruler, from x0 to x1 of the event area (clamped to just outside
// it); nullopt when none is selected.
std::optional<std::pair<double, double>> TimelineView::timeRangeXs(const Frame& f) const {
  if (timeRange_.end <= timeRange_.start) return std::nullopt;
  auto x = [&](TimeNs t) {
    return std::clamp(timeToX(t, range_, f.areaWidth), -1.0, f.areaWidth + 1.0);
  };
  return std::pair{x(timeRange_.start), x(timeRange_.end)};
}

// The time range selected on the ruler, shaded over the lanes.
void TimelineView::paintTimeRangeShade(const Frame& f) const {
  const auto xs = timeRangeXs(f);
  if (!xs) return;
  const auto [x0, x1] = *xs;
  f.p.fillRect(
      QRectF(labelWidth_ + x0, kRulerHeight, std::max(1.0, x1 - x0), height() - kRulerHeight),
      f.theme.rangeShade);
}

// The ruler: ticks labelled from the time origin, and the selected time range with its span.
void TimelineView::paintRuler(const Frame& f) const {
  f.p.fillRect(QRect(0, 0, width(), kRulerHeight), f.theme.rulerBackground);
  f.p.setPen(f.theme.rulerText);
  for (TimeNs t = firstTickAtOrAfter(range_.start, f.origin, f.step); t <= range_.end;
       t += f.step) {
    const int x = tickX(f, t);
    if (x < labelWidth_) continue;
    f.p.drawLine(x, kRulerHeight - 6, x, kRulerHeight);
    f.p.drawText(QRect(x + 3, 0, 200, kRulerHeight - 4), Qt::AlignLeft | Qt::AlignVCenter,
                 QString::fromStdString(tickLabel(t - f.origin, f.step)));
  }
  f.p.drawLine(0, kRulerHeight - 1, width(), kRulerHeight - 1);
  if (const auto xs = timeRangeXs(f)) {
    const auto [x0, x1] = *xs;
    const QRectF band(labelWidth_ + x0, 0, std::max(1.0, x1 - x0), kRulerHeight - 1);
    f.p.fillRect(band, f.theme.rangeRuler);
    f.p.setPen(f.theme.rangeRulerText);
    f.p.drawText(band, Qt::AlignCenter, durationText(timeRange_.span()));
  }
}

// The ruler's corner over the label column: the window's span, and how the parts share the axis.
void TimelineView::paintCorner(const Frame& f) const {
  f.p.fillRect(QRect(0, kRulerHeight, labelWidth_, height() - kRulerHeight),
               f.theme.labelBackground);
  f.p.fillRect(QRect(0, 0, labelWidth_, kRulerHeight - 1), f.theme.rulerBackground);
  f.p.setPen(f.theme.rulerText);
  const QString corner = tr("window %1").arg(durationText(range_.span()));
  const QRect cornerRect(8, 0, labelWidth_ - 12, kRulerHeight - 2);
  if (axisNote_.isEmpty()) {
    f.p.drawText(cornerRect, Qt::AlignVCenter | Qt::AlignLeft, corner);
    return;
  }
  // Two small lines: the window's span, and the note.
  QFont small = font();
  small.setPointSizeF(font().pointSizeF() * 0.85);
  f.p.save();
  f.p.setFont(small);
  const QFontMetrics metrics(small);
  const QRect top(cornerRect.left(), 1, cornerRect.width(), kRulerHeight / 2 - 1);
  const QRect bottom(cornerRect.left(), kRulerHeight / 2 - 1, cornerRect.width(),
                     kRulerHeight / 2 - 1);
  f.p.drawText(top, Qt::AlignVCenter | Qt::AlignLeft, corner);
  f.p.drawText(bottom, Qt::AlignVCenter | Qt::AlignLeft,
               metrics.elidedText(axisNote_, Qt::ElideRight, bottom.width()));
  f.p.restore();
}

// The label column: part and group headers with their fold arrows, counters with their extent,
// and each track's band, label and thread name; a hint where nothing is loaded.
void TimelineView::paintLabelColumn(const Frame& f) const {
  if (parts_.empty()) {
    f.p.setPen(f.theme.labelDimText);
    f.p.drawText(f.eventArea, Qt::AlignCenter,
                 tr("Open a trace: File > Open Trace Directory... or drop files here"));
    return;
  }
  f.p.setClipRect(QRect(0, kRulerHeight, labelWidth_, height() - kRulerHeight));
  QFont bold = font();
  bold.setBold(true);
  QFont small = font();
  small.setPointSizeF(font().pointSizeF() * 0.9);
  for (auto line = f.lines.first; line != f.lines.last; ++line) {
    const int y = line->y - f.scroll + kRulerHeight;
    switch (line->kind) {
      case Line::PartHeader:
        paintPartHeaderLabel(f, *line, y, bold);
        break;
      case Line::GroupHeader:
        paintGroupHeaderLabel(f, *line, y, bold);
        break;
      case Line::Counter:
        paintCounterLabel(f, *line, y);
        break;
      case Line::Row:
        paintRowLabel(f, *line, y, small);
        break;
    }
  }
  f.p.setClipping(false);
}

void TimelineView::paintPartHeaderLabel(const Frame& f, const Line& line, int y,
                                        const QFont& bold) const {
  const PartState& state = parts_[line.part];
  f.p.fillRect(QRect(0, y, labelWidth_, line.height), f.partHeaderBackground);
  f.p.setFont(bold);
  f.p.setPen(f.theme.labelText);
  const QString arrow = state.folded ? QStringLiteral("\u25B8 ") : QStringLiteral("\u25BE ");
  // A rank's header band holds no events: its label may run on across the whole width.
  f.p.save();
  f.p.setClipRect(QRect(0, kRulerHeight, width(), height() - kRulerHeight));
  drawLabel(f.p, QRect(4, y, width() - 8, line.height), arrow + state.part.label);
  f.p.restore();
}

void TimelineView::paintGroupHeaderLabel(const Frame& f, const Line& line, int y,
                                         const QFont& bold) const {
  const PartState& state = parts_[line.part];
  const LayoutGroup& group = state.part.layout->groups()[line.index];
  f.p.fillRect(QRect(0, y, labelWidth_, line.height), f.theme.headerBackground);
  f.p.setFont(bold);
  f.p.setPen(f.theme.labelText);
  const QString arrow =
      state.collapsed[line.index] ? QStringLiteral("\u25B8 ") : QStringLiteral("\u25BE ");
  const int indent = multiPart() ? 14 : 6;
  drawLabel(f.p, QRect(indent, y, labelWidth_ - indent - 4, line.height),
            arrow + QString::fromStdString(group.label));
}

void TimelineView::paintCounterLabel(const Frame& f, const Line& line, int y) const {
  const LayoutCounter& counter = parts_[line.part].part.layout->counters()[line.index];
  f.p.fillRect(QRect(10, y + 2, 4, line.height - 4), f.theme.counterLine);
  f.p.setFont(font());
  f.p.setPen(f.theme.labelText);
  drawLabel(
      f.p, QRect(20, y, labelWidth_ - 24, line.height),
      QString::fromStdString(counter.label) +
          QStringLiteral("  (%1 .. %2)").arg(counter.low, 0, 'g', 4).arg(counter.high, 0, 'g', 4));
}

// A track's first row carries its band colour and label, its second the thread's name; a band of
// folded Python frames above them says how deep the frames go.
void TimelineView::paintRowLabel(const Frame& f, const Line& line, int y,
                                 const QFont& small) const {
  const LaneLayout& layout = *parts_[line.part].part.layout;
  const LayoutRow& row = layout.rows()[line.index];
  const LayoutTrack& track = layout.tracks()[row.track];
  if (row.depth == 0) {
    const int trackHeight = static_cast<int>(track.rowCount) * kRowHeight -
                            (track.foldedPythonDepth > 0 ? kRowHeight - kFoldedRowHeight : 0);
    f.p.fillRect(QRect(10, y + 1, 4, trackHeight - 2), f.theme.band(track.band));
  }
  if (row.pythonFrames) {
    QFont tiny = font();
    tiny.setPointSizeF(font().pointSizeF() * 0.7);
    f.p.setFont(tiny);
    f.p.setPen(f.theme.labelDimText);
    drawLabel(f.p, QRect(20, y, labelWidth_ - 24, line.height),
              tr("\u25B8 Python frames, %n deep", nullptr, track.foldedPythonDepth));
    return;
  }
  const int depth = row.depth - (track.foldedPythonDepth > 0 ? 1 : 0);  // under the frames' band
  if (depth == 0) {
    f.p.setFont(font());
    f.p.setPen(f.theme.labelText);
    drawLabel(f.p, QRect(20, y, labelWidth_ - 24, kRowHeight),
              QString::fromStdString(track.shortLabel));
  } else if (depth == 1 && !track.threadName.empty()) {
    f.p.setFont(small);
    f.p.setPen(f.theme.labelDimText);
    drawLabel(f.p, QRect(20, y, labelWidth_ - 24, kRowHeight),
              QString::fromStdString(track.threadName));
  }
}

void TimelineView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  const int labels = labelWidth_;
  updateLabelWidth();
  if (labelWidth_ != labels) invalidateGeometry();
  updateScrollBar();
}

// ---- hit testing -------------------------------------------------------------------------------

TimelineView::BoxHit TimelineView::boxAt(const QPoint& pos) const {
  if (parts_.empty() || pos.x() < labelWidth_ || pos.x() >= labelWidth_ + eventAreaWidth())
    return {};
  const int line = lineAt(pos.y());
  if (line < 0 || lines_[static_cast<std::size_t>(line)].kind != Line::Row) return {};
  const Line& l = lines_[static_cast<std::size_t>(line)];
  const Geometry& g = geometry();
  const auto [begin, end] = g.rowSpan[parts_[l.part].rowBase + l.index];
  const double x = pos.x() - labelWidth_;
  // Boxes of a row are in x order and do not overlap (merged runs absorb their neighbours).
  auto it = std::lower_bound(g.boxes.begin() + begin, g.boxes.begin() + end, x - 1.0,
                             [](const TimelineBox& b, double v) { return b.x1 < v; });
  const TimelineBox* best = nullptr;
  for (; it != g.boxes.begin() + end && it->x0 <= x + 1.0; ++it)
    best = &*it;  // the last box starting at or before the cursor: the innermost at its edge
  if (!best) return {};
  const TimelinePart& shown = parts_[static_cast<std::size_t>(l.part)].part;
  return {static_cast<int>(l.part), best, &shown, &shown.layout->rows()[best->row]};
}

std::pair<TimeNs, TimeNs> TimelineView::BoxHit::runSpan() const {
  const auto& events = shown->trace->events;
  const TimeNs start = events[row->events[box->first]].start;
  TimeNs end = start;
  for (std::uint32_t i = box->first; i < box->first + box->count; ++i)
    end = std::max(end, events[row->events[i]].end());
  return {start, end};
}

TimelineEvent TimelineView::hitAt(const QPoint& pos) const {
  const BoxHit hit = boxAt(pos);
  if (!hit.box) return {};
  const LayoutRow& row = *hit.row;
  if (hit.box->count == 1) return {hit.part, row.events[hit.box->first]};
  // In a run: the event that starts last at or before the cursor's time.
  const TimeNs t = xToTime(pos.x() - labelWidth_, range_, eventAreaWidth()) - hit.shown->offset;
  const auto begin = row.events.begin() + hit.box->first;
  const auto end = begin + hit.box->count;
  const Trace& trace = *hit.shown->trace;
  auto it = std::upper_bound(begin, end, t,
                             [&](TimeNs v, EventId id) { return v < trace.events[id].start; });
  return {hit.part, it == begin ? *begin : *(it - 1)};
}

TimelineView::MarkHit TimelineView::markAt(const QPoint& pos) const {
  constexpr double kTolerancePx = 5;
  if (parts_.empty() || pos.x() < labelWidth_ || pos.x() >= labelWidth_ + eventAreaWidth())
    return {};
  const int line = lineAt(pos.y());
  if (line < 0 || lines_[static_cast<std::size_t>(line)].kind != Line::Counter) return {};
  const Line& l = lines_[static_cast<std::size_t>(line)];
  const TimelinePart& shown = parts_[l.part].part;
  const auto& marks = shown.trace->counters[shown.layout->counters()[l.index].series].marks;
  const TimeRange local{range_.start - shown.offset, range_.end - shown.offset};
  const int i = counterMarkAt(marks, local, eventAreaWidth(), pos.x() - labelWidth_, kTolerancePx);
  if (i < 0) return {};
  return {static_cast<int>(l.part), &marks[static_cast<std::size_t>(i)]};
}

QString TimelineView::toolTipAt(const QPoint& pos) const {
  if (const MarkHit m = markAt(pos); m.mark) {
    const TimelinePart& shown = parts_[static_cast<std::size_t>(m.part)].part;
    QStringList lines = QString::fromStdString(m.mark->detail).toHtmlEscaped().split('\n');
    lines[0] = QStringLiteral("<b>%1</b>").arg(lines[0]);
    lines.insert(1, tr("at +%1").arg(durationText(m.mark->time - (timeOrigin() - shown.offset))));
    if (m.mark->event != kNoEvent) lines.append(tr("<i>click to select the op</i>"));
    return lines.join(QStringLiteral("<br>"));
  }
  const BoxHit hit = boxAt(pos);
  if (!hit.box) return {};
  const TimelineBox* box = hit.box;
  const Trace& trace = *hit.shown->trace;
  const LayoutRow& row = *hit.row;
  const LayoutTrack& track = hit.shown->layout->tracks()[row.track];
  // Times read on the shared axis, as the ruler counts them.
  const TimeNs origin = timeOrigin() - hit.shown->offset;
  if (box->count > 1) {
    const auto [start, end] = hit.runSpan();
    return tr("<b>%1 events</b>, each narrower than a pixel<br>from +%2 for "
              "%3<br>%4<br><i>double-click to zoom in</i>")
        .arg(box->count)
        .arg(durationText(start - origin), durationText(end - start),
             QString::fromStdString(track.label).toHtmlEscaped());
  }
  const EventId id = row.events[box->first];
  const Event& e = trace.events[id];
  return tr("<b>%1</b><br>duration: %2<br>start: +%3<br>category: %4<br>lane: %5")
      .arg(QString::fromUtf8(trace.name(e)).toHtmlEscaped(), durationText(e.dur),
           durationText(e.start - origin), QString::fromUtf8(trace.category(e)).toHtmlEscaped(),
           QString::fromStdString(track.label).toHtmlEscaped());
}

// ---- selection, highlight, search --------------------------------------------------------------

void TimelineView::selectEvent(int part, EventId event, bool reveal) {
  if (part < 0 || part >= partCount()) {
    part = currentPart_;
    event = kNoEvent;
  }
  if (parts_.empty() || event >= parts_[static_cast<std::size_t>(part)].part.trace->events.size())
    event = kNoEvent;
  const TimelineEvent next{part, event};
  const bool changed = !(next == selected_) && !(event == kNoEvent && selected_.event == kNoEvent);
  selected_ = next;
  if (event != kNoEvent) currentPart_ = part;
  computeSelectionFlows();
  if (reveal && event != kNoEvent) revealEvent(selected_);
  update();
  if (changed) emit selectionChanged(selected_.event);
}

void TimelineView::computeSelectionFlows() {
  selectionFlows_.clear();
  if (parts_.empty() || selected_.event == kNoEvent) return;
  const Trace& trace = *parts_[static_cast<std::size_t>(selected_.part)].part.trace;
  const EventId selected = selected_.event;
  // The selection and its descendants are one contiguous range of its lane: flows leaving an aten
  // op start at the runtime calls inside it.
  const Event& s = trace.events[selected];
  const EventId laneEnd = trace.lanes[s.lane].endEvent;
  EventId last = selected + 1;
  while (last < laneEnd && trace.events[last].start < s.end() && trace.events[last].depth > s.depth)
    ++last;
  for (const Flow& flow : trace.flows)
    if ((flow.from >= selected && flow.from < last) || (flow.to >= selected && flow.to < last))
      selectionFlows_.emplace_back(flow.from, flow.to);
}

void TimelineView::revealRow(int part, std::uint32_t row) {
  if (part < 0 || part >= partCount()) return;
  const PartState& state = parts_[static_cast<std::size_t>(part)];
  const LaneLayout& layout = *state.part.layout;
  if (row >= layout.rows().size()) return;
  if (isPartCollapsed(part)) setPartCollapsed(part, false);
  const std::uint32_t group = layout.tracks()[layout.rows()[row].track].group;
  if (isGroupCollapsed(part, group)) setGroupCollapsed(part, group, false);
  const int line = state.rowLine[row];
  if (line < 0) return;
  const int y = lines_[static_cast<std::size_t>(line)].y;
  const int area = height() - kRulerHeight;
  if (y < vscroll_->value() || y + rowHeight(part, row) > vscroll_->value() + area)
    vscroll_->setValue(y - area / 3);
}

void TimelineView::revealEvent(TimelineEvent event) {
  const PartState& state = parts_[static_cast<std::size_t>(event.part)];
  const std::uint32_t row = state.part.layout->rowOf(event.event);
  if (row == kNoRow) return;
  revealRow(event.part, row);
  const Event& e = state.part.trace->events[event.event];
  const TimeNs start = e.start + state.part.offset;
  if (start >= range_.start && start + e.dur <= range_.end) return;
  if (e.dur * 10 > range_.span() * 8) {
    fitSelection();
  } else {
    const TimeNs centre = start + e.dur / 2;
    setVisibleRange({centre - range_.span() / 2, centre - range_.span() / 2 + range_.span()});
  }
}

void TimelineView::setLinkedEvents(std::vector<TimelineEvent> events) {
  std::erase_if(events, [&](const TimelineEvent& e) {
    return e.part < 0 || e.part >= partCount() ||
           e.event >= parts_[static_cast<std::size_t>(e.part)].part.trace->events.size();
  });
  std::stable_sort(events.begin(), events.end(),
                   [](const TimelineEvent& a, const TimelineEvent& b) { return a.part < b.part; });
  linked_ = std::move(events);
  update();
}

const std::vector<EventId>& TimelineView::highlightedOn(int part) const {
  static const std::vector<EventId> kNone;
  if (part < 0 || part >= partCount()) return kNone;
  return parts_[static_cast<std::size_t>(part)].highlighted;
}

void TimelineView::applyHighlights(const std::vector<TimelineEvent>& events) {
  for (PartState& state : parts_) {
    state.highlighted.clear();
    state.highlightMask.clear();
  }
  for (const TimelineEvent& e : events) {
    if (e.part < 0 || e.part >= partCount()) continue;
    PartState& state = parts_[static_cast<std::size_t>(e.part)];
    if (e.event >= state.part.trace->events.size()) continue;
    if (state.highlightMask.empty())
      state.highlightMask.assign(state.part.trace->events.size(), false);
    state.highlightMask[e.event] = true;
    state.highlighted.push_back(e.event);
  }
  fading_ = !events.empty();
  invalidateGeometry();
  update();
}

void TimelineView::setHighlighted(std::vector<EventId> events) {
  std::vector<TimelineEvent> refs;
  refs.reserve(events.size());
  for (EventId id : events) refs.push_back({currentPart_, id});
  applyHighlights(refs);
}

int TimelineView::search(const QString& pattern, bool regex) {
  if (parts_.empty() || pattern.isEmpty()) {
    clearSearch();
    return 0;
  }
  std::optional<QRegularExpression> re;
  if (regex) {
    re.emplace(pattern, QRegularExpression::CaseInsensitiveOption);
    if (!re->isValid()) return -1;
  }
  std::vector<TimelineEvent> matches;
  for (int part = 0; part < partCount(); ++part) {
    const Trace& trace = *parts_[static_cast<std::size_t>(part)].part.trace;
    std::vector<bool> nameMatches(trace.names.size(), false);
    for (StringId id = 1; id < trace.names.size(); ++id) {
      const QString name = QString::fromUtf8(trace.names.view(id));
      nameMatches[id] =
          re ? re->match(name).hasMatch() : name.contains(pattern, Qt::CaseInsensitive);
    }
    for (EventId i = 0; i < trace.events.size(); ++i)
      if (nameMatches[trace.events[i].name]) matches.push_back({part, i});
  }
  applyMatches(std::move(matches));
  return matchCount();
}

void TimelineView::clearSearch() { applyMatches({}); }

void TimelineView::showMatches(const std::vector<EventId>& events) {
  std::vector<TimelineEvent> refs;
  refs.reserve(events.size());
  for (EventId id : events) refs.push_back({currentPart_, id});
  applyMatches(std::move(refs));
}

void TimelineView::applyMatches(std::vector<TimelineEvent> matches) {
  std::erase_if(matches, [&](const TimelineEvent& e) {
    return e.part < 0 || e.part >= partCount() ||
           e.event >= parts_[static_cast<std::size_t>(e.part)].part.trace->events.size();
  });
  std::sort(matches.begin(), matches.end(), [&](const TimelineEvent& a, const TimelineEvent& b) {
    const TimeNs sa = shownStart(a), sb = shownStart(b);
    if (sa != sb) return sa < sb;
    return a.part != b.part ? a.part < b.part : a.event < b.event;
  });
  matches_ = std::move(matches);
  currentMatch_ = -1;
  applyHighlights(matches_);
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
                               [&](const TimelineEvent& e, TimeNs t) { return shownStart(e) < t; });
    next = it == matches_.end() ? 0 : static_cast<int>(it - matches_.begin());
  }
  currentMatch_ = next;
  const TimelineEvent match = matches_[static_cast<std::size_t>(next)];
  selectEvent(match.part, match.event, true);
  emit matchesChanged(currentMatch_, matchCount());
}

void TimelineView::previousMatch() {
  if (matches_.empty()) return;
  int previous = matchCount() - 1;
  if (currentMatch_ >= 0) {
    previous = (currentMatch_ + matchCount() - 1) % matchCount();
  } else {
    auto it = std::lower_bound(matches_.begin(), matches_.end(), range_.end,
                               [&](const TimelineEvent& e, TimeNs t) { return shownStart(e) < t; });
    previous =
        it == matches_.begin() ? matchCount() - 1 : static_cast<int>(it - matches_.begin()) - 1;
  }
  currentMatch_ = previous;
  const TimelineEvent match = matches_[static_cast<std::size_t>(previous)];
  selectEvent(match.part, match.event, true);
  emit matchesChanged(currentMatch_, matchCount());
}

// ---- input -------------------------------------------------------------------------------------

void TimelineView::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (event->modifiers() & Qt::ControlModifier) {
    const double x = event->position().x() - labelWidth_;
    const TimeNs anchor =
        xToTime(std::clamp(x, 0.0, double(eventAreaWidth())), range_, eventAreaWidth());
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
  rangeDrag_ = !parts_.empty() && pressPos_.y() < kRulerHeight && pressPos_.x() >= labelWidth_;
  setFocus();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
  if (!pressed_) return;
  const QPoint delta = event->position().toPoint() - pressPos_;
  if (!dragging_ && delta.manhattanLength() < QApplication::startDragDistance()) return;
  dragging_ = true;
  if (rangeDrag_) {
    const auto timeAt = [&](int x) {
      return xToTime(std::clamp(double(x - labelWidth_), 0.0, double(eventAreaWidth())), range_,
                     eventAreaWidth());
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
    if (!(timeRange_.end > timeRange_.start) || pressPos_ == event->position().toPoint())
      timeRange_ = {0, 0};
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
  if (line >= 0 && lines_[static_cast<std::size_t>(line)].kind == Line::PartHeader) {
    const int part = lines_[static_cast<std::size_t>(line)].part;
    setPartCollapsed(part, !isPartCollapsed(part));
    return;
  }
  if (line >= 0 && lines_[static_cast<std::size_t>(line)].kind == Line::GroupHeader) {
    const Line& header = lines_[static_cast<std::size_t>(line)];
    setGroupCollapsed(header.part, header.index, !isGroupCollapsed(header.part, header.index));
    return;
  }
  if (const MarkHit m = markAt(pos); m.mark && m.mark->event != kNoEvent) {
    selectEvent(m.part, m.mark->event, true);
    return;
  }
  if (pos.x() >= labelWidth_) {
    const TimelineEvent hit = hitAt(pos);
    selectEvent(hit.event == kNoEvent ? currentPart_ : hit.part, hit.event, false);
  }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
  const BoxHit hit = boxAt(event->position().toPoint());
  if (!hit.box) return;
  const TimelinePart& shown = *hit.shown;
  if (hit.box->count > 1) {
    const auto [start, end] = hit.runSpan();
    const TimeNs margin = std::max<TimeNs>((end - start) / 10, 10);
    setVisibleRange({start + shown.offset - margin, end + shown.offset + margin});
  } else {
    emit eventActivated(hit.row->events[hit.box->first]);
  }
}

bool TimelineView::pressKey(int key) {
  switch (key) {
    case Qt::Key_W:
      zoomBy(0.8);
      return true;
    case Qt::Key_S:
      zoomBy(1.25);
      return true;
    case Qt::Key_A:
      panBy(-0.15);
      return true;
    case Qt::Key_D:
      panBy(0.15);
      return true;
    case Qt::Key_F:
      fitSelection();
      return true;
    case Qt::Key_0:
      fitAll();
      return true;
    case Qt::Key_Escape:
      selectEvent(kNoEvent, false);
      return true;
    default:
      return false;
  }
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
  if (!pressKey(event->key())) return QWidget::keyPressEvent(event);
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
