// SPDX-License-Identifier: MIT
#pragma once
// Work estimates of a framework op from the shapes its execution-trace node recorded, for the
// num_ops and tensor_size attributes that ASTRA-sim's roofline mode needs: floating-point
// operations of matmul, mm, linear, addmm, bmm, baddbmm, convolutions and elementwise ops, and the
// bytes of every tensor read and written.
#include <cstdint>

#include "model/et_trace.h"

namespace sutra::chakra {

struct OpCost {
  std::int64_t flops = 0;         // 0 where the op is not one of the recognised kinds
  std::uint64_t tensorBytes = 0;  // inputs + outputs, numel x itemsize of every tensor
  bool computeOp = false;         // a recognised kind (its FLOPs are an estimate, maybe 0)
};

OpCost estimateOpCost(const EtNode& node);
// estimateOpCost(node).computeOp, from the name alone (nothing is estimated).
bool isComputeOp(const EtNode& node);

}  // namespace sutra::chakra
