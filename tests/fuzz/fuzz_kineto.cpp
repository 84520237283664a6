// SPDX-License-Identifier: MIT
// libFuzzer target: the Kineto reader on arbitrary bytes must return a trace or an error, never
// crash, hang or leak.
#include "fuzz_input.h"
#include "io/readers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto trace = sutra::readKinetoTrace(sutra::fuzz::writeInput(data, size));
  if (trace) (void)trace->events.size();
  return 0;
}
