// SPDX-License-Identifier: MIT
#include "text/alignment_text.h"

#include <string>

namespace sutra::widgets {

QString alignmentNote(const view::RankOffsets& offsets, view::RankAlignment alignment,
                      const std::vector<QString>& labels) {
  std::vector<std::string> names;
  names.reserve(labels.size());
  for (const QString& label : labels) names.push_back(label.toStdString());
  return QString::fromStdString(view::alignmentNoteText(offsets, alignment, names));
}

QString alignmentTag(const view::RankOffsets& offsets, view::RankAlignment alignment) {
  return QString::fromStdString(view::alignmentTagText(offsets, alignment));
}

}  // namespace sutra::widgets
