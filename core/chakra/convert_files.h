// SPDX-License-Identifier: MIT
#pragma once
// File-level conversion to Chakra: read an ET and the Kineto trace recorded with it, link them,
// convert (or read an ET+ file that is linked already); and write one `<prefix>.<rank>.et` per
// rank. Used by `sutra-cli convert`, the tests and the benchmark, so all three run the same path.
#include <string>
#include <vector>

#include "chakra/converter.h"
#include "link/linked_trace.h"
#include "util/result.h"

namespace sutra::chakra {

struct PairConversion {
  LinkedTrace linked;
  ChakraConversion chakra;
};

// An empty etPath converts the Kineto trace alone: its own CPU ops, launches and device ops.
Result<PairConversion> convertTracePair(const std::string& etPath, const std::string& kinetoPath,
                                        const LinkOptions& link = {},
                                        const ConvertOptions& convert = {});

// An ET+ file (Sutra's `link -o` or chakra_trace_link's output), already linked, converted.
Result<PairConversion> convertLinkedFile(const std::string& etPlusPath,
                                         const ConvertOptions& convert = {});

// "<prefix>.<rank>.et"
std::string rankFileName(const std::string& prefix, int rank);

// Writes `trace` as `<prefix>.<rank>.et` for each rank in `ranks` (a replicated rank is written
// once per listed rank with its GlobalMetadata "rank" attribute set to that rank), refusing to
// overwrite any path in options.protectedPaths. Returns the paths written.
Result<std::vector<std::string>> writeRankFiles(const ChakraTrace& trace, const std::string& prefix,
                                                const std::vector<int>& ranks,
                                                const ChakraWriteOptions& options = {});

}  // namespace sutra::chakra
