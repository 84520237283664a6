// SPDX-License-Identifier: MIT
#pragma once
// How an ET was matched to its Kineto trace, in the words the window, the export summary and the
// status line use: the linker's "rf_id" is "by record function id", "alignment" "by alignment".
#include <string>
#include <string_view>

namespace sutra {

inline std::string linkMatchingWords(std::string_view matching) {
  if (matching == "rf_id") return "by record function id";
  if (matching == "alignment") return "by alignment";
  if (matching == "kineto_only") return "from the Kineto trace alone";
  return "by " + std::string(matching);
}

}  // namespace sutra
