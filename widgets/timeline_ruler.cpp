// SPDX-License-Identifier: MIT
#include "timeline_ruler.h"

#include <QCoreApplication>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "text/format.h"
#include "theme.h"

namespace sutra::widgets {

using namespace timeline;

int TimelineRuler::tickX(TimeNs t) const {
  return scene_.labelWidth + static_cast<int>(std::lround(scene_.xOf(t)));
}

void TimelineRuler::paintGrid(const TimelineFrame& f) const {
  f.p.setPen(f.theme.gridLine);
  for (TimeNs t = firstTickAtOrAfter(scene_.range.start, f.origin, f.step); t <= scene_.range.end;
       t += f.step) {
    const int x = tickX(t);
    f.p.drawLine(x, kRulerHeight, x, scene_.height);
  }
}

std::optional<std::pair<double, double>> TimelineRuler::rangeXs(const TimeRange& selected) const {
  if (selected.end <= selected.start) return std::nullopt;
  auto x = [&](TimeNs t) { return std::clamp(scene_.xOf(t), -1.0, scene_.areaWidth + 1.0); };
  return std::pair{x(selected.start), x(selected.end)};
}

void TimelineRuler::paintRangeShade(const TimelineFrame& f, const TimeRange& selected) const {
  const auto xs = rangeXs(selected);
  if (!xs) return;
  const auto [x0, x1] = *xs;
  f.p.fillRect(QRectF(scene_.labelWidth + x0, kRulerHeight, std::max(1.0, x1 - x0),
                      scene_.height - kRulerHeight),
               f.theme.rangeShade);
}

void TimelineRuler::paintRuler(const TimelineFrame& f, const TimeRange& selected) const {
  f.p.fillRect(QRect(0, 0, scene_.width, kRulerHeight), f.theme.rulerBackground);
  f.p.setPen(f.theme.rulerText);
  for (TimeNs t = firstTickAtOrAfter(scene_.range.start, f.origin, f.step); t <= scene_.range.end;
       t += f.step) {
    const int x = tickX(t);
    if (x < scene_.labelWidth) continue;
    f.p.drawLine(x, kRulerHeight - 6, x, kRulerHeight);
    f.p.drawText(QRect(x + 3, 0, 200, kRulerHeight - 4), Qt::AlignLeft | Qt::AlignVCenter,
                 QString::fromStdString(tickLabel(t - f.origin, f.step)));
  }
  f.p.drawLine(0, kRulerHeight - 1, scene_.width, kRulerHeight - 1);
  if (const auto xs = rangeXs(selected)) {
    const auto [x0, x1] = *xs;
    const QRectF band(scene_.labelWidth + x0, 0, std::max(1.0, x1 - x0), kRulerHeight - 1);
    f.p.fillRect(band, f.theme.rangeRuler);
    f.p.setPen(f.theme.rangeRulerText);
    f.p.drawText(band, Qt::AlignCenter, durationText(selected.span()));
  }
}

void TimelineRuler::paintCorner(const TimelineFrame& f, const QString& axisNote) const {
  const int labelWidth = scene_.labelWidth;
  f.p.fillRect(QRect(0, kRulerHeight, labelWidth, scene_.height - kRulerHeight),
               f.theme.labelBackground);
  f.p.fillRect(QRect(0, 0, labelWidth, kRulerHeight - 1), f.theme.rulerBackground);
  f.p.setPen(f.theme.rulerText);
  f.p.setFont(scene_.font);
  const QString corner = QCoreApplication::translate("TimelineView", "window %1")
                             .arg(durationText(scene_.range.span()));
  const QRect cornerRect(8, 0, labelWidth - 12, kRulerHeight - 2);
  if (axisNote.isEmpty()) {
    f.p.drawText(cornerRect, Qt::AlignVCenter | Qt::AlignLeft, corner);
    return;
  }
  // Two small lines: the window's span, and the note.
  QFont small = scene_.font;
  small.setPointSizeF(scene_.font.pointSizeF() * 0.85);
  f.p.save();
  f.p.setFont(small);
  const QFontMetrics metrics(small);
  const QRect top(cornerRect.left(), 1, cornerRect.width(), kRulerHeight / 2 - 1);
  const QRect bottom(cornerRect.left(), kRulerHeight / 2 - 1, cornerRect.width(),
                     kRulerHeight / 2 - 1);
  f.p.drawText(top, Qt::AlignVCenter | Qt::AlignLeft, corner);
  f.p.drawText(bottom, Qt::AlignVCenter | Qt::AlignLeft,
               metrics.elidedText(axisNote, Qt::ElideRight, bottom.width()));
  f.p.restore();
}

}  // namespace sutra::widgets
