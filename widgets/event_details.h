// SPDX-License-Identifier: MIT
#pragma once
// The details panel: everything about the selected event (name, category, lane, times, ids,
// parent, what launched it and what it launched) and all its args, pretty-printed.
#include <QString>
#include <QTextBrowser>

#include "trace_session.h"

namespace sutra::widgets {

// HTML for the selected event of `rank`; links "event:N" select event N.
QString eventDetailsHtml(const RankData& rank, EventId event);
// The event's args as indented JSON text ("" when it has none; as written when not valid JSON).
QString prettyArgs(const Trace& trace, EventId event);

class EventDetailsView : public QTextBrowser {
  Q_OBJECT

 public:
  explicit EventDetailsView(QWidget* parent = nullptr);
  void showDetails(std::shared_ptr<const RankData> rank, EventId event);

 signals:
  void eventLinkActivated(sutra::EventId event);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  std::shared_ptr<const RankData> rank_;
  EventId event_ = kNoEvent;
};

}  // namespace sutra::widgets
