// SPDX-License-Identifier: MIT
#pragma once
// Recoverable problems met while loading or analysing a trace (an event with a negative duration,
// an unmatched flow, an unknown phase): counted by kind with a severity and the first example, so
// loading goes on and the CLI and the GUI can show what was wrong and how often.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sutra {

enum class Severity : std::uint8_t { Info, Warning, Error };
std::string_view severityName(Severity severity);

struct Problem {
  Severity severity = Severity::Warning;
  std::string what;  // the kind, a stable sentence: "event with negative duration"
  std::uint64_t count = 0;
  std::string example;  // the first occurrence, human readable
};

class ProblemLog {
 public:
  // Counts one occurrence of `what`; the example is kept from the first.
  void add(Severity severity, std::string_view what, std::string_view example = {});
  void add(Severity severity, std::string_view what, std::uint64_t count, std::string_view example);
  const std::vector<Problem>& all() const { return problems_; }
  bool empty() const { return problems_.empty(); }
  std::uint64_t count(std::string_view what) const;
  void merge(const ProblemLog& other);

 private:
  std::vector<Problem> problems_;  // few kinds: a linear search beats a map here
};

}  // namespace sutra
