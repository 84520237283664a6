// SPDX-License-Identifier: MIT
#pragma once
// File-level conversion to Chakra: read an ET and the Kineto trace recorded with it, link them,
// convert (or read an ET+ file that is linked already); and write one `<prefix>.<rank>.et` per
// rank. `sutra-cli convert`, File > Export > Chakra trace(s), the tests and the benchmark all run
// these, so every front end names its files and numbers its ranks the same way.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "chakra/converter.h"
#include "link/linked_trace.h"
#include "util/result.h"

namespace sutra::chakra {

struct PairConversion {
  LinkedTrace linked;
  ChakraConversion chakra;
};

// An ET and the Kineto trace recorded with it, read and linked (an empty etPath: the Kineto
// trace alone).
Result<LinkedTrace> linkTracePair(const std::string& etPath, const std::string& kinetoPath,
                                  const LinkOptions& link = {});

// An empty etPath converts the Kineto trace alone: its own CPU ops, launches and device ops.
Result<PairConversion> convertTracePair(const std::string& etPath, const std::string& kinetoPath,
                                        const LinkOptions& link = {},
                                        const ConvertOptions& convert = {});

// "<prefix>.<rank>.et": the one file-name rule of every Chakra export.
std::string rankFileName(const std::string& prefix, int rank);

// The file name stem of a run's Chakra files (<stem>.<rank>.et): the trace's name without its rank
// ("rank0.kineto.json.gz" gives nothing, so the folder's name: "allreduce_2ranks"), never a stem
// that repeats a rank number beside the real one ("rank0.1.et").
std::string chakraStemFor(const std::string& tracePath);

// One rank to export, from what a run holds already (core/session) or from files. The rank is the
// run's (discovery's) rank number, the one rule for every front end.
struct RankExportInput {
  int rank = 0;
  std::shared_ptr<const Trace> kineto;
  std::shared_ptr<const EtTrace> et;          // null: read from etPath, or none (Kineto alone)
  std::string etPath;                         // may be empty
  std::shared_ptr<const LinkedTrace> linked;  // linked already: used as it is
};

// The stages of one rank's export, in order, for a progress bar.
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
  // ASTRA-sim's configurations written beside the ranks (chakra/astra_sim_config.h): the paths,
  // how the network was fitted, or why they were not written.
  std::vector<std::string> astraSimConfigs;
  std::string astraSimBasis;
  std::string astraSimError;
  std::size_t written() const;
  std::size_t problemCount() const;  // problem kinds over all ranks
  std::string text() const;          // one line per rank, then its problems, for a dialog
};

// Writes rankFileName(prefix, rank) for each rank (atomically; never over a path in
// write.protectedPaths), then ASTRA-sim's network, system and memory configurations for the
// ranks written (writeAstraSimConfig). A rank that fails is reported and the others are still
// written.
ChakraExportSummary exportChakraTraces(const std::vector<RankExportInput>& ranks,
                                       const std::string& prefix, const ChakraWriteOptions& write,
                                       const ExportProgress& progress = {},
                                       const ConvertOptions& convert = {});

// Writes `trace` as `<prefix>.<rank>.et` for each rank in `ranks` (a replicated rank is written
// once per listed rank with its GlobalMetadata "rank" attribute set to that rank), refusing to
// overwrite any path in options.protectedPaths. Returns the paths written.
Result<std::vector<std::string>> writeRankFiles(const ChakraTrace& trace, const std::string& prefix,
                                                const std::vector<int>& ranks,
                                                const ChakraWriteOptions& options = {});
// Converts and writes in one pass (encodeToChakra with a sink where there is one rank: the file
// is written as it is encoded, never held in memory; replicated ranks are encoded once, then
// written). The same files as convertToChakra and writeRankFiles; `written` gets their paths.
// A conversion that fails writes nothing.
Result<EncodedChakra> encodeRankFiles(const LinkedTrace& linked, const std::string& prefix,
                                      const std::vector<int>& ranks,
                                      const ChakraWriteOptions& write,
                                      const ConvertOptions& convert,
                                      const std::function<void(const NodeFacts&)>& eachNode,
                                      std::vector<std::string>& written);

// The same for an encoded conversion (encodeToChakra): the same files.
Result<std::vector<std::string>> writeRankFiles(const EncodedChakra& encoded,
                                                const std::string& prefix,
                                                const std::vector<int>& ranks,
                                                const ChakraWriteOptions& options = {});

}  // namespace sutra::chakra
