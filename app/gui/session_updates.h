// SPDX-License-Identifier: MIT
#pragma once
// An action that depends on what is loaded (enabled with a run, its tooltip naming it) is updated
// whenever the session starts, finishes, fails or is cancelled a load; one helper for each such
// action of the window, so none misses a state.
#include <QObject>
#include <utility>

#include "trace_session.h"

namespace sutra::gui {

// Calls `update` now and on each change of the session's load state, for as long as `context`
// lives.
template <typename Update>
void updateOnLoadChanges(TraceSession* session, QObject* context, Update update) {
  update();
  QObject::connect(session, &TraceSession::started, context, update);
  QObject::connect(session, &TraceSession::finished, context, update);
  QObject::connect(session, &TraceSession::failed, context, update);
  QObject::connect(session, &TraceSession::canceled, context, std::move(update));
}

}  // namespace sutra::gui
