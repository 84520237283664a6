// SPDX-License-Identifier: MIT
#pragma once
// Large traces for the benchmarks: `copies` back-to-back copies of a real trace, each shifted by
// the source's span plus a millisecond, with correlation ids shifted so that each copy's launches
// pair with their own kernels. Names, categories, lanes, metadata and args are kept (every copy's
// events share the source's args text, so 48 copies do not hold 48 copies of it).
#include "model/trace.h"

namespace sutra::bench {

Trace replicateTrace(const Trace& source, int copies);

}  // namespace sutra::bench
