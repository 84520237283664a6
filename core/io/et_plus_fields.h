// SPDX-License-Identifier: MIT
#pragma once
// The ET reader with the ET+ fields of each node read in the same pass (readLinkedEt's input):
// the fields Sutra's link and chakra_trace_link add at a node's top level, times exact
// (microseconds with three decimals -> integer ns). Reading them here, instead of re-parsing each
// node's kept JSON afterwards, halves the ET+ reader's work.
#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

#include "io/readers.h"
#include "model/time.h"

namespace sutra {

// One per node of the file while readLinkedEt builds its ops: compact (flags, not optionals;
// texts interned in the trace's storage), as a 100 MB ET+ has 160,000 of them at once.
struct EtPlusFields {
  TimeNs ts = 0, inclusiveDur = 0, exclusiveDur = 0, blockedDur = 0;  // 0 where absent
  std::int64_t interThreadDep = 0;
  std::int64_t stream = -1;            // -1 where absent
  std::vector<std::int64_t> syncDeps;  // the integers of "sync_dep" (every such member's)
  std::string_view cat, pgName;        // views into the trace's storage
  bool hasTs = false, hasInterThreadDep = false;
  bool hasCat = false;      // a device node ("cat" may be empty)
  bool annotation = false;  // Sutra's own field "user_annotation"
  // A top-level number beyond a double's range (1e400): the node's later ET+ fields are not read
  // and readLinkedEt counts the node as unreadable, as its JSON re-read used to stop there.
  bool unreadable = false;
};

// Where readPytorchEtWithPlusFields hands each node's ET+ fields, in file order, as it merges the
// parsed batches: readLinkedEt builds its ops there, so no list of the fields is ever held whole.
struct EtPlusSink {
  // Once, before the first node: about how many nodes the file holds (0 where unknown: gzip).
  std::function<void(std::size_t expectedNodes)> expect;
  // Every node. `etIndex`: where it was kept in the trace's nodes (a node whose id came before
  // replaces that one's slot), or -1 for a device node (one with a "cat"), which the ET model does
  // not keep: readLinkedEt takes device nodes as ops alone.
  std::function<void(const EtNode& node, EtPlusFields&& fields, std::int64_t etIndex)> node;
};

// readPytorchEt with the ET+ fields of each node given to `sink`; the trace keeps the CPU nodes.
Result<EtTrace> readPytorchEtWithPlusFields(const std::string& path, const EtPlusSink& sink,
                                            const ProgressFn& progress = {});

}  // namespace sutra
