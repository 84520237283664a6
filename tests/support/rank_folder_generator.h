// SPDX-License-Identifier: MIT
#pragma once
// Folders of many ranks for tests and benchmarks (sutra-gen-ranks): one Kineto trace per rank, as
// torch.profiler writes a data-parallel job, with the answer known. Each step runs buckets of
// compute kernels on a compute stream; after each bucket the rank all-reduces on a communication
// stream, overlapping the next bucket. A rank arrives at a collective when its bucket's compute is
// done, and every rank's collective kernel ends when the last rank has arrived plus the transfer
// time; the next step starts when every rank is done. Compute kernels get a per-rank jitter, one
// rank may be slower, and each host's clock may be off by a whole number of seconds (8 ranks per
// host).
#include <cstdint>
#include <string>
#include <vector>

#include "util/result.h"

namespace sutra::gen {

struct RankFolderSpec {
  int ranks = 8;
  int steps = 4;
  int bucketsPerStep = 3;     // collectives per step
  int kernelsPerBucket = 10;  // compute kernels before each collective
  std::int64_t kernelNs = 40'000;
  std::int64_t transferNs = 30'000;
  double jitter = 0.05;  // compute kernel durations vary by up to this fraction
  int slowRank = -1;     // this rank's compute kernels take slowFactor as long
  double slowFactor = 1.3;
  bool skewedClocks = true;  // hosts of 8 ranks each: host h's clock is h seconds ahead
  // The waits are recorded as CUDA records them: each collective's wait for its bucket's compute
  // (an event recorded on the compute stream, a stream wait on the comm stream) and each step's
  // end (the host's cudaDeviceSynchronize until its device is done), so that a reader sees what
  // each wait was for; without them the waits are implied by times only.
  bool recordedWaits = false;
  std::uint64_t seed = 1;
  // Where set, kernelsPerBucket is chosen so that each trace is about this many bytes.
  std::uint64_t targetBytesPerRank = 0;
};

// What the generator made, on each rank's own clock where it says so.
struct GeneratedStep {
  std::int64_t number = 0;
  std::int64_t start = 0;  // rank clock
  std::int64_t duration = 0;
  std::int64_t compute = 0;  // compute kernels' time within the step
  std::int64_t exposedComm = 0;
  std::int64_t idle = 0;
};
struct GeneratedCollective {
  std::int64_t seq = 0;
  std::vector<std::int64_t> arrival;  // per rank, on rank 0's clock (the common one)
  int last = 0;                       // the rank that arrived last (lowest of a tie)
};
struct GeneratedRun {
  std::vector<std::string> files;                 // per rank
  std::vector<std::vector<GeneratedStep>> steps;  // per rank
  std::vector<GeneratedCollective> collectives;   // in order
  std::vector<std::int64_t> clockSkew;            // per rank: its clock minus rank 0's
  int kernelsPerBucket = 0;
};

// Writes `dir`/rank<r>.pt.trace.json for every rank (the folder is created).
Result<GeneratedRun> generateRankFolder(const std::string& dir, const RankFolderSpec& spec);

}  // namespace sutra::gen
