// SPDX-License-Identifier: MIT
#pragma once
// Writes a linked trace as ET+ JSON, the file chakra_trace_link writes and chakra_converter reads:
// the execution trace's own JSON (top-level keys and every node as read, in the ET's layout) with
// the nodes renumbered, and on each CPU op matched to Kineto `ts`, `inclusive_dur`,
// `exclusive_dur` (Kineto's microseconds, exact to the nanosecond), `inter_thread_dep` (an id or
// null) and `sync_dep` (ids of the device ops it waited on, where any); each device op is a child
// node, a copy of its launching CPU op's node with `id`, `ctrl_deps` (the launcher), `cat`,
// `name`, `ph`, `ts`, `inclusive_dur`, `exclusive_dur`, `stream` and, for collectives, `pg_name`
// replaced, as the reference makes them. Where the reference leaves the process and thread roots
// without times, Sutra gives them their span. A linked trace without an ET (Kineto alone) is
// written in the 1.0.3-chakra.0.0.4 layout with empty inputs and outputs.
// Written to a temporary file beside the target and renamed: never half-written.
#include <string>
#include <vector>

#include "link/linked_trace.h"
#include "util/result.h"

namespace sutra {

// The ET+ document as text. The ET's nodes are read again from its file (the model keeps no
// node's text): an error where that file changed or went since it was read.
Result<std::string> etPlusJson(const LinkedTrace& linked);
// Writes etPlusJson(linked) to `path` atomically, never over one of `protectedPaths` (the inputs).
Status writeEtPlus(const LinkedTrace& linked, const std::string& path,
                   const std::vector<std::string>& protectedPaths = {});

}  // namespace sutra
