// SPDX-License-Identifier: MIT
#include "rank_alignment.h"

#include <QStringList>
#include <string_view>

namespace sutra::widgets {

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

QString alignmentNote(const RankOffsets& offsets, RankAlignment alignment,
                      const std::vector<QString>& labels) {
  if (alignment == RankAlignment::SharedClock) return QStringLiteral("shared clock (as recorded)");
  if (alignment == RankAlignment::Collectives)
    return offsets.reference < 0
               ? QStringLiteral("collectives not matched yet: shared clock (as recorded)")
               : QStringLiteral("aligned on collectives (each rank's collectives end together)");
  if (offsets.reference < 0)
    return QStringLiteral("no ProfilerStep to align on: shared clock (as recorded)");
  QString note = QStringLiteral("aligned on each rank's first ProfilerStep");
  if (!offsets.unaligned.empty()) {
    QStringList names;
    for (int i : offsets.unaligned)
      names << (i < static_cast<int>(labels.size()) ? labels[static_cast<std::size_t>(i)]
                                                    : QString::number(i));
    note += QStringLiteral("; as recorded (no ProfilerStep): ") + names.join(QStringLiteral(", "));
  }
  return note;
}

QString alignmentTag(const RankOffsets& offsets, RankAlignment alignment) {
  if (alignment == RankAlignment::SharedClock || offsets.reference < 0)
    return QStringLiteral("shared clock");
  if (alignment == RankAlignment::Collectives) return QStringLiteral("aligned on collectives");
  return offsets.unaligned.empty() ? QStringLiteral("aligned on first ProfilerStep")
                                   : QStringLiteral("aligned on first ProfilerStep (not all)");
}

}  // namespace sutra::widgets
