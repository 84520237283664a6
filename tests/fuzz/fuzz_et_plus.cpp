// SPDX-License-Identifier: MIT
// libFuzzer target: the ET+ reader (a linker's output read back: ts, inclusive_dur, device nodes
// with cat and stream, inter_thread_dep, sync_dep) on arbitrary bytes.
#include "fuzz_input.h"
#include "link/et_plus_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto linked = sutra::readLinkedEt(sutra::fuzz::writeInput(data, size));
  if (linked) {
    // What a consumer walks: every op and its lookup by id.
    for (const auto& op : linked->ops) (void)linked->find(op.id);
  }
  return 0;
}
