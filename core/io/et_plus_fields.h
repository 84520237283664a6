// SPDX-License-Identifier: MIT
#pragma once
// The ET reader with the ET+ fields of each node read in the same pass (readLinkedEt's input):
// the fields Sutra's link and chakra_trace_link add at a node's top level, times exact
// (microseconds with three decimals -> integer ns). Reading them here, instead of re-parsing each
// node's kept JSON afterwards, halves the ET+ reader's work.
#include <optional>
#include <string>
#include <vector>

#include "io/readers.h"
#include "model/time.h"

namespace sutra {

struct EtPlusFields {
  std::optional<TimeNs> ts, inclusiveDur, exclusiveDur, blockedDur;
  std::optional<std::int64_t> interThreadDep;
  std::vector<std::int64_t> syncDeps;  // the integers of "sync_dep" (every such member's)
  std::optional<std::string> cat;
  std::optional<std::int64_t> stream;
  std::string pgName;
  bool annotation = false;  // Sutra's own field "user_annotation"
  // A top-level number beyond a double's range (1e400): the node's later ET+ fields are not read
  // and readLinkedEt counts the node as unreadable, as its JSON re-read used to stop there.
  bool unreadable = false;
};

// readPytorchEt, and `plus[i]` the ET+ fields of `nodes[i]`.
Result<EtTrace> readPytorchEtWithPlusFields(const std::string& path,
                                            std::vector<EtPlusFields>& plus,
                                            const ProgressFn& progress = {});

}  // namespace sutra
