// SPDX-License-Identifier: MIT
#include "view/rank_alignment.h"

#include <string_view>

namespace sutra::view {

std::optional<TimeNs> firstProfilerStepStart(const Trace& trace) {
  // Names first: a handful of strings, then one pass over the events comparing ids.
  std::vector<bool> isStep(trace.names.size(), false);
  bool any = false;
  for (StringId id = 1; id < trace.names.size(); ++id) {
    const std::string_view name = trace.names.view(id);
    isStep[id] = name.starts_with("ProfilerStep#");
    any = any || isStep[id];
  }
  if (!any) return std::nullopt;
  std::optional<TimeNs> first;
  for (const Event& e : trace.events)
    if (isStep[e.name] && (!first || e.start < *first)) first = e.start;
  return first;
}

RankOffsets rankOffsets(const std::vector<const Trace*>& traces, RankAlignment alignment,
                        const std::vector<TimeNs>& collectiveOffsets) {
  RankOffsets out;
  out.offsets.assign(traces.size(), 0);
  if (alignment == RankAlignment::SharedClock) return out;
  if (alignment == RankAlignment::Collectives) {
    if (collectiveOffsets.size() == traces.size() && !traces.empty()) {
      out.offsets = collectiveOffsets;
      out.reference = 0;
    }
    return out;
  }
  std::vector<std::optional<TimeNs>> steps;
  steps.reserve(traces.size());
  for (const Trace* trace : traces)
    steps.push_back(trace ? firstProfilerStepStart(*trace) : std::nullopt);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (!steps[i]) {
      out.unaligned.push_back(static_cast<int>(i));
    } else if (out.reference < 0) {
      out.reference = static_cast<int>(i);
    }
  }
  if (out.reference < 0) return out;
  const TimeNs reference = *steps[static_cast<std::size_t>(out.reference)];
  for (std::size_t i = 0; i < steps.size(); ++i)
    if (steps[i]) out.offsets[i] = reference - *steps[i];
  return out;
}

std::string alignmentNoteText(const RankOffsets& offsets, RankAlignment alignment,
                              const std::vector<std::string>& labels) {
  if (alignment == RankAlignment::SharedClock) return "shared clock (as recorded)";
  if (alignment == RankAlignment::Collectives)
    return offsets.reference < 0 ? "collectives not matched yet: shared clock (as recorded)"
                                 : "aligned on collectives (each rank's collectives end together)";
  if (offsets.reference < 0) return "no ProfilerStep to align on: shared clock (as recorded)";
  std::string note = "aligned on each rank's first ProfilerStep";
  if (!offsets.unaligned.empty()) {
    note += "; as recorded (no ProfilerStep): ";
    for (std::size_t k = 0; k < offsets.unaligned.size(); ++k) {
      const int i = offsets.unaligned[k];
      if (k > 0) note += ", ";
      note += i >= 0 && i < static_cast<int>(labels.size()) ? labels[static_cast<std::size_t>(i)]
                                                            : std::to_string(i);
    }
  }
  return note;
}

std::string alignmentTagText(const RankOffsets& offsets, RankAlignment alignment) {
  if (alignment == RankAlignment::SharedClock || offsets.reference < 0) return "shared clock";
  if (alignment == RankAlignment::Collectives) return "aligned on collectives";
  return offsets.unaligned.empty() ? "aligned on first ProfilerStep"
                                   : "aligned on first ProfilerStep (not all)";
}

}  // namespace sutra::view
