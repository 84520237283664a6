// SPDX-License-Identifier: MIT
#include "chakra/convert_files.h"

#include <memory>

#include "io/readers.h"
#include "link/et_plus_reader.h"

namespace sutra::chakra {

Result<PairConversion> convertTracePair(const std::string& etPath, const std::string& kinetoPath,
                                        const LinkOptions& link, const ConvertOptions& convert) {
  std::shared_ptr<const EtTrace> etTrace;
  if (!etPath.empty()) {
    auto et = readPytorchEt(etPath);
    if (!et) return et.error();
    etTrace = std::make_shared<const EtTrace>(std::move(et.value()));
  }
  auto kineto = readKinetoTrace(kinetoPath);
  if (!kineto) return kineto.error();
  auto linked = linkTraces(std::move(etTrace),
                           std::make_shared<const Trace>(std::move(kineto.value())), link);
  if (!linked) return linked.error();
  auto chakra = convertToChakra(*linked, convert);
  if (!chakra) return chakra.error();
  return PairConversion{std::move(linked.value()), std::move(chakra.value())};
}

Result<PairConversion> convertLinkedFile(const std::string& etPlusPath,
                                         const ConvertOptions& convert) {
  auto linked = readLinkedEt(etPlusPath);
  if (!linked) return linked.error();
  auto chakra = convertToChakra(*linked, convert);
  if (!chakra) return chakra.error();
  return PairConversion{std::move(linked.value()), std::move(chakra.value())};
}

std::string rankFileName(const std::string& prefix, int rank) {
  return prefix + "." + std::to_string(rank) + ".et";
}

Result<std::vector<std::string>> writeRankFiles(const ChakraTrace& trace, const std::string& prefix,
                                                const std::vector<int>& ranks,
                                                const ChakraWriteOptions& options) {
  std::vector<std::string> written;
  ChakraTrace copy;
  const bool replicate = ranks.size() > 1;
  if (replicate) {
    copy.meta = trace.meta;
    copy.nodes = trace.nodes;
  }
  for (int rank : ranks) {
    const std::string path = rankFileName(prefix, rank);
    const ChakraTrace* out = &trace;
    if (replicate) {
      for (auto& a : *copy.meta.mutable_attr())
        if (a.name() == "rank") a.set_int64_val(rank);
      out = &copy;
    }
    auto st = writeChakraTrace(*out, path, options);
    if (!st) return st.error();
    written.push_back(path);
  }
  return written;
}

}  // namespace sutra::chakra
