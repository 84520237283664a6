// SPDX-License-Identifier: MIT
#pragma once
// A Chakra execution trace shown as a timeline, so the GUI, `info` and the analyses open .et files
// like any trace: CPU nodes on one lane per `tid`, device nodes on one lane per `stream` (or per
// `tid`, where Chakra's converter put the stream; comm nodes with neither on a "communication"
// lane, compute nodes on a "compute" lane), times from start_time_micros and duration_micros, and
// every dependency kept as a Flow (category "ctrl_dep" or "data_dep", from the node depended on to
// the dependant) so the GUI can draw the graph. A node is a CPU node where `is_cpu_op` says so;
// without it, compute and comm nodes and nodes with a stream are device nodes, as ASTRA-sim runs
// them.
#include <string>

#include "chakra/et_file.h"
#include "model/trace.h"
#include "util/result.h"

namespace sutra::chakra {

// Categories of the dependency flows in the timeline.
inline constexpr const char* kCtrlDepCategory = "ctrl_dep";
inline constexpr const char* kDataDepCategory = "data_dep";

// Builds the timeline. Each event's args are a JSON object with the node's id, type, attributes
// and dependencies. Files without start times (ASTRA-sim's examples) are laid out by their
// dependencies instead (a node starts when the last node it depends on ends), with an Info problem
// saying so; dependencies on absent ids and cycles are counted, never fatal.
//
// `withDetails` false (the simulator's use) keeps only what a timeline of the graph's ops needs:
// each event's args are just {"id": N}, and no dependency flows are made (the graph has them).
Trace chakraToTimeline(const ChakraTrace& et, bool withDetails = true);

// readChakraTrace + chakraToTimeline, with the reader's problems merged into the trace's.
Result<Trace> readChakraTimeline(const std::string& path);

}  // namespace sutra::chakra
