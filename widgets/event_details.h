// SPDX-License-Identifier: MIT
#pragma once
// The details panel: everything about the selected event (name, category, lane, times, ids,
// parent, what launched it and what it launched) and all its args, pretty-printed.
#include <QString>
#include <QTextBrowser>
#include <optional>

#include "rank_data.h"

namespace sutra::widgets {

// HTML for the selected event of `rank`; links "event:N" select event N. Its start is counted from
// `origin` (in the rank's own times: the all-ranks view's ruler starts at the earliest rank), from
// the trace's first event when not given.
QString eventDetailsHtml(const RankData& rank, EventId event,
                         std::optional<TimeNs> origin = std::nullopt);
// Where the rank's ET is linked and `event` is a CPU op matched to an ET node: that node (id,
// schema, inputs and outputs with their types and shapes, its data dependencies) as HTML; else "".
QString etNodeHtml(const RankData& rank, EventId event);
// The event's args as indented JSON text ("" when it has none; as written when not valid JSON).
QString prettyArgs(const Trace& trace, EventId event);

class EventDetailsView : public QTextBrowser {
  Q_OBJECT

 public:
  explicit EventDetailsView(QWidget* parent = nullptr);
  void showDetails(std::shared_ptr<const RankData> rank, EventId event,
                   std::optional<TimeNs> origin = std::nullopt);

 signals:
  void eventLinkActivated(sutra::EventId event);

 protected:
  void changeEvent(QEvent* event) override;

 private:
  std::shared_ptr<const RankData> rank_;
  EventId event_ = kNoEvent;
  std::optional<TimeNs> origin_;
};

}  // namespace sutra::widgets
