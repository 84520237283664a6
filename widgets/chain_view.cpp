// SPDX-License-Identifier: MIT
#include "chain_view.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>

#include "text/format.h"
#include "theme.h"

namespace sutra::widgets {
namespace {

// Boxes fill the width the view is given (at least kMinBoxWidth), and each connector's gap is
// written in the strip above the box it enters: the whole chain fits a dock a third of the window
// wide, with nothing to scroll sideways for.
constexpr int kMargin = 8;
constexpr int kIndent = 12;
constexpr int kMinBoxWidth = 170;
constexpr int kBoxHeight = 36;
constexpr int kGapStrip = 16;
constexpr int kRowPitch = kBoxHeight + kGapStrip;

std::size_t hopColour(HopKind kind) {
  ChainColour colour = ChainColour::ResumedOp;
  switch (kind) {
    case HopKind::Annotation:
      colour = ChainColour::Annotation;
      break;
    case HopKind::PythonFrame:
      colour = ChainColour::PythonFrame;
      break;
    case HopKind::FrameworkOp:
      colour = ChainColour::FrameworkOp;
      break;
    case HopKind::RuntimeCall:
      colour = ChainColour::RuntimeCall;
      break;
    case HopKind::DeviceOp:
      colour = ChainColour::DeviceOp;
      break;
    case HopKind::Sync:
      colour = ChainColour::Sync;
      break;
    case HopKind::ResumedOp:
      colour = ChainColour::ResumedOp;
      break;
    case HopKind::DataProducer:
    case HopKind::DataConsumer:
      colour = ChainColour::Data;
      break;
  }
  return static_cast<std::size_t>(colour);
}

}  // namespace

ChainView::ChainView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setBackgroundRole(QPalette::Base);
  setAutoFillBackground(true);
}

void ChainView::setChain(std::shared_ptr<const Trace> trace, DependencyChain chain) {
  trace_ = std::move(trace);
  chain_ = std::move(chain);
  depth_.assign(chain_.hops.size(), 0);
  for (std::size_t i = 0; i < chain_.hops.size(); ++i) {
    const int previous = chain_.hops[i].previous;
    // `previous` always points at an earlier hop, so its depth is known.
    if (previous >= 0 && static_cast<std::size_t>(previous) < i)
      depth_[i] = depth_[static_cast<std::size_t>(previous)] + 1;
  }
  hovered_ = -1;
  setMinimumSize(sizeHint());  // a scroll area around it scrolls only below this
  updateGeometry();
  resize(sizeHint().expandedTo(parentWidget() ? parentWidget()->size() : QSize()));
  update();
}

void ChainView::clear() { setChain(nullptr, {}); }

QRect ChainView::hopRect(int index) const {
  if (index < 0 || index >= static_cast<int>(chain_.hops.size())) return {};
  const int left = kMargin + depth_[static_cast<std::size_t>(index)] * kIndent;
  return {left, kMargin + kGapStrip + index * kRowPitch,
          std::max(kMinBoxWidth, width() - kMargin - left), kBoxHeight};
}

int ChainView::hopAt(const QPoint& pos) const {
  for (int i = 0; i < static_cast<int>(chain_.hops.size()); ++i)
    if (hopRect(i).contains(pos)) return i;
  return -1;
}

QSize ChainView::sizeHint() const {
  const int deepest = depth_.empty() ? 0 : *std::max_element(depth_.begin(), depth_.end());
  const int rows =
      std::max<int>(1, static_cast<int>(chain_.hops.size()) + (chain_.omittedLaunches > 0 ? 1 : 0));
  return {2 * kMargin + deepest * kIndent + kMinBoxWidth,
          2 * kMargin + kGapStrip + rows * kRowPitch};
}

void ChainView::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing, true);
  const Theme& theme = themeFor(*this);
  if (chain_.hops.empty() || !trace_) {
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(
        rect().adjusted(kMargin, kMargin, -kMargin, -kMargin),
        Qt::AlignTop | Qt::AlignLeft | Qt::TextWordWrap,
        tr("Select an event in the timeline, or double-click an operator, to see its chain:\n"
           "framework op -> runtime launch -> device op(s) -> the sync that waited on them."));
    return;
  }
  QFont small = font();
  small.setPointSizeF(font().pointSizeF() * 0.9);
  QFont bold = font();
  bold.setBold(true);
  // Connectors first, under the boxes.
  for (int i = 0; i < static_cast<int>(chain_.hops.size()); ++i)
    if (chain_.hops[static_cast<std::size_t>(i)].previous >= 0) paintConnector(p, theme, i, small);
  for (int i = 0; i < static_cast<int>(chain_.hops.size()); ++i) paintHop(p, theme, i, small, bold);
  if (chain_.omittedLaunches > 0) {
    p.setFont(small);
    p.setPen(theme.chainNoteText);
    const int y = kMargin + kGapStrip + static_cast<int>(chain_.hops.size()) * kRowPitch;
    p.drawText(QRect(kMargin, y, width() - 2 * kMargin, 20), Qt::AlignLeft,
               tr("... and %1 more launches under this op").arg(chain_.omittedLaunches));
  }
}

// Hop `index`'s connector: down from the previous hop, then right into this one, and the gap
// between them in the strip above this hop's box.
void ChainView::paintConnector(QPainter& p, const Theme& theme, int index,
                               const QFont& small) const {
  const ChainHop& hop = chain_.hops[static_cast<std::size_t>(index)];
  const QRect from = hopRect(hop.previous);
  const QRect to = hopRect(index);
  const QPointF start(from.left() + 12, from.bottom());
  const QPointF end(to.left(), to.center().y());
  QPainterPath path(start);
  path.lineTo(start.x(), end.y());
  path.lineTo(end);
  p.setPen(QPen(theme.chainConnector, 1.4));
  p.setBrush(Qt::NoBrush);
  p.drawPath(path);
  QPolygonF head;
  head << end << QPointF(end.x() - 7, end.y() - 4) << QPointF(end.x() - 7, end.y() + 4);
  p.setBrush(theme.chainConnector);
  p.drawPolygon(head);
  if (hop.gapKind == GapKind::None) return;
  p.setFont(small);
  p.setPen(hop.gap < 0 ? theme.chainNegativeGap : theme.chainGapText);
  const QString gap = QStringLiteral("%1: %2").arg(
      QString::fromUtf8(gapKindName(hop.gapKind)).replace('_', ' '), durationText(hop.gap));
  const QRect strip(to.left() + 4, to.top() - kGapStrip, width() - to.left() - 4 - kMargin,
                    kGapStrip);
  p.drawText(strip, Qt::AlignVCenter | Qt::AlignLeft,
             QFontMetrics(small).elidedText(gap, Qt::ElideRight, strip.width()));
}

// Hop `index`'s box: its kind and times on top, its name below, in its kind's colours.
void ChainView::paintHop(QPainter& p, const Theme& theme, int index, const QFont& small,
                         const QFont& bold) const {
  const ChainHop& hop = chain_.hops[static_cast<std::size_t>(index)];
  const QRect box = hopRect(index);
  const std::size_t colour = hopColour(hop.kind);
  const bool hovered = index == hovered_;
  p.setPen(hop.focus ? QPen(theme.chainFocus, 2.2)
                     : QPen(theme.chainBorder[colour], hovered ? 2.0 : 1.0));
  p.setBrush(hovered ? theme.chainFillHovered[colour] : theme.chainFill[colour]);
  p.drawRoundedRect(QRectF(box).adjusted(0.5, 0.5, -0.5, -0.5), 5, 5);
  p.fillRect(QRect(box.left() + 1, box.top() + 1, 5, box.height() - 2), theme.chainAccent[colour]);
  const QRect text = box.adjusted(12, 3, -8, -3);
  p.setFont(small);
  p.setPen(theme.chainKindText);
  const QString kind = QString::fromUtf8(hopKindName(hop.kind)).replace('_', ' ');
  QString when;
  if (hop.end > hop.start || hop.start != 0)
    when = QStringLiteral("+%1 · %2")
               .arg(durationText(hop.start - trace_->startNs), durationText(hop.end - hop.start));
  p.drawText(text, Qt::AlignTop | Qt::AlignLeft, kind);
  p.drawText(text, Qt::AlignTop | Qt::AlignRight, when);
  p.setFont(bold);
  p.setPen(theme.chainNameText);
  p.drawText(text, Qt::AlignBottom | Qt::AlignLeft,
             QFontMetrics(bold).elidedText(QString::fromStdString(hop.name), Qt::ElideMiddle,
                                           text.width()));
}

void ChainView::mousePressEvent(QMouseEvent* event) {
  const int hop = hopAt(event->position().toPoint());
  if (hop >= 0 && chain_.hops[static_cast<std::size_t>(hop)].event != kNoEvent)
    emit hopClicked(chain_.hops[static_cast<std::size_t>(hop)].event);
}

void ChainView::mouseMoveEvent(QMouseEvent* event) {
  const int hop = hopAt(event->position().toPoint());
  if (hop != hovered_) {
    hovered_ = hop;
    setCursor(hop >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    update();
  }
}

}  // namespace sutra::widgets
