// SPDX-License-Identifier: MIT
#pragma once
// Reads an ET+ file (written by Sutra's link or by chakra_trace_link) back into a LinkedTrace, so
// `convert --linked`, the simulator and the GUI take a linked file like a freshly linked pair.
// Built on the ET reader, which reads the ET+ fields (ts, inclusive_dur, exclusive_dur,
// inter_thread_dep, sync_dep, cat, stream, pg_name) in the same pass as the rest of each node
// (io/et_plus_fields.h), times exactly (microseconds with three decimals -> integer ns). Nodes with
// a `cat` are the device ops; the rest stay in `et` (device nodes removed) and become the CPU ops.
// The result has no Kineto trace (kineto == nullptr) and report.matching = "et_plus".
#include <string>

#include "link/linked_trace.h"
#include "util/result.h"

namespace sutra {

Result<LinkedTrace> readLinkedEt(const std::string& path);

}  // namespace sutra
