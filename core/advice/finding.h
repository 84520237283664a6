// SPDX-License-Identifier: MIT
#pragma once
// One problem the advice found in a run: what it is, the events that show it, why it costs time,
// and its price: the step time the simulator projects with the fix applied as a what-if, beside the
// step as measured. A finding always has evidence; one that cannot be priced says why.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "model/time.h"
#include "model/trace.h"
#include "simulate/sim_knobs.h"

namespace sutra {

enum class FindingKind : std::uint8_t {
  FusionCandidate,       // short ops or kernels that repeat every step on the same tensors
  HostBound,             // the device idle while the host launches
  BlockingSync,          // the host blocked on the device inside a step
  MemoryCopy,            // pageable or small copies, memsets
  DataLoaderWait,        // the step's thread fetching its batch
  CpuOpOverhead,         // ops whose host time is mostly dispatch around a tiny kernel
  ExposedCommunication,  // communication kernels running with no compute beside them
  Straggler,             // the rank the others wait for at collectives
  RuntimeSetup,   // runtime calls that launch nothing yet hold the host (context, cudaMalloc)
  OptimizerLoop,  // an optimizer stepping parameter by parameter where a fused kernel exists
};
std::string_view findingKindName(FindingKind kind);  // "fusion", "host-bound" ... (--json)

struct FindingPrice {
  bool priced = false;
  std::string model;           // how the fix is modelled, in words (always set)
  std::string notPriced;       // why there is no price, where !priced
  TimeNs stepNs = 0;           // mean step, simulated as measured
  TimeNs projectedStepNs = 0;  // mean step with the fix
  // A second bound where the model has one (fusion: at the fastest member's rate), else < 0.
  TimeNs otherBoundStepNs = -1;

  TimeNs savingNs() const { return stepNs - projectedStepNs; }
  double savingFraction() const {
    return stepNs > 0 ? static_cast<double>(savingNs()) / static_cast<double>(stepNs) : 0.0;
  }
};

struct Finding {
  FindingKind kind = FindingKind::FusionCandidate;
  int rank = 0;                   // the rank's number
  std::uint32_t rankIndex = 0;    // its position in the run
  std::string title;              // one line: "fuse aten::mul > aten::mean > ... (5 ops)"
  std::string explanation;        // why it costs time, for a performance engineer
  std::vector<EventId> evidence;  // the events that show it, on the rank's trace
  std::size_t occurrences = 0;    // how many times it happened
  std::size_t steps = 0;          // in how many steps
  TimeNs measuredNs = 0;          // the time involved, per step (mean)
  SimKnobs fix;                   // the what-if the price replays
  SimKnobs otherBoundFix;         // the other bound's what-if, where the model has one
  FindingPrice price;
};

// "saves ~12.3 ms per step (4.5 %)", or "not priced: <why>".
std::string describePrice(const FindingPrice& price);

}  // namespace sutra
