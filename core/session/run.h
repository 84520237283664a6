// SPDX-License-Identifier: MIT
#pragma once
// One run, opened once for every front end: the GUI's TraceSession and every sutra-cli command
// drive this, so both read, link and analyse a trace directory the same way and fail with the
// same words.
//
// openRun() discovers the ranks in the paths given and builds, stage by stage and rank by rank:
//   Read     the rank's Kineto trace;
//   Link     its launch index and sync dependencies, and its PyTorch execution trace (where
//            discovery paired one) read and linked with the Kineto trace;
//   Analyse  its steps and its whole-trace operator table;
//   Simulate its simulation graph (with the ET's inter-thread dependencies where it was linked);
// then, with two ranks or more, the collectives matched across ranks. Each result is built once
// and shared (shared_ptr<const>); a rank is republished as a new RankRun after each stage, so what
// a caller was given never changes under it. Ranks that have only a Chakra graph (<prefix>.<r>.et)
// are opened as simulation-only ranks where RunOptions::chakraGraphs asks for them.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/op_table.h"
#include "analysis/steps.h"
#include "link/launch_index.h"
#include "link/linked_trace.h"
#include "link/sync_dependencies.h"
#include "model/et_trace.h"
#include "model/problems.h"
#include "model/trace.h"
#include "simulate/chakra_simulation.h"
#include "simulate/rank_simulation.h"
#include "util/cancel_token.h"
#include "util/result.h"

namespace sutra {

struct RunCollectives;

enum class RunStage { Read, Link, Analyse, Simulate };
// What a stage does, as progress shows it: "Building the operator table".
std::string_view runStageName(RunStage stage);

// Everything known about one rank. Fields stay null (empty) until their stage is done.
struct RankRun {
  int rank = 0;
  std::string kinetoPath;           // empty for a Chakra-only rank
  std::string etPath;               // the execution trace discovery paired with it, empty when none
  std::string chakraPath;           // a Chakra-only rank's graph
  RunStage stage = RunStage::Read;  // the last stage done

  std::shared_ptr<const Trace> trace;  // null for a Chakra-only rank
  // Link
  std::shared_ptr<const LaunchIndex> launches;
  std::shared_ptr<const std::vector<SyncDependency>> syncs;
  std::shared_ptr<const EtTrace> et;
  // The ET linked with the Kineto trace; null without an ET or where linking failed (linkNote
  // says why: the Kineto trace is then used alone).
  std::shared_ptr<const LinkedTrace> linked;
  std::string linkNote;
  ProblemLog linkProblems;  // what attribution, sync matching and linking could not resolve
  // Analyse
  std::vector<Step> steps;
  std::shared_ptr<const OpTable> opTable;  // the whole trace, not grouped by shapes
  // Simulate
  std::shared_ptr<const RankSimulation> simulation;

  // "rank0"
  std::string label() const { return "rank" + std::to_string(rank); }
  // The file the rank was read from: its Kineto trace, else its Chakra graph.
  const std::string& path() const { return kinetoPath.empty() ? chakraPath : kinetoPath; }
};

// How the rank's execution trace is paired with its Kineto trace, in words for a status line:
// "linked with rank0.et.json.gz by alignment: 928 of 928 ET ops matched, 261 of 261 device ops
// given their op", "ET rank0.et.json.gz not linked: <why>; the Kineto trace alone", or "no
// execution trace" where discovery paired none.
std::string describeEtLink(const RankRun& rank);

struct Run {
  std::vector<std::string> paths;                     // as given
  std::vector<std::string> notes;                     // discovery's: unpaired files and why
  std::vector<std::shared_ptr<const RankRun>> ranks;  // in rank order
  std::shared_ptr<const RunCollectives> collectives;  // two ranks or more, after Simulate
};

struct RunOptions {
  // The default options, built up to `stage` only.
  static RunOptions upTo(RunStage stage) {
    RunOptions options;
    options.until = stage;
    return options;
  }

  RunStage until = RunStage::Simulate;  // the last stage to build
  bool linkEt = true;                   // read and link each rank's ET where it has one
  bool wholeTraceTable = true;          // Analyse builds the whole-trace operator table
  bool syncDependencies = true;         // Link finds the sync dependencies (Simulate needs them)
  bool chakraGraphs = false;            // open ranks that have only a Chakra graph
  // Off: a rank's Kineto trace is read without its events' args text (KinetoReadOptions::
  // eventArgs) where no stage built reads it (no ET linked, no sync dependencies, no simulation):
  // a third less load time and memory for what reads only names and times (compare's tables).
  bool eventArgs = true;
  // Large Kineto traces are read through the trace cache (io/trace_cache.h: mapped on a reopen
  // instead of parsed); off, or SUTRA_CACHE=0, parses every time and writes no cache.
  bool traceCache = true;
  ChakraSimOptions chakra;      // how those are simulated
  std::optional<int> onlyRank;  // open this rank alone (a rank number)
};

// Told on the opening thread as the run grows; every member may be empty.
struct RunCallbacks {
  std::function<void(int percent, const std::string& what)> progress;
  // Discovery is done: `count` ranks follow, in rank order.
  std::function<void(const Run& run, int count)> ranksFound;
  // Rank `index` (into Run::ranks) finished `stage`.
  std::function<void(int index, RunStage stage, const std::shared_ptr<const RankRun>& rank)> rank;
  std::function<void(const std::shared_ptr<const RunCollectives>& collectives)> collectives;
};

// Opens `paths` (files and/or directories). Fails with a message naming the file and the problem
// when there is nothing to open; a canceled open fails with kCanceled.
Result<Run> openRun(const std::vector<std::string>& paths, const RunOptions& options = {},
                    const RunCallbacks& callbacks = {}, const CancelToken& cancel = {});

// The files of one rank, given rather than discovered (sutra-cli's --kineto K --et E).
struct RankFiles {
  std::optional<int> rank;  // else the Kineto trace's distributedInfo rank, else 0
  std::string kineto;       // or
  std::string chakra;       // a Chakra graph alone
  std::string et;           // optional, with `kineto`
};
Result<Run> openRankFiles(const std::vector<RankFiles>& ranks, const RunOptions& options = {},
                          const RunCallbacks& callbacks = {}, const CancelToken& cancel = {});

// A run of one trace already in memory (a test's, or a view's own): its stages from Link on.
Result<Run> runOfTrace(std::shared_ptr<const Trace> trace, const RunOptions& options = {});

inline constexpr const char* kCanceled = "canceled";

// The one Kineto trace of `path` (a file, or a directory holding one run) read and analysed up to
// `until`, for the single-trace commands (stats, chain, critical-path, compare).
// (`options.linkEt` is ignored: a trace alone has no ET.)
Result<std::shared_ptr<const RankRun>> openTrace(
    const std::string& path, RunOptions options = RunOptions::upTo(RunStage::Analyse));

}  // namespace sutra
