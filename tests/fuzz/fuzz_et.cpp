// SPDX-License-Identifier: MIT
// libFuzzer target: the PyTorch ET reader on arbitrary bytes (flat and attrs layouts, ET+).
#include "fuzz_input.h"
#include "io/readers.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto et = sutra::readPytorchEt(sutra::fuzz::writeInput(data, size));
  if (et) (void)et->childrenByIndex();
  return 0;
}
