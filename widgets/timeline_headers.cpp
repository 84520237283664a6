// SPDX-License-Identifier: MIT
#include "timeline_headers.h"

#include <QPainter>

#include "theme.h"

namespace sutra::widgets {

using namespace timeline;

void TimelineHeaders::paintBackgrounds(const TimelineFrame& f) const {
  for (auto line = f.lines.first; line != f.lines.last; ++line) {
    const QRect band(0, scene_.top(*line), scene_.width, line->height);
    if (line->kind == TimelineScene::Line::PartHeader) {
      f.p.fillRect(band, f.partHeaderBackground);
    } else if (line->kind == TimelineScene::Line::GroupHeader) {
      f.p.fillRect(band, f.theme.headerBackground);
    } else if (line->kind == TimelineScene::Line::Row &&
               scene_.parts[line->part].part.layout->rows()[line->index].track % 2 == 1) {
      f.p.fillRect(band, f.theme.trackShade);
    }
  }
}

void TimelineHeaders::paintLabel(const TimelineFrame& f, const TimelineScene::Line& line) const {
  const TimelineScene::PartState& state = scene_.parts[line.part];
  const int y = scene_.top(line);
  QFont bold = scene_.font;
  bold.setBold(true);
  f.p.setFont(bold);
  if (line.kind == TimelineScene::Line::PartHeader) {
    f.p.fillRect(QRect(0, y, scene_.labelWidth, line.height), f.partHeaderBackground);
    f.p.setPen(f.theme.labelText);
    const QString arrow = state.folded ? QStringLiteral("\u25B8 ") : QStringLiteral("\u25BE ");
    // A rank's header band holds no events: its label may run on across the whole width.
    f.p.save();
    f.p.setClipRect(QRect(0, kRulerHeight, scene_.width, scene_.height - kRulerHeight));
    drawTimelineLabel(f.p, QRect(4, y, scene_.width - 8, line.height), arrow + state.part.label);
    f.p.restore();
    return;
  }
  const LayoutGroup& group = state.part.layout->groups()[line.index];
  f.p.fillRect(QRect(0, y, scene_.labelWidth, line.height), f.theme.headerBackground);
  f.p.setPen(f.theme.labelText);
  const QString arrow =
      state.collapsed[line.index] ? QStringLiteral("\u25B8 ") : QStringLiteral("\u25BE ");
  const int indent = scene_.multiPart() ? 14 : 6;
  drawTimelineLabel(f.p, QRect(indent, y, scene_.labelWidth - indent - 4, line.height),
                    arrow + QString::fromStdString(group.label));
}

}  // namespace sutra::widgets
