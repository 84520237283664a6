// SPDX-License-Identifier: MIT
#include "timeline_view.h"

#include <QApplication>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QTimer>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <optional>

#include "theme.h"

namespace sutra::widgets {

using namespace timeline;

namespace {

// `a` moved a fraction `t` of the way towards `b`.
QColor blend(const QColor& a, const QColor& b, double t) {
  return QColor::fromRgbF(static_cast<float>(a.redF() + (b.redF() - a.redF()) * t),
                          static_cast<float>(a.greenF() + (b.greenF() - a.greenF()) * t),
                          static_cast<float>(a.blueF() + (b.blueF() - a.blueF()) * t));
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent) {
  setAttribute(Qt::WA_OpaquePaintEvent);
  setFocusPolicy(Qt::StrongFocus);
  setMouseTracking(true);
  setMinimumSize(400, 160);
  vscroll_ = new QScrollBar(Qt::Vertical, this);
  connect(vscroll_, &QScrollBar::valueChanged, this, [this] { update(); });
  detailRetry_ = new QTimer(this);
  detailRetry_->setSingleShot(true);
  detailRetry_->setInterval(kDetailRetryMs);
  connect(detailRetry_, &QTimer::timeout, this, [this] {
    invalidateGeometry();
    update();
  });
}

TimelineView::~TimelineView() = default;

const TimelineScene& TimelineView::scene() const {
  scene_.width = width();
  scene_.height = height();
  scene_.areaWidth = eventAreaWidth();
  scene_.scroll = vscroll_->value();
  scene_.font = font();
  return scene_;
}

void TimelineView::updateLabelWidth() {
  const QFontMetrics metrics(font());
  const QFontMetrics boldMetrics(QFont(font().family(), font().pointSize(), QFont::Bold));
  int widest = 0;
  for (const PartState& state : scene_.parts) {
    for (const auto& track : state.part.layout->tracks())
      widest =
          std::max(widest, metrics.horizontalAdvance(QString::fromStdString(track.shortLabel)));
    for (const auto& group : state.part.layout->groups())
      widest =
          std::max(widest, boldMetrics.horizontalAdvance(QString::fromStdString(group.label)) + 10);
    if (scene_.multiPart())
      widest = std::max(widest, boldMetrics.horizontalAdvance(state.part.label) + 10);
  }
  // At most a quarter of the view, so that the events keep most of a small window; views stacked on
  // one time axis (a minimum width set) keep the width they share.
  const int widestAllowed = minimumLabelWidth_ > 0 ? 380 : std::clamp(width() / 4, 120, 380);
  if (!scene_.parts.empty())
    scene_.labelWidth = std::max(
        std::clamp(widest + 24, std::min(180, widestAllowed), widestAllowed), minimumLabelWidth_);
}

void TimelineView::setTrace(std::shared_ptr<const Trace> trace,
                            std::shared_ptr<const LaneLayout> layout) {
  std::vector<TimelinePart> parts;
  if (trace && layout) parts.push_back({std::move(trace), std::move(layout), {}, 0});
  setParts(std::move(parts));
}

void TimelineView::setParts(std::vector<TimelinePart> parts) {
  scene_.parts.clear();
  currentPart_ = 0;
  selected_ = {};
  timeRange_ = {0, 0};
  selectionFlows_.clear();
  scene_.fading = false;
  matches_ = {};
  linked_.clear();
  pathEdges_.clear();
  std::uint32_t rowBase = 0;
  for (auto& part : parts) {
    if (!part.trace || !part.layout) continue;
    scene_.parts.push_back(TimelineScene::makePart(std::move(part)));
    scene_.parts.back().rowBase = rowBase;
    rowBase += static_cast<std::uint32_t>(scene_.parts.back().part.layout->rows().size());
  }
  updateLabelWidth();
  rebuildLines();
  scene_.range = {};
  setVisibleRange(boundsRange());
  invalidateGeometry();
  update();
}

void TimelineView::addPart(TimelinePart part) {
  if (!part.trace || !part.layout) return;
  if (scene_.parts.empty()) return setParts({std::move(part)});
  const bool showingAll = scene_.range == boundsRange();
  const PartState& last = scene_.parts.back();
  const std::uint32_t rowBase =
      last.rowBase + static_cast<std::uint32_t>(last.part.layout->rows().size());
  scene_.parts.push_back(TimelineScene::makePart(std::move(part)));
  scene_.parts.back().rowBase = rowBase;
  updateLabelWidth();
  rebuildLines();
  setVisibleRange(showingAll ? boundsRange() : scene_.range);
  invalidateGeometry();
  update();
}

void TimelineView::clear() { setTrace(nullptr, nullptr); }

void TimelineView::setLayouts(const std::vector<std::shared_ptr<const LaneLayout>>& layouts) {
  std::uint32_t rowBase = 0;
  for (std::size_t i = 0; i < scene_.parts.size(); ++i) {
    PartState& state = scene_.parts[i];
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
  const bool showingAll = scene_.range == boundsRange();
  for (std::size_t i = 0; i < scene_.parts.size() && i < offsets.size(); ++i)
    scene_.parts[i].part.offset = offsets[i];
  if (!matches_.empty()) {
    const int current = matches_.current();
    std::vector<PartEvent> events = matches_.events();
    applyMatches(TimelineMatches::of(std::move(events), searchParts()));  // their order may change
    matches_.setCurrent(current);
  }
  setVisibleRange(showingAll ? boundsRange() : scene_.range);
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
  for (const PartState& state : scene_.parts) {
    const TimeNs start = state.part.trace->startNs + state.part.offset;
    origin = origin ? std::min(*origin, start) : start;
  }
  return origin.value_or(0);
}

TimeNs TimelineView::shownStart(const TimelineEvent& e) const {
  const PartState& state = scene_.part(e.part);
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
  for (const PartState& state : scene_.parts) {
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
  setVisibleRange(scene_.range);  // clamped anew
}

void TimelineView::setMinimumLabelWidth(int width) {
  minimumLabelWidth_ = width;
  if (scene_.labelWidth >= width) return;
  scene_.labelWidth = width;
  invalidateGeometry();
  update();
}

int TimelineView::eventAreaWidth() const {
  return std::max(1, width() - scene_.labelWidth - vscroll_->sizeHint().width());
}

void TimelineView::setVisibleRange(TimeRange range) {
  range = clampRange(range, boundsRange());
  if (range == scene_.range) return;
  scene_.range = range;
  update();
  emit visibleRangeChanged(range.start, range.end);
}

void TimelineView::fitAll() { setVisibleRange(boundsRange()); }

void TimelineView::fitSelection() {
  // A range dragged on the ruler is the narrower thing asked for than an event's row.
  if (timeRange_.end > timeRange_.start) {
    setVisibleRange(timeRange_);
    return;
  }
  if (scene_.parts.empty() || selected_.event == kNoEvent) return;
  const Event& e = scene_.part(selected_.part).part.trace->events[selected_.event];
  const TimeNs start = shownStart(selected_);
  const TimeNs margin = std::max<TimeNs>(e.dur / 10, 50);
  setVisibleRange({start - margin, start + e.dur + margin});
}

double TimelineView::anchorX() const {
  const QPoint cursor = mapFromGlobal(QCursor::pos());
  const double x = cursor.x() - scene_.labelWidth;
  if (rect().contains(cursor) && x >= 0 && x < eventAreaWidth()) return x;
  return eventAreaWidth() / 2.0;
}

void TimelineView::zoomBy(double factor) {
  const TimeNs anchor = xToTime(anchorX(), scene_.range, eventAreaWidth());
  setVisibleRange(zoomAround(scene_.range, anchor, factor));
}

void TimelineView::panBy(double fraction) {
  setVisibleRange(panByFraction(scene_.range, fraction));
}

// ---- lines: part and group headers, rows and counters, top to bottom ---------------------------

void TimelineView::rebuildLines() {
  scene_.rebuildLines();
  updateScrollBar();
  invalidateGeometry();
}

void TimelineView::updateScrollBar() {
  const int area = std::max(0, height() - kRulerHeight);
  vscroll_->setGeometry(width() - vscroll_->sizeHint().width(), kRulerHeight,
                        vscroll_->sizeHint().width(), area);
  vscroll_->setRange(0, std::max(0, scene_.contentHeight - area));
  vscroll_->setPageStep(std::max(1, area));
  vscroll_->setSingleStep(kRowHeight);
}

bool TimelineView::isGroupCollapsed(int part, std::uint32_t group) const {
  if (part < 0 || part >= partCount()) return false;
  const auto& collapsed = scene_.part(part).collapsed;
  return group < collapsed.size() && collapsed[group];
}

void TimelineView::setGroupCollapsed(int part, std::uint32_t group, bool collapsed) {
  if (part < 0 || part >= partCount()) return;
  auto& flags = scene_.parts[static_cast<std::size_t>(part)].collapsed;
  if (group >= flags.size() || flags[group] == collapsed) return;
  flags[group] = collapsed;
  rebuildLines();
  update();
}

bool TimelineView::isPartCollapsed(int part) const {
  return part >= 0 && part < partCount() && scene_.part(part).folded;
}

void TimelineView::setPartCollapsed(int part, bool collapsed) {
  if (part < 0 || part >= partCount() || scene_.part(part).folded == collapsed) return;
  scene_.parts[static_cast<std::size_t>(part)].folded = collapsed;
  rebuildLines();
  update();
}

void TimelineView::setAllPartsCollapsed(bool collapsed) {
  for (PartState& state : scene_.parts) state.folded = collapsed;
  rebuildLines();
  update();
}

int TimelineView::counterTop(std::uint32_t counter) const {
  return scene().counterTop(currentPart_, counter);
}

int TimelineView::partHeaderTop(int part) const { return scene().partHeaderTop(part); }

int TimelineView::groupHeaderTop(int part, std::uint32_t group) const {
  return scene().groupHeaderTop(part, group);
}

int TimelineView::rowTop(int part, std::uint32_t row) const { return scene().rowTop(part, row); }

int TimelineView::rowHeight(int part, std::uint32_t row) const {
  return scene_.rowHeight(part, row);
}

// ---- painting: each item its passes, in order
// ----------------------------------------------------

void TimelineView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  const TimelineScene& s = scene();
  const Theme& theme = themeFor(*this);
  const TimelineFrame f{p,
                        theme,
                        blend(theme.headerBackground, theme.labelText, 0.16),
                        QRect(s.labelWidth, kRulerHeight, s.areaWidth, height() - kRulerHeight),
                        s.visibleLines(),
                        timeOrigin(),
                        tickStep(s.range.span(), s.areaWidth, 110)};
  p.fillRect(rect(), theme.background);
  headers_.paintBackgrounds(f);
  ruler_.paintGrid(f);
  if (!s.parts.empty()) {
    p.save();
    p.setClipRect(f.eventArea);
    p.setRenderHint(QPainter::Antialiasing, false);
    rows_.paint(f);
    if (rows_.lastFrameStats().pendingRows > 0 && !detailRetry_->isActive()) detailRetry_->start();
    counters_.paint(f);
    overlays_.paintSelection(f, selected_, selectionFlows_);
    overlays_.paintLinkedEvents(f, linked_);
    overlays_.paintPathEdges(f, currentPart_, pathEdges_);
    p.restore();
  }
  ruler_.paintRangeShade(f, timeRange_);
  ruler_.paintRuler(f, timeRange_);
  ruler_.paintCorner(f, axisNote_);
  paintLabelColumn(f);
  p.setPen(theme.separator);
  p.drawLine(s.labelWidth - 1, 0, s.labelWidth - 1, height());
}

// The label column: each line's label by its item; a hint where nothing is loaded.
void TimelineView::paintLabelColumn(const TimelineFrame& f) const {
  if (scene_.parts.empty()) {
    f.p.setPen(f.theme.labelDimText);
    f.p.drawText(f.eventArea, Qt::AlignCenter,
                 tr("Open a trace: File > Open Trace Directory... or drop files here"));
    return;
  }
  f.p.setClipRect(QRect(0, kRulerHeight, scene_.labelWidth, height() - kRulerHeight));
  for (auto line = f.lines.first; line != f.lines.last; ++line) {
    switch (line->kind) {
      case Line::PartHeader:
      case Line::GroupHeader:
        headers_.paintLabel(f, *line);
        break;
      case Line::Counter:
        counters_.paintLabel(f, *line);
        break;
      case Line::Row:
        rows_.paintLabel(f, *line);
        break;
    }
  }
  f.p.setClipping(false);
}

void TimelineView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  const int labels = scene_.labelWidth;
  updateLabelWidth();
  if (scene_.labelWidth != labels) invalidateGeometry();
  updateScrollBar();
}

// ---- hit testing: by the item under the point -------------------------------------------------

TimelineEvent TimelineView::hitAt(const QPoint& pos) const {
  scene();
  return rows_.eventAt(pos);
}

QString TimelineView::toolTipAt(const QPoint& pos) const {
  scene();
  if (const auto mark = counters_.markAt(pos); mark.mark)
    return counters_.toolTip(mark, timeOrigin());
  return rows_.toolTip(rows_.boxAt(pos), timeOrigin());
}

// ---- selection, highlight, search --------------------------------------------------------------

void TimelineView::selectEvent(int part, EventId event, bool reveal) {
  if (part < 0 || part >= partCount()) {
    part = currentPart_;
    event = kNoEvent;
  }
  if (scene_.parts.empty() || event >= scene_.part(part).part.trace->events.size())
    event = kNoEvent;
  const TimelineEvent next{part, event};
  const bool changed = !(next == selected_) && !(event == kNoEvent && selected_.event == kNoEvent);
  selected_ = next;
  if (event != kNoEvent) currentPart_ = part;
  computeSelectionFlows();
  if (reveal && event != kNoEvent) revealEvent(selected_);
  update();
  if (!changed) return;
  emit selectionChanged(selected_.event);
  emit partSelectionChanged(selected_.part, selected_.event);
}

void TimelineView::computeSelectionFlows() {
  selectionFlows_.clear();
  if (scene_.parts.empty() || selected_.event == kNoEvent) return;
  const Trace& trace = *scene_.part(selected_.part).part.trace;
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
  const LaneLayout& layout = *scene_.part(part).part.layout;
  if (row >= layout.rows().size()) return;
  if (isPartCollapsed(part)) setPartCollapsed(part, false);
  const std::uint32_t group = layout.tracks()[layout.rows()[row].track].group;
  if (isGroupCollapsed(part, group)) setGroupCollapsed(part, group, false);
  const int line = scene_.part(part).rowLine[row];
  if (line < 0) return;
  const int y = scene_.lines[static_cast<std::size_t>(line)].y;
  const int area = height() - kRulerHeight;
  if (y < vscroll_->value() || y + rowHeight(part, row) > vscroll_->value() + area)
    vscroll_->setValue(y - area / 3);
}

void TimelineView::revealEvent(TimelineEvent event) {
  const PartState& state = scene_.part(event.part);
  const std::uint32_t row = state.part.layout->rowOf(event.event);
  if (row == kNoRow) return;
  revealRow(event.part, row);
  const Event& e = state.part.trace->events[event.event];
  const TimeNs start = e.start + state.part.offset;
  const TimeRange& range = scene_.range;
  if (start >= range.start && start + e.dur <= range.end) return;
  if (e.dur * 10 > range.span() * 8) {
    fitSelection();
  } else {
    const TimeNs centre = start + e.dur / 2;
    setVisibleRange({centre - range.span() / 2, centre - range.span() / 2 + range.span()});
  }
}

void TimelineView::setLinkedEvents(std::vector<TimelineEvent> events) {
  std::erase_if(events, [&](const TimelineEvent& e) {
    return e.part < 0 || e.part >= partCount() ||
           e.event >= scene_.part(e.part).part.trace->events.size();
  });
  std::stable_sort(events.begin(), events.end(),
                   [](const TimelineEvent& a, const TimelineEvent& b) { return a.part < b.part; });
  linked_ = std::move(events);
  update();
}

void TimelineView::setPathEdges(std::vector<std::pair<EventId, EventId>> edges) {
  pathEdges_ = std::move(edges);
  update();
}

const std::vector<EventId>& TimelineView::highlightedOn(int part) const {
  static const std::vector<EventId> kNone;
  if (part < 0 || part >= partCount()) return kNone;
  return scene_.part(part).highlighted;
}

void TimelineView::applyHighlights(const std::vector<TimelineEvent>& events) {
  for (PartState& state : scene_.parts) {
    state.highlighted.clear();
    state.highlightMask.clear();
  }
  for (const TimelineEvent& e : events) {
    if (e.part < 0 || e.part >= partCount()) continue;
    PartState& state = scene_.parts[static_cast<std::size_t>(e.part)];
    if (e.event >= state.part.trace->events.size()) continue;
    if (state.highlightMask.empty())
      state.highlightMask.assign(state.part.trace->events.size(), false);
    state.highlightMask[e.event] = true;
    state.highlighted.push_back(e.event);
  }
  scene_.fading = !events.empty();
  invalidateGeometry();
  update();
}

void TimelineView::setHighlighted(std::vector<EventId> events) {
  std::vector<TimelineEvent> refs;
  refs.reserve(events.size());
  for (EventId id : events) refs.push_back({currentPart_, id});
  applyHighlights(refs);
}

std::vector<SearchPart> TimelineView::searchParts() const {
  std::vector<SearchPart> parts;
  for (const PartState& state : scene_.parts)
    parts.push_back({state.part.trace.get(), state.part.offset});
  return parts;
}

int TimelineView::search(const QString& pattern, bool regex) {
  if (scene_.parts.empty() || pattern.isEmpty()) {
    clearSearch();
    return 0;
  }
  auto found = TimelineMatches::find(searchParts(), {pattern.toStdString(), regex});
  if (!found) return -1;
  applyMatches(std::move(found).value());
  return matchCount();
}

void TimelineView::clearSearch() { applyMatches({}); }

void TimelineView::showMatches(const std::vector<EventId>& events) {
  std::vector<PartEvent> refs;
  refs.reserve(events.size());
  for (EventId id : events) refs.push_back({currentPart_, id});
  applyMatches(TimelineMatches::of(std::move(refs), searchParts()));
}

void TimelineView::applyMatches(TimelineMatches matches) {
  matches_ = std::move(matches);
  std::vector<TimelineEvent> lit;
  lit.reserve(matches_.events().size());
  for (const PartEvent& e : matches_.events()) lit.push_back({e.part, e.event});
  applyHighlights(lit);
  emit matchesChanged(matches_.current(), matchCount());
}

void TimelineView::stepToMatch(int index) {
  if (index < 0) return;
  const PartEvent match = matches_.events()[static_cast<std::size_t>(index)];
  selectEvent(match.part, match.event, true);
  emit matchesChanged(matches_.current(), matchCount());
}

// The first match from the window's start on, then each after the last stepped to.
void TimelineView::nextMatch() { stepToMatch(matches_.next(scene_.range.start)); }

// The last match before the window's end, then each before the last stepped to.
void TimelineView::previousMatch() { stepToMatch(matches_.previous(scene_.range.end)); }

// ---- input -------------------------------------------------------------------------------------

void TimelineView::wheelEvent(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (event->modifiers() & Qt::ControlModifier) {
    const double x = event->position().x() - scene_.labelWidth;
    const TimeNs anchor =
        xToTime(std::clamp(x, 0.0, double(eventAreaWidth())), scene_.range, eventAreaWidth());
    setVisibleRange(zoomAround(scene_.range, anchor, std::pow(0.8, steps)));
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
  pressRange_ = scene_.range;
  pressScroll_ = vscroll_->value();
  rangeDrag_ =
      !scene_.parts.empty() && pressPos_.y() < kRulerHeight && pressPos_.x() >= scene_.labelWidth;
  setFocus();
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
  if (!pressed_) return;
  const QPoint delta = event->position().toPoint() - pressPos_;
  if (!dragging_ && delta.manhattanLength() < QApplication::startDragDistance()) return;
  dragging_ = true;
  if (rangeDrag_) {
    const auto timeAt = [&](int x) {
      return xToTime(std::clamp(double(x - scene_.labelWidth), 0.0, double(eventAreaWidth())),
                     scene_.range, eventAreaWidth());
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
  const int line = scene().lineAt(pos.y());
  if (line >= 0 && scene_.lines[static_cast<std::size_t>(line)].kind == Line::PartHeader) {
    const int part = scene_.lines[static_cast<std::size_t>(line)].part;
    setPartCollapsed(part, !isPartCollapsed(part));
    return;
  }
  if (line >= 0 && scene_.lines[static_cast<std::size_t>(line)].kind == Line::GroupHeader) {
    const Line& header = scene_.lines[static_cast<std::size_t>(line)];
    setGroupCollapsed(header.part, header.index, !isGroupCollapsed(header.part, header.index));
    return;
  }
  if (const auto m = counters_.markAt(pos); m.mark && m.mark->event != kNoEvent) {
    selectEvent(m.part, m.mark->event, true);
    return;
  }
  if (pos.x() >= scene_.labelWidth) {
    const TimelineEvent hit = hitAt(pos);
    selectEvent(hit.event == kNoEvent ? currentPart_ : hit.part, hit.event, false);
  }
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
  scene();
  const TimelineEventRows::Hit hit = rows_.boxAt(event->position().toPoint());
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
