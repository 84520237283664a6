// SPDX-License-Identifier: MIT
#pragma once
// Reads an ET+ file (written by Sutra's link or by chakra_trace_link) back into a LinkedTrace, so
// `convert --linked`, the simulator and the GUI take a linked file like a freshly linked pair.
// Built on readPytorchEt: every node's JSON is kept there (EtNode::rawJson) and the ET+ fields
// (ts, inclusive_dur, exclusive_dur, inter_thread_dep, sync_dep, cat, stream, pg_name) are read
// from it, times exactly (microseconds with three decimals -> integer ns). Nodes with a `cat` are
// the device ops; the rest stay in `et` (device nodes removed) and become the CPU ops.
// The result has no Kineto trace (kineto == nullptr) and report.matching = "et_plus".
#include <string>

#include "link/linked_trace.h"
#include "util/result.h"

namespace sutra {

Result<LinkedTrace> readLinkedEt(const std::string& path);

}  // namespace sutra
