// SPDX-License-Identifier: MIT
#pragma once
// What File > Export writes, as plain functions over core (no dialogs, no Qt): Chakra .et files,
// one per rank (linked with the rank's execution trace where the directory has one), linked ET+
// JSON, and the measured or simulated timeline as Chrome-trace JSON. The GUI runs them off its
// thread with a progress bar and Cancel, and shows the summary; tests read the files back with
// core's readers.
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "model/et_trace.h"
#include "model/trace.h"
#include "simulate/simulator.h"
#include "util/result.h"

namespace sutra::widgets {

struct RankExportInput {
  int rank = 0;
  std::shared_ptr<const Trace> kineto;
  std::shared_ptr<const EtTrace> et;  // may be null: the Kineto trace's own CPU ops are linked
  std::string etPath;  // read (when `et` is null) so the conversion links the ET; may be empty
};

// The stages of one rank's export, in order, for the progress bar.
// The file name stem of a run's Chakra files (<stem>.<rank>.et): the trace's name without its rank
// ("rank0.kineto.json.gz" gives nothing, so the folder's name: "allreduce_2ranks"), never a
// stem that repeats a rank number beside the real one ("rank0.1.et").
std::string chakraStemFor(const std::string& tracePath);

enum class ExportStage { ReadingEt, Linking, Converting, Writing, Done };
inline constexpr int kExportStages = 4;  // before Done
std::string exportStageName(ExportStage stage);
// Told before each stage of each rank (rankIndex of rankCount); returns false to cancel: the ranks
// not yet written are left out and reported as cancelled, nothing half-written is left.
using ExportProgress = std::function<bool(int rankIndex, int rankCount, ExportStage stage)>;

struct RankExportResult {
  int rank = 0;
  std::string path;  // the .et written, empty when the rank failed
  std::size_t nodes = 0;
  std::size_t edges = 0;
  std::string matching;  // the linker's matching: "rf_id", "alignment", "kineto_only"
  std::string etPath;    // the execution trace linked, empty when the Kineto trace was alone
  std::string error;     // why nothing was written for this rank
  std::vector<std::string> problems;  // "count x what" of the link and the conversion
};

struct ChakraExportSummary {
  std::vector<RankExportResult> ranks;
  bool canceled = false;
  std::size_t written() const;
  std::size_t problemCount() const;  // problem kinds over all ranks
  std::string text() const;          // one line per rank, then its problems, for the dialog
};

// Writes `<directory>/<stem>.<rank>.et` for each rank (atomically; never over a path in
// `protectedPaths`). A rank that fails is reported and the others are still written.
ChakraExportSummary exportChakraTraces(const std::vector<RankExportInput>& ranks,
                                       const std::string& directory, const std::string& stem,
                                       const std::vector<std::string>& protectedPaths,
                                       const ExportProgress& progress = {});

// Links `input` (its ET where it has one, else the Kineto trace alone) and writes the ET+ JSON to
// `path` (never over one of protectedPaths); says how it was matched in `matching`.
Status exportLinkedEtPlus(const RankExportInput& input, const std::string& path,
                          const std::vector<std::string>& protectedPaths,
                          std::string* matching = nullptr);

// The measured timeline as Chrome-trace (Kineto) JSON, gzipped for a .gz name.
Status exportMeasuredTimeline(const Trace& trace, const std::string& path,
                              const std::vector<std::string>& protectedPaths);

// Simulates `trace` under no knobs and writes its simulated timeline as Chrome-trace JSON.
Status exportSimulatedTimeline(const Trace& trace, const std::string& path);
// The same for a simulation already run (the one the simulation window shows, what-if included).
Status exportSimulatedTimeline(const SimGraph& graph, const SimRun& run, int rank,
                               const std::string& path);

}  // namespace sutra::widgets
