// SPDX-License-Identifier: MIT
// libFuzzer target: the Chakra .et reader (length-delimited protobuf) and the timeline built from
// what it accepts (dependencies on absent ids, cycles, missing times).
#include <string_view>

#include "chakra/chakra_timeline.h"
#include "chakra/et_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  auto et = sutra::chakra::parseChakraTrace(bytes, "fuzz.et");
  if (et) (void)sutra::chakra::chakraToTimeline(*et);
  return 0;
}
