// SPDX-License-Identifier: MIT
#pragma once
// One rank's linked trace: the PyTorch execution trace's CPU operators, each given its times from
// the matching Kineto CPU op, plus every device op (kernel, memcpy, memset) the matched window
// launched, as a child of the CPU op that launched it, with the dependencies between them
// (control, inter-thread, synchronization). This is what the Chakra converter, the simulator, the
// analyses and the GUI consume, and what the ET+ writer writes (the field names of MLCommons
// Chakra's chakra_trace_link, so Chakra's converter reads Sutra's output).
//
// Ids are "ET+ ids", numbered from 0 as chakra_trace_link numbers them: the ET's nodes in ascending
// order of their ET id, each followed by the device ops it launched (by device start), so ids are
// unique and ascending and `ops` is sorted by id. Every ET node is kept (the process and thread
// roots too, as the ET+ file keeps them; they span the matched window and their thread); ET
// operators with no Kineto match keep ts = 0 and kinetoEvent = kNoEvent and are counted in the
// report. Device ops whose launch is enclosed by no linked CPU op are not kept (counted).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "model/et_trace.h"
#include "model/problems.h"
#include "model/time.h"
#include "model/trace.h"
#include "util/result.h"

namespace sutra {

class LaunchIndex;

enum class LinkedOpKind : std::uint8_t { CpuOp, DeviceOp };

// Compact (issue 21: an ET+ of 100 MB has 160,000): texts are views into what the trace owns (its
// ET's or Kineto trace's storage, or `LinkedTrace::texts`), fields ordered to leave no padding.
struct LinkedOp {
  std::int64_t id = 0;  // ET+ id (renumbered, unique, ascending)
  // Control dependency: the enclosing CPU op (an ET node's parent, renumbered; the process root
  // is its own parent); for a device op, the CPU op that launched it. -1 if none.
  std::int64_t parent = -1;
  TimeNs ts = 0;  // absolute ns, the Kineto trace's clock
  TimeNs inclusiveDur = 0;
  TimeNs exclusiveDur = 0;  // inclusive minus the time covered by its children
  // CPU ops: the part of exclusiveDur spent blocked in synchronizing runtime calls (from the
  // call's start until the device work it waited on ended): waiting, not the op's own CPU time.
  // The ET+ writer keeps it as "blocked_dur" (0 where absent: chakra_trace_link's files).
  TimeNs blockedDur = 0;
  std::int64_t tid = 0;      // CPU ops: the ET thread number (EtNode::tid)
  std::int64_t stream = -1;  // device ops
  std::string_view name;
  std::string_view category;  // device ops: "kernel", "gpu_memcpy", "gpu_memset"
  std::string_view pgName;    // NCCL/collective kernels: the process group, else empty
  std::vector<std::int64_t> interThreadDeps;  // ids of CPU ops on other threads this op follows
  std::vector<std::int64_t> syncDeps;         // ids of device ops this op waited on
  std::int32_t etIndex = -1;                  // CPU ops from the ET: index into et->nodes, else -1
  std::int32_t device = -1;                   // device ops
  EventId kinetoEvent = kNoEvent;  // CPU op: its matched Kineto op; device op: the op itself
  EventId launchEvent = kNoEvent;  // device ops: the runtime call that launched it
  LinkedOpKind kind = LinkedOpKind::CpuOp;
  // CPU ops: a user annotation (record_function, ProfilerStep#N) rather than an operator; the
  // ET+ writer keeps it as "user_annotation".
  bool annotation = false;

  bool isCpu() const { return kind == LinkedOpKind::CpuOp; }
  bool isDevice() const { return kind == LinkedOpKind::DeviceOp; }
};

// What linking did and what it could not do, for the CLI's --json summary and the GUI.
struct LinkReport {
  std::string matching;            // "rf_id" | "alignment" | "kineto_only"
  int iteration = -1;              // alignment: the Kineto iteration chosen (0-based), else -1
  int candidateIterations = 0;     // alignment: iterations that matched equally well (fewest edits)
  int iterationCount = 0;          // alignment: candidate iterations considered
  std::size_t iterationEdits = 0;  // alignment: insertions + deletions to match the chosen one
  std::size_t etOps = 0;           // the ET's operator nodes (not its process and thread roots)
  std::size_t matchedEtOps = 0;    // of those, matched to a Kineto op
  std::size_t deviceOps = 0;       // device ops launched inside the matched window
  std::size_t linkedDeviceOps = 0;  // of those, given a launching CPU op
  std::size_t interThreadDeps = 0;
  std::size_t syncDeps = 0;
  std::vector<std::int64_t> streams;  // the streams of the linked device ops, ascending
  TimeNs windowStart = 0;             // the Kineto time window linked (absolute ns)
  TimeNs windowEnd = 0;
  // ET thread number -> Kineto host lane, as matched.
  std::vector<std::pair<std::int64_t, LaneId>> threads;
  // Why ET ops or device ops stayed unlinked: what = the reason, count, first example.
  ProblemLog unlinked;
};

struct LinkedTrace {
  std::shared_ptr<const Trace> kineto;
  std::shared_ptr<const EtTrace> et;  // may be null for a trace linked from Kineto alone
  int rank = 0;
  std::vector<LinkedOp> ops;  // sorted by id
  // Texts of the ops that neither the ET nor the Kineto trace holds (a process group name taken
  // out of a kernel's args, names given in code); shared by copies of the trace.
  std::shared_ptr<EtStorage> texts;
  IdIndex indexById;  // op id -> position in ops
  LinkReport report;
  ProblemLog problems;

  const LinkedOp* find(std::int64_t id) const {
    const std::uint32_t at = indexById.find(id);
    return at == IdIndex::kNone ? nullptr : &ops[at];
  }
  // The position of op `id` in ops, or -1.
  std::int64_t indexOf(std::int64_t id) const {
    const std::uint32_t at = indexById.find(id);
    return at == IdIndex::kNone ? -1 : static_cast<std::int64_t>(at);
  }
  // The ET node of a CPU op that came from the ET, else null.
  const EtNode* etNode(const LinkedOp& op) const {
    return et && op.etIndex >= 0 ? &et->nodes[static_cast<std::size_t>(op.etIndex)] : nullptr;
  }
  // The Kineto event of an op (matched CPU op or the device op itself), else null.
  const Event* kinetoEventOf(const LinkedOp& op) const {
    return kineto && op.kinetoEvent != kNoEvent ? &kineto->events[op.kinetoEvent] : nullptr;
  }
  // A copy of text kept in `texts` (made on first use), for an op's name, category or pgName.
  std::string_view keep(std::string_view text);
  // Rebuilds indexById from ops.
  void reindex();
};

struct LinkOptions {
  // Alignment: link to this Kineto iteration (0-based ProfilerStep window) instead of the best one.
  std::optional<int> iteration;
  // Restrict the window to the annotation "<annotation>#<step>" (e.g. ProfilerStep#5).
  std::optional<std::int64_t> step;
  // The iteration annotation: events named "<annotation>" or "<annotation>#..." are the candidate
  // windows (ProfilerStep#N by default). Without any, alignment finds the iterations itself.
  std::string annotation = "ProfilerStep";
  std::optional<int> instance;  // link to this instance (0-based, by start) of the annotation
  TimeNs interThreadGapNs = 1'000'000;  // a gap longer than this starts a new inter-thread group
  int rank = 0;
  // The Kineto trace's launch index, where the caller has built it already (it must index the
  // trace given); else the linker builds its own.
  const LaunchIndex* launches = nullptr;
  // Link even an ET and a Kineto trace that look like two different runs (see linkTraces).
  bool force = false;
};

// Links an execution trace to the Kineto trace recorded with it. A poor match alone is no failure:
// the report says what matched and why the rest did not. Fails (Error) when nothing can be linked
// at all, e.g. no Kineto CPU op shares a name with the ET, and, unless options.force, when the two
// are from different runs: when two of these three disagree, the error naming both files and each
// reason: the ET's pid is no host pid of the Kineto trace; the ET's wall-clock time and the Kineto
// trace's (epoch) start are more than two days apart (time zones are unknown); fewer than half of
// the ET's ops matched a Kineto op. `et` may be null: the CPU ops are then
// the Kineto trace's framework ops in the window (report.matching = "kineto_only").
Result<LinkedTrace> linkTraces(std::shared_ptr<const EtTrace> et,
                               std::shared_ptr<const Trace> kineto,
                               const LinkOptions& options = {});

}  // namespace sutra
