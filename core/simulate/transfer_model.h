// SPDX-License-Identifier: MIT
#pragma once
// The network model of a measured run's collectives: each matched collective's transfer (the span
// of the rank that arrived last, which waited for no one) split into a latency, a part that the
// bandwidth sets, and what neither explains. The fit is ASTRA-sim's ring
// (chakra/astra_sim_config.h: latency per step, bytes each rank sends) by least squares over the
// run's collectives, so that a what-if on the network (--network-speed) moves the bandwidth part
// alone and holds the rest.
#include <cstddef>
#include <string>
#include <vector>

#include "simulate/simulator.h"

namespace sutra {

struct TransferFit {
  double latencyNs = 0;      // per ring step
  double nsPerByte = 0;      // 1 / bandwidth; 0: nothing fitted
  std::size_t fitted = 0;    // collectives the fit used
  std::size_t unsized = 0;   // matched collectives of unknown size or kind (transfer scaled whole)
  double residualRmsNs = 0;  // measured transfer - model, root mean square over the fitted ones
  double measuredNs = 0;     // their measured transfers, summed
  std::string basis;         // how it was fitted, in words
  double bandwidthGBps() const { return nsPerByte > 0 ? 1.0 / nsPerByte : 0; }  // 1e9 bytes/s
};

// One matched collective as the fit sees it: its kind and size where known.
struct TransferSample {
  std::string collective;  // "all_reduce" ... (chakra::collectiveFromName)
  std::int64_t bytes = 0;  // per rank
  std::size_t ranks = 0;
  TimeNs measuredNs = 0;  // the last arrival's span
};

// Fits the model to the samples and writes each collective's latency and bandwidth parts
// (transferLatencyNs, transferBandwidthNs; -1 where the sample has no size or kind the ring
// prices). `collectives` and `samples` are parallel.
TransferFit fitTransferModel(std::vector<SimCollective>& collectives,
                             const std::vector<TransferSample>& samples);

}  // namespace sutra
