// SPDX-License-Identifier: MIT
#pragma once
// The Chakra graph of one rank as ASTRA-sim can replay it (`sutra-cli convert --for astra-sim`).
//
// ASTRA-sim keeps, per NPU, at most one CPU node, one GPU compute node and one GPU communication
// node in flight (HardwareResource in its workload layer) and reads only data_deps. The graph
// Sutra's own simulator replays (converter.h) has a timeline per host thread and per stream; in
// ASTRA-sim their nodes would be added up and the overlap the trace measured lost. This graph
// has three timelines instead:
// - host: every CPU op of every thread, in the order their measured ends come, each node the
//   time from the previous end (or from its own start, after a "host gap" node) to its end: the
//   union of the threads' activity, with the nesting and the threads merged;
// - compute: every kernel, copy and set the same way ("device gap" nodes between): kernels that
//   overlapped on several streams become the time they took together;
// - communication: the collectives and sends/receives (NCCL's kernels, or a CPU backend's
//   collectives: gloo's worker ops) the same way: collectives that overlapped (gloo's two workers
//   on one link) each take their share of the time they took together, and the network fit
//   (astra_sim_config.h) turns those shares into the link's bandwidth.
// A node waits on the nodes of the other timelines it depended on (launches, syncs, stream order)
// where the trace shows it began after their measured end (the others would hold it late), and
// on the latest host node that ended before it began where its launcher ended after. So, with
// communication taking what it measured, every node ends where it was measured (to a us).
#include <array>
#include <cstdint>
#include <string>

#include "chakra/converter.h"
#include "chakra/et_file.h"
#include "link/linked_trace.h"
#include "model/time.h"

namespace sutra::chakra {

// What ASTRA-sim's three timelines cannot say about the trace, in ns.
struct AstraSimGraphReport {
  TimeNs iterationNs = 0;       // first op's start to the last op's end
  TimeNs hostMergedNs = 0;      // threads' busy time beyond the union (merged: kept exact)
  TimeNs computeOverlapNs = 0;  // kernels' time beyond their union (merged into one node time)
  std::size_t overlappedKernels = 0;  // kernels that ran while another stream's kernel ran
  TimeNs commOverlapNs = 0;           // communication beyond its union (shared out)
  std::size_t hostGapNodes = 0;
  std::size_t deviceGapNodes = 0;
  std::size_t depsDropped = 0;  // cross-timeline deps on nodes that ended after the node began
  // The graph's data_deps by what they stand for: a timeline's order (Serial on the host, Stream
  // on the device), Launch (host to device), Sync (device to host).
  std::array<std::size_t, static_cast<std::size_t>(EdgeKind::Count)> edges{};
};

struct AstraSimGraph {
  ChakraTrace trace;
  AstraSimGraphReport report;
};

// `converted` is convertToChakra's graph of `linked` (its op nodes carry the ops' ids; its gap
// nodes are replaced). Fails when no node of `converted` is an op of `linked`.
Result<AstraSimGraph> astraSimGraph(const LinkedTrace& linked, const ChakraTrace& converted);

// ASTRA-sim starts every rank at 0; the ranks of a run began at different moments. A collective
// ends at one moment for all its ranks, so where every rank has one, rank r began
// max_q(E_q) - E_r after the first (E: the first collective's end from the rank's first op, on
// its own clock, which offsets between hosts' clocks do not touch). Each graph that began later
// is rewritten with a host gap of that time before everything else (its start times shifted), so
// that its measured span counts from the run's start, as ASTRA-sim's finish does. Returns each
// rank's lead in us (all 0 where a rank has no collective: nothing to align on).
Result<std::vector<std::int64_t>> alignAstraSimRankStarts(const std::vector<std::string>& paths,
                                                          const ChakraWriteOptions& write = {});

// The report in words, one line per thing ASTRA-sim cannot express ("" where there is none).
std::string describeAstraSimGraphReport(const AstraSimGraphReport& report);

}  // namespace sutra::chakra
