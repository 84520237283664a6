// SPDX-License-Identifier: MIT
#pragma once
// The view maths lived in the widgets (namespace sutra::widgets) before it moved here as
// sutra::view; the Qt code in that namespace still names it unqualified (LaneLayout, TimeRange,
// widgets::TimeRange), which this one directive keeps working. Every header of view/ includes it.
// View code itself never relies on it; Qt code may write view:: where that reads better.
namespace sutra::view {}

namespace sutra::widgets {
using namespace sutra::view;
}  // namespace sutra::widgets
