// SPDX-License-Identifier: MIT
#pragma once
// Core values as text for the views: thin QString wrappers over core's std::string formatting
// (model/time.h). Free functions, so they live in widgets/text/ beside the Qt classes' folder.
#include <QString>

#include "model/time.h"

namespace sutra::widgets {

inline QString durationText(TimeNs ns) { return QString::fromStdString(formatDuration(ns)); }

}  // namespace sutra::widgets
