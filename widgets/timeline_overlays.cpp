// SPDX-License-Identifier: MIT
#include "timeline_overlays.h"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <optional>

#include "theme.h"

namespace sutra::widgets {

void TimelineOverlays::paintSelection(const TimelineFrame& f, const TimelineEvent& selected,
                                      const std::vector<std::pair<EventId, EventId>>& flows) const {
  if (selected.event == kNoEvent) return;
  const TimelineScene::PartState& state = scene_.part(selected.part);
  const Trace& trace = *state.part.trace;
  const LaneLayout& layout = *state.part.layout;
  const TimeNs offset = state.part.offset;
  const int labelWidth = scene_.labelWidth;
  const std::uint32_t selectedRow = layout.rowOf(selected.event);
  const int top = scene_.rowTop(selected.part, selectedRow);
  if (top >= 0) {
    const Event& e = trace.events[selected.event];
    const double x0 = std::max(-4.0, scene_.xOf(e.start + offset));
    const double x1 =
        std::min(scene_.areaWidth + 4.0, std::max(scene_.xOf(e.end() + offset), x0 + 3));
    f.p.setBrush(Qt::NoBrush);
    f.p.setPen(QPen(f.theme.selection, 2));
    f.p.drawRect(QRectF(labelWidth + x0, top + 0.5, x1 - x0,
                        scene_.rowHeight(selected.part, selectedRow) - 1));
  }
  auto anchor = [&](EventId id) -> std::optional<QPointF> {
    const std::uint32_t row = layout.rowOf(id);
    int top = scene_.rowTop(selected.part, row);
    if (top < 0) top = scene_.foldedTop(selected.part, row);
    if (top < 0) return std::nullopt;
    const double x = std::clamp(scene_.xOf(trace.events[id].start + offset), -1e5, 1e5);
    return QPointF(labelWidth + x, top + scene_.rowHeight(selected.part, row) / 2.0);
  };
  f.p.setRenderHint(QPainter::Antialiasing, true);
  for (const auto& [from, to] : flows) {
    const auto a = anchor(from);
    const auto b = anchor(to);
    if (a && b) paintFlowArrow(f, *a, *b);
  }
  f.p.setRenderHint(QPainter::Antialiasing, false);
}

void TimelineOverlays::paintFlowArrow(const TimelineFrame& f, QPointF a, QPointF b) {
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

void TimelineOverlays::paintLinkedEvents(const TimelineFrame& f,
                                         const std::vector<TimelineEvent>& linked) const {
  if (linked.empty()) return;
  QPolygonF starts;
  f.p.setBrush(Qt::NoBrush);
  for (const TimelineEvent& event : linked) {
    const TimelineScene::PartState& state = scene_.part(event.part);
    const std::uint32_t row = state.part.layout->rowOf(event.event);
    if (row == kNoRow) continue;
    const Event& e = state.part.trace->events[event.event];
    const double x0 = std::clamp(scene_.xOf(e.start + state.part.offset), -1e5, 1e5);
    const double x1 = std::clamp(scene_.xOf(e.end() + state.part.offset), -1e5, 1e5);
    const int height = scene_.rowHeight(event.part, row);
    int top = scene_.rowTop(event.part, row);
    if (top >= 0) {
      f.p.setPen(QPen(f.theme.flow, 2, Qt::DashLine));
      f.p.drawRect(QRectF(scene_.labelWidth + x0, top + 1.0, std::max(x1 - x0, 3.0), height - 2.0));
    } else {  // folded away: point at its group's header, or its part's
      top = scene_.foldedTop(event.part, row);
    }
    if (top >= 0) starts << QPointF(scene_.labelWidth + x0, top + height / 2.0);
  }
  f.p.setRenderHint(QPainter::Antialiasing, true);
  f.p.setPen(QPen(f.theme.flow, 1.5, Qt::DashLine));
  f.p.drawPolyline(starts);
  f.p.setRenderHint(QPainter::Antialiasing, false);
}

void TimelineOverlays::paintPathEdges(const TimelineFrame& f, int part,
                                      const std::vector<std::pair<EventId, EventId>>& edges) const {
  if (edges.empty() || scene_.parts.empty()) return;
  const TimelineScene::PartState& state = scene_.part(part);
  const Trace& trace = *state.part.trace;
  const LaneLayout& layout = *state.part.layout;
  auto anchor = [&](EventId id, bool atEnd) -> std::optional<std::pair<std::uint32_t, QPointF>> {
    if (id >= trace.events.size()) return std::nullopt;
    const std::uint32_t row = layout.rowOf(id);
    if (row == kNoRow) return std::nullopt;
    const int top = scene_.rowTop(part, row);
    if (top < 0) return std::nullopt;
    const Event& e = trace.events[id];
    const TimeNs t = (atEnd ? e.end() : e.start) + state.part.offset;
    const double x = std::clamp(scene_.xOf(t), -1e5, 1e5);
    return std::pair{row, QPointF(scene_.labelWidth + x, top + scene_.rowHeight(part, row) / 2.0)};
  };
  f.p.setRenderHint(QPainter::Antialiasing, true);
  for (const auto& [from, to] : edges) {
    const auto a = anchor(from, true);
    const auto b = anchor(to, false);
    if (a && b && a->first != b->first) paintFlowArrow(f, a->second, b->second);
  }
  f.p.setRenderHint(QPainter::Antialiasing, false);
}

}  // namespace sutra::widgets
