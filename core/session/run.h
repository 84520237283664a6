// SPDX-License-Identifier: MIT
#pragma once
// One run, opened once for every front end: the GUI's TraceSession and every sutra-cli command
// drive this, so both read, link and analyse a trace directory the same way and fail with the
// same words.
//
// A run is built stage by stage, rank by rank; each stage of a rank yields one immutable result
// (shared_ptr<const>), built once and shared by every later stage and every copy of the rank:
//   Read     the rank's Kineto trace (the result is the Trace itself);
//   Link     a LinkResult: its launch index and sync dependencies, and its PyTorch execution trace
//            (where discovery paired one) read and linked with the Kineto trace;
//   Analyse  an AnalyseResult: its steps and its whole-trace operator table;
//   Simulate its simulation graph (with the ET's inter-thread dependencies where it was linked);
// then, with two ranks or more, the collectives matched across ranks. A rank's stage is what it
// holds (RankRun::has); a rank is republished as a new RankRun after each stage, so what a caller
// was given never changes under it. advanceRun() takes a run from where it stands to a later
// stage, building only what is missing; openRun() is discovery followed by advanceRun(). Ranks
// that have only a Chakra graph (<prefix>.<r>.et) are opened as simulation-only ranks where
// RunOptions::chakraGraphs asks for them.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/op_table.h"
#include "link/launch_index.h"
#include "link/linked_trace.h"
#include "link/steps.h"
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

// What the Link stage built for one rank.
struct LinkResult {
  std::shared_ptr<const LaunchIndex> launches;
  std::shared_ptr<const std::vector<SyncDependency>> syncs;  // null where not asked for
  std::shared_ptr<const EtTrace> et;
  // The ET linked with the Kineto trace; null without an ET or where linking failed (note says
  // why: the Kineto trace is then used alone).
  std::shared_ptr<const LinkedTrace> linked;
  std::string note;
  bool etTried = false;  // the rank's ET was read and linked (or failed to be)
  ProblemLog problems;   // what attribution, sync matching and linking could not resolve
};

// What the Analyse stage built for one rank.
struct AnalyseResult {
  std::vector<Step> steps;
  std::shared_ptr<const OpTable> opTable;  // the whole trace, not grouped by shapes; null if not
                                           // asked for
};

// Everything known about one rank: where it comes from and the result of each stage it has been
// through (null before). A Chakra-only rank has its simulation alone.
struct RankRun {
  int rank = 0;
  std::string kinetoPath;  // empty for a Chakra-only rank
  std::string etPath;      // the execution trace discovery paired with it, empty when none
  std::string chakraPath;  // a Chakra-only rank's graph

  std::shared_ptr<const Trace> trace;                // Read
  std::shared_ptr<const LinkResult> link;            // Link
  std::shared_ptr<const AnalyseResult> analysis;     // Analyse
  std::shared_ptr<const RankSimulation> simulation;  // Simulate

  // Whether the rank has been through `stage` (the one way to ask whether a result is there).
  bool has(RunStage stage) const;

  // The stages' results, or empty ones before the stage is done.
  const std::shared_ptr<const LaunchIndex>& launches() const;
  const std::shared_ptr<const std::vector<SyncDependency>>& syncs() const;
  const std::shared_ptr<const EtTrace>& et() const;
  const std::shared_ptr<const LinkedTrace>& linked() const;
  const std::string& linkNote() const;
  const ProblemLog& linkProblems() const;
  const std::vector<Step>& steps() const;
  const std::shared_ptr<const OpTable>& opTable() const;

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
  // Whether every rank has been through `stage` (and, at Simulate with two ranks or more, the
  // collectives are matched).
  bool has(RunStage stage) const;
};

struct RunOptions {
  // The default options, built up to `stage` only.
  static RunOptions upTo(RunStage stage) {
    RunOptions options;
    options.until = stage;
    return options;
  }

  RunStage until = RunStage::Simulate;  // the last stage openRun builds
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
  // Where the run's ranks hold more events than this in all (0: no limit), openRun stops at
  // Analyse instead of Simulate and says so in the run's notes: the window opens a trace bigger
  // than memory without building a simulation graph of every event, which the simulation window
  // builds when asked.
  std::uint64_t simulateUpToEvents = 0;
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

// Takes `run` on to `stage`: each rank's missing results are built, what it has is reused (a stage
// is built again, with those after it, only where `options` need more of it than it holds: sync
// dependencies, the ET linked, the events' args, the whole-trace table). `run` is not changed;
// `options.until` is ignored. Fails as openRun does.
Result<Run> advanceRun(const Run& run, RunStage stage, const RunOptions& options = {},
                       const RunCallbacks& callbacks = {}, const CancelToken& cancel = {});

// Opens `paths` (files and/or directories): discovery, then advanceRun() to `options.until`.
// Fails with a message naming the file and the problem when there is nothing to open; a canceled
// open fails with kCanceled.
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
