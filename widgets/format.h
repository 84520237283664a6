// SPDX-License-Identifier: MIT
#pragma once
// Core values as text for the views.
#include <QString>

#include "model/time.h"

namespace sutra::widgets {

inline QString durationText(TimeNs ns) { return QString::fromStdString(formatDuration(ns)); }

}  // namespace sutra::widgets
