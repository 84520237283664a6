// SPDX-License-Identifier: MIT
#include "advice/finding.h"

#include <cstdio>

namespace sutra {

std::string_view findingKindName(FindingKind kind) {
  switch (kind) {
    case FindingKind::FusionCandidate:
      return "fusion";
    case FindingKind::HostBound:
      return "host-bound";
    case FindingKind::BlockingSync:
      return "blocking-sync";
    case FindingKind::MemoryCopy:
      return "memory-copy";
    case FindingKind::DataLoaderWait:
      return "dataloader";
    case FindingKind::CpuOpOverhead:
      return "cpu-overhead";
    case FindingKind::ExposedCommunication:
      return "exposed-communication";
    case FindingKind::Straggler:
      return "straggler";
    case FindingKind::RuntimeSetup:
      return "runtime-setup";
    case FindingKind::OptimizerLoop:
      return "optimizer";
  }
  return "unknown";
}

std::string describePrice(const FindingPrice& price) {
  if (!price.priced) return "not priced: " + price.notPriced;
  char buf[96];
  std::snprintf(buf, sizeof buf, " per step (%.1f %%)", price.savingFraction() * 100.0);
  std::string text = "saves ~" + formatDuration(price.savingNs()) + buf;
  if (price.otherBoundStepNs >= 0)
    text += "; up to " + formatDuration(price.stepNs - price.otherBoundStepNs);
  return text;
}

}  // namespace sutra
