// SPDX-License-Identifier: MIT
#pragma once
// The tensors an op reads, from the "Input Dims" and "Input type" its Kineto event records
// (record_shapes): what the fusion model counts as bytes moved.
#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace sutra {

struct TensorShape {
  std::vector<std::int64_t> dims;
  std::int64_t elementBytes = 0;  // 0: not a tensor (a scalar, a list, an unknown type)
  std::int64_t bytes() const;
};

// The op's tensor inputs; empty where the trace has no shapes (recorded without record_shapes,
// or read without args).
std::vector<TensorShape> inputShapes(const Trace& trace, EventId op);

// The bytes of the largest input, and an estimate of the output's: the broadcast of the inputs'
// shapes (an elementwise op), or, for a reduction (mean, sum, amax ... var, norm), nothing big.
struct OpBytes {
  std::int64_t largestInput = 0;
  std::int64_t read = 0;  // every tensor input once
  std::int64_t written = 0;
  std::int64_t moved() const { return read + written; }
};
OpBytes opBytes(const Trace& trace, EventId op);

// Whether `shape` broadcasts to `to` (numpy's rule, right-aligned).
bool broadcastsTo(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& to);

}  // namespace sutra
