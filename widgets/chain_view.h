// SPDX-License-Identifier: MIT
#pragma once
// The dependency-chain viewer: the analyses' chain of one event drawn as boxes joined by
// connectors, outermost op first: annotation -> framework op -> runtime launch -> device op(s) ->
// the sync that waited -> the op that resumed, each with its start and duration, and on every
// connector the gap between the two hops (dispatch to launch, launch to start, sync wait ...).
// Clicking a hop asks for it to be selected in the timeline.
#include <QWidget>
#include <memory>

#include "analysis/chain.h"
#include "model/trace.h"

class QPainter;

namespace sutra::widgets {

struct Theme;

class ChainView : public QWidget {
  Q_OBJECT

 public:
  explicit ChainView(QWidget* parent = nullptr);

  void setChain(std::shared_ptr<const Trace> trace, DependencyChain chain);
  void clear();
  const DependencyChain& chain() const { return chain_; }
  // The box of hop `index`, in widget coordinates; -1 from hopAt where no hop is.
  QRect hopRect(int index) const;
  int hopAt(const QPoint& pos) const;
  QSize sizeHint() const override;

 signals:
  void hopClicked(sutra::EventId event);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  // paintEvent's steps: one hop's connector from its previous hop, and its box.
  void paintConnector(QPainter& p, const Theme& theme, int index, const QFont& small) const;
  void paintHop(QPainter& p, const Theme& theme, int index, const QFont& small,
                const QFont& bold) const;

  std::shared_ptr<const Trace> trace_;
  DependencyChain chain_;
  std::vector<int> depth_;  // per hop: how many hops it follows
  int hovered_ = -1;
};

}  // namespace sutra::widgets
