// SPDX-License-Identifier: MIT
#include "timeline_keys.h"

#include <QAction>
#include <QKeySequence>
#include <QWidget>

#include "timeline_view.h"

namespace sutra::gui {

void installTimelineKeys(QWidget* window, widgets::TimelineView* timeline) {
  for (const Qt::Key key : {Qt::Key_W, Qt::Key_S, Qt::Key_A, Qt::Key_D, Qt::Key_F, Qt::Key_0}) {
    auto* action = new QAction(window);
    action->setObjectName(QStringLiteral("TimelineKey") + QKeySequence(key).toString());
    action->setShortcut(QKeySequence(key));
    action->setShortcutContext(Qt::WindowShortcut);
    QObject::connect(action, &QAction::triggered, timeline,
                     [timeline, key] { timeline->pressKey(key); });
    window->addAction(action);
  }
}

}  // namespace sutra::gui
