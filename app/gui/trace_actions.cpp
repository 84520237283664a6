// SPDX-License-Identifier: MIT
#include "trace_actions.h"

#include <QAction>
#include <QMenu>

#include "trace_session.h"

namespace sutra::gui {

void enableWithTrace(QAction* action, TraceSession* session) {
  const QString tip =
      action->toolTip() == action->text().remove('&') ? QString() : action->toolTip();
  auto update = [action, session, tip] {
    const bool loaded = !session->ranks().empty();
    action->setEnabled(loaded);
    action->setToolTip(loaded ? tip : QObject::tr(kNeedsTraceTip));
  };
  update();
  // The session's ranks change when a load replaces the run and as its ranks come.
  QObject::connect(session, &TraceSession::replacing, action, update);
  QObject::connect(session, &TraceSession::rankReady, action, update);
  // A disabled item's tooltip is the one place that says why; menus hide tooltips by default.
  for (QObject* widget : action->associatedObjects())
    if (auto* menu = qobject_cast<QMenu*>(widget)) menu->setToolTipsVisible(true);
}

}  // namespace sutra::gui
