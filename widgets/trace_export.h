// SPDX-License-Identifier: MIT
#pragma once
// What File > Export writes, as plain functions over core (no dialogs, no Qt): Chakra .et files,
// one per rank, and the simulated timeline as Chrome-trace JSON. The GUI runs them off its
// thread and shows the summary; tests read the files back with core's readers.
#include <memory>
#include <string>
#include <vector>

#include "model/et_trace.h"
#include "model/trace.h"
#include "util/result.h"

namespace sutra::widgets {

struct RankExportInput {
  int rank = 0;
  std::shared_ptr<const Trace> kineto;
  std::shared_ptr<const EtTrace> et;  // may be null: the Kineto trace's own CPU ops are linked
};

struct RankExportResult {
  int rank = 0;
  std::string path;        // the .et written, empty when the rank failed
  std::size_t nodes = 0;
  std::size_t edges = 0;
  std::string matching;    // the linker's matching: "rf_id", "alignment", "kineto_only"
  std::string error;       // why nothing was written for this rank
  std::vector<std::string> problems;  // "count x what" of the link and the conversion
};

struct ChakraExportSummary {
  std::vector<RankExportResult> ranks;
  std::size_t written() const;
  std::string text() const;  // one line per rank, then its problems, for the dialog
};

// Writes `<directory>/<stem>.<rank>.et` for each rank (atomically; never over a path in
// `protectedPaths`). A rank that fails is reported and the others are still written.
ChakraExportSummary exportChakraTraces(const std::vector<RankExportInput>& ranks,
                                       const std::string& directory, const std::string& stem,
                                       const std::vector<std::string>& protectedPaths);

// Simulates `trace` under no knobs and writes its simulated timeline as Chrome-trace JSON.
Status exportSimulatedTimeline(const Trace& trace, const std::string& path);

}  // namespace sutra::widgets
