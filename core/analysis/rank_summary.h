// SPDX-License-Identifier: MIT
#pragma once
// A rank's trace reduced to what an overview of hundreds of ranks needs, small enough to keep for
// every rank of a job while its trace is dropped: per step its duration and how the device spent
// it (compute, communication not hidden by compute, idle), and per communication kernel its key
// (the collective matching's: process group, collective, sequence number) and when the rank
// arrived at it and left it. Summaries are plain data, written and read as small JSON, so they
// can be computed where the traces are and merged elsewhere.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "link/steps.h"
#include "model/time.h"
#include "simulate/collective_matching.h"
#include "util/result.h"

namespace sutra {

class LaunchIndex;
struct Trace;

struct StepSummary {
  std::int64_t number = 0;  // ProfilerStep#N's N (or the iteration index: steps.h)
  TimeNs start = 0;         // on the rank's clock
  TimeNs duration = 0;      // Step::duration(): to the end of the device work it launched
  // Within [start, start + duration), across every device stream of the rank:
  TimeNs compute = 0;      // busy with kernels, copies or sets other than communication
  TimeNs exposedComm = 0;  // busy with communication kernels and nothing else
  TimeNs idle = 0;         // no device op running: duration - compute - exposedComm
};

// One communication kernel of the rank, in the order the rank issued them.
struct CommArrival {
  std::uint32_t key = 0;            // index into RankSummary::commKeys
  std::optional<std::int64_t> seq;  // the trace's sequence number, where it gives one
  std::int32_t step = -1;           // index into RankSummary::steps whose window holds it
  TimeNs arrival = 0;               // the kernel's start: the rank is ready to communicate
  TimeNs end = 0;                   // the kernel's end: the collective is done on this rank
};

struct CommKey {
  std::string processGroup;
  std::string collective;
  bool operator==(const CommKey&) const = default;
};

struct RankSummary {
  int rank = 0;
  // The file it was made from, and that file's size and modification time when it was read: what
  // a cached summary is checked against.
  std::string path;
  std::uint64_t fileBytes = 0;
  std::int64_t fileMtimeNs = 0;
  StepSource stepSource = StepSource::ProfilerStep;
  std::vector<StepSummary> steps;
  std::vector<CommKey> commKeys;
  std::vector<CommArrival> comms;

  // Means per step (0 without steps).
  TimeNs meanStep() const;
  TimeNs meanCompute() const;
  TimeNs meanExposedComm() const;
  TimeNs meanIdle() const;
  // The communication ops in the collective matching's form; node = index into `comms`.
  RankComms commOps() const;
};

// Summarises one rank's trace. `rank`, `path`, `fileBytes` and `fileMtimeNs` are left for the
// caller.
RankSummary summarizeRank(const Trace& trace, const LaunchIndex& launches,
                          std::span<const Step> steps);

// Summaries as a JSON document, {"sutra_rank_summaries": 1, "ranks": [...]} (a saved overview,
// or one cached rank), and back. Reading fails with a message naming `source` (a file) and the
// first field that is missing or of the wrong type.
std::string rankSummariesToJson(std::span<const RankSummary> summaries);
Result<std::vector<RankSummary>> rankSummariesFromJson(std::string_view json,
                                                       const std::string& source);
// Whether the first bytes of a file are those of rankSummariesToJson's documents.
bool looksLikeRankSummaries(std::string_view head);

}  // namespace sutra
