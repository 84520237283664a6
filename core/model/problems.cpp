// SPDX-License-Identifier: MIT
#include "model/problems.h"

namespace sutra {

std::string_view severityName(Severity severity) {
  switch (severity) {
    case Severity::Info:
      return "info";
    case Severity::Warning:
      return "warning";
    case Severity::Error:
      return "error";
  }
  return "warning";
}

void ProblemLog::add(Severity severity, std::string_view what, std::string_view example) {
  add(severity, what, 1, example);
}

void ProblemLog::add(Severity severity, std::string_view what, std::uint64_t count,
                     std::string_view example) {
  for (auto& p : problems_) {
    if (p.what == what) {
      p.count += count;
      if (severity > p.severity) p.severity = severity;
      return;
    }
  }
  problems_.push_back(Problem{severity, std::string(what), count, std::string(example)});
}

std::uint64_t ProblemLog::count(std::string_view what) const {
  for (const auto& p : problems_)
    if (p.what == what) return p.count;
  return 0;
}

void ProblemLog::merge(const ProblemLog& other) {
  for (const auto& p : other.problems_) add(p.severity, p.what, p.count, p.example);
}

}  // namespace sutra
