// SPDX-License-Identifier: MIT
#include "timeline_scene.h"

#include <QPainter>
#include <algorithm>

#include "view/timeline_palette.h"

namespace sutra::widgets {

using namespace timeline;

void drawTimelineLabel(QPainter& p, const QRect& rect, const QString& text) {
  p.drawText(rect, Qt::AlignVCenter | Qt::AlignLeft,
             p.fontMetrics().elidedText(text, Qt::ElideRight, rect.width()));
}

TimelineScene::PartState TimelineScene::makePart(TimelinePart part) {
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

void TimelineScene::rebuildLines() {
  lines.clear();
  int y = 0;
  for (std::size_t p = 0; p < parts.size(); ++p) {
    PartState& state = parts[p];
    const LaneLayout& layout = *state.part.layout;
    const auto part = static_cast<std::uint16_t>(p);
    state.rowLine.assign(layout.rows().size(), -1);
    if (multiPart()) {
      lines.push_back(
          {Line::PartHeader, part, static_cast<std::uint32_t>(p), y, kPartHeaderHeight});
      y += kPartHeaderHeight;
      if (state.folded) continue;
    }
    for (std::uint32_t g = 0; g < layout.groups().size(); ++g) {
      lines.push_back({Line::GroupHeader, part, g, y, kHeaderHeight});
      y += kHeaderHeight;
      if (state.collapsed[g]) continue;
      for (std::uint32_t t : layout.groups()[g].tracks) {
        const auto& track = layout.tracks()[t];
        for (std::uint32_t r = track.firstRow; r < track.firstRow + track.rowCount; ++r) {
          state.rowLine[r] = static_cast<int>(lines.size());
          const int h = layout.rows()[r].pythonFrames ? kFoldedRowHeight : kRowHeight;
          lines.push_back({Line::Row, part, r, y, h});
          y += h;
        }
        y += kTrackGap;
      }
      for (std::uint32_t c : layout.groups()[g].counters) {
        lines.push_back({Line::Counter, part, c, y, kCounterHeight});
        y += kCounterHeight + kTrackGap;
      }
    }
  }
  contentHeight = y;
}

TimelineScene::LineRange TimelineScene::visibleLines() const {
  const int bottom = scroll + height - kRulerHeight;
  auto first = std::upper_bound(lines.begin(), lines.end(), scroll,
                                [](int v, const Line& l) { return v < l.y; });
  if (first != lines.begin()) --first;
  const auto last = std::find_if(first, lines.end(), [&](const Line& l) { return l.y >= bottom; });
  return {first, last};
}

int TimelineScene::lineAt(int y) const {
  if (y < kRulerHeight) return -1;
  const int contentY = y - kRulerHeight + scroll;
  auto it = std::upper_bound(lines.begin(), lines.end(), contentY,
                             [](int v, const Line& l) { return v < l.y; });
  if (it == lines.begin()) return -1;
  --it;
  if (contentY >= it->y + it->height) return -1;
  return static_cast<int>(it - lines.begin());
}

int TimelineScene::rowTop(int part, std::uint32_t row) const {
  if (part < 0 || part >= static_cast<int>(parts.size())) return -1;
  const auto& rowLine = parts[static_cast<std::size_t>(part)].rowLine;
  if (row >= rowLine.size() || rowLine[row] < 0) return -1;
  return top(lines[static_cast<std::size_t>(rowLine[row])]);
}

int TimelineScene::rowHeight(int part, std::uint32_t row) const {
  if (part < 0 || part >= static_cast<int>(parts.size())) return kRowHeight;
  const auto& rowLine = parts[static_cast<std::size_t>(part)].rowLine;
  if (row >= rowLine.size() || rowLine[row] < 0) return kRowHeight;
  return lines[static_cast<std::size_t>(rowLine[row])].height;
}

int TimelineScene::counterTop(int part, std::uint32_t counter) const {
  for (const Line& line : lines)
    if (line.kind == Line::Counter && line.part == part && line.index == counter) return top(line);
  return -1;
}

int TimelineScene::partHeaderTop(int part) const {
  for (const Line& line : lines)
    if (line.kind == Line::PartHeader && line.part == part) return top(line);
  return -1;
}

int TimelineScene::groupHeaderTop(int part, std::uint32_t group) const {
  for (const Line& line : lines)
    if (line.kind == Line::GroupHeader && line.part == part && line.index == group)
      return top(line);
  return -1;
}

int TimelineScene::foldedTop(int part, std::uint32_t row) const {
  const LaneLayout& layout = *parts[static_cast<std::size_t>(part)].part.layout;
  const int top = groupHeaderTop(part, layout.tracks()[layout.rows()[row].track].group);
  return top >= 0 ? top : partHeaderTop(part);
}

}  // namespace sutra::widgets
