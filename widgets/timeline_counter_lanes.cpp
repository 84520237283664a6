// SPDX-License-Identifier: MIT
#include "timeline_counter_lanes.h"

#include <QCoreApplication>
#include <QPainter>
#include <QStringList>
#include <algorithm>
#include <cmath>

#include "text/format.h"
#include "theme.h"
#include "view/counter_geometry.h"

namespace sutra::widgets {

using namespace timeline;

namespace {

// The graph's y of value `v` in a lane from `top`, `h` high, scaled to the counter's extent.
double valueY(const LayoutCounter& counter, double top, double h, double v) {
  const double span = counter.high - counter.low;
  return span > 0 ? top + h - (v - counter.low) / span * h : top + h / 2;
}

}  // namespace

// Per pixel column, the value at its start joined to the next, and the range of values inside it
// (counterColumns folds the samples of the window).
void TimelineCounterLanes::paint(const TimelineFrame& f) const {
  for (auto line = f.lines.first; line != f.lines.last; ++line) {
    if (line->kind != TimelineScene::Line::Counter) continue;
    const TimelineScene::PartState& state = scene_.parts[line->part];
    const LayoutCounter& counter = state.part.layout->counters()[line->index];
    const TimeRange local = scene_.localRange(state);
    const auto columns =
        counterColumns(state.part.trace->counters[counter.series].samples, local, scene_.areaWidth);
    const double top = scene_.top(*line) + 2, h = kCounterHeight - 4;
    QVector<QLineF> segments;
    segments.reserve(static_cast<qsizetype>(columns.size()) * 2);
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const CounterColumn& c = columns[i];
      const double x = scene_.labelWidth + c.x + 0.5;
      if (c.high > c.low)
        segments.append(
            QLineF(x, valueY(counter, top, h, c.low), x, valueY(counter, top, h, c.high)));
      const double next = i + 1 < columns.size() ? columns[i + 1].first : c.first;
      segments.append(
          QLineF(x, valueY(counter, top, h, c.first), x + 1, valueY(counter, top, h, next)));
    }
    f.p.setPen(QPen(f.theme.counterLine, 1));
    f.p.drawLines(segments);
    paintMarks(f, state.part.trace->counters[counter.series].marks, local, top, h, counter);
  }
}

// A counter's marks (the memory peak): a dashed line across the lane, a diamond at the value and
// the short label beside it, on the side where it fits.
void TimelineCounterLanes::paintMarks(const TimelineFrame& f, const std::vector<CounterMark>& marks,
                                      const TimeRange& local, double top, double h,
                                      const LayoutCounter& counter) const {
  if (marks.empty()) return;
  QFont bold = scene_.font;
  bold.setBold(true);
  const QFontMetrics metrics(bold);
  f.p.save();
  f.p.setFont(bold);
  f.p.setRenderHint(QPainter::Antialiasing, true);
  for (const CounterMark& mark : marks) {
    if (mark.time < local.start || mark.time > local.end) continue;
    // On a pixel's centre, so the antialiased line stays one crisp pixel wide.
    const double x =
        std::floor(scene_.labelWidth + timeToX(mark.time, local, scene_.areaWidth)) + 0.5;
    const double y = std::clamp(valueY(counter, top, h, mark.value), top + 4, top + h - 4);
    f.p.setPen(QPen(f.theme.counterMark, 1, Qt::DashLine));
    f.p.drawLine(QLineF(x, top, x, top + h));
    f.p.setPen(Qt::NoPen);
    f.p.setBrush(f.theme.counterMark);
    f.p.drawPolygon(QPolygonF({{x, y - 4}, {x + 4, y}, {x, y + 4}, {x - 4, y}}));
    const QString label = QString::fromStdString(mark.label);
    const int w = metrics.horizontalAdvance(label) + 6;
    const double right = scene_.labelWidth + scene_.areaWidth;
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

void TimelineCounterLanes::paintLabel(const TimelineFrame& f,
                                      const TimelineScene::Line& line) const {
  const LayoutCounter& counter = scene_.parts[line.part].part.layout->counters()[line.index];
  const int y = scene_.top(line);
  f.p.fillRect(QRect(10, y + 2, 4, line.height - 4), f.theme.counterLine);
  f.p.setFont(scene_.font);
  f.p.setPen(f.theme.labelText);
  drawTimelineLabel(
      f.p, QRect(20, y, scene_.labelWidth - 24, line.height),
      QString::fromStdString(counter.label) +
          QStringLiteral("  (%1 .. %2)").arg(counter.low, 0, 'g', 4).arg(counter.high, 0, 'g', 4));
}

TimelineCounterLanes::MarkHit TimelineCounterLanes::markAt(const QPoint& pos) const {
  constexpr double kTolerancePx = 5;
  if (scene_.parts.empty() || !scene_.inEventArea(pos.x())) return {};
  const int line = scene_.lineAt(pos.y());
  if (line < 0 || scene_.lines[static_cast<std::size_t>(line)].kind != TimelineScene::Line::Counter)
    return {};
  const TimelineScene::Line& l = scene_.lines[static_cast<std::size_t>(line)];
  const TimelineScene::PartState& state = scene_.parts[l.part];
  const TimelinePart& shown = state.part;
  const auto& marks = shown.trace->counters[shown.layout->counters()[l.index].series].marks;
  const int i = counterMarkAt(marks, scene_.localRange(state), scene_.areaWidth,
                              pos.x() - scene_.labelWidth, kTolerancePx);
  if (i < 0) return {};
  return {static_cast<int>(l.part), &marks[static_cast<std::size_t>(i)]};
}

QString TimelineCounterLanes::toolTip(const MarkHit& hit, TimeNs origin) const {
  if (!hit.mark) return {};
  const TimelinePart& shown = scene_.parts[static_cast<std::size_t>(hit.part)].part;
  QStringList lines = QString::fromStdString(hit.mark->detail).toHtmlEscaped().split('\n');
  lines[0] = QStringLiteral("<b>%1</b>").arg(lines[0]);
  lines.insert(1, QCoreApplication::translate("TimelineView", "at +%1")
                      .arg(durationText(hit.mark->time - (origin - shown.offset))));
  if (hit.mark->event != kNoEvent)
    lines.append(QCoreApplication::translate("TimelineView", "<i>click to select the op</i>"));
  return lines.join(QStringLiteral("<br>"));
}

}  // namespace sutra::widgets
