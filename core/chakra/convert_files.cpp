// SPDX-License-Identifier: MIT
#include "chakra/convert_files.h"

#include <algorithm>
#include <filesystem>
#include <memory>
#include <regex>
#include <utility>

#include "chakra/astra_sim_config.h"
#include "chakra/astra_sim_graph.h"
#include "io/readers.h"
#include "link/link_words.h"
#include "util/atomic_file.h"

namespace sutra::chakra {

Result<LinkedTrace> linkTracePair(const std::string& etPath, const std::string& kinetoPath,
                                  const LinkOptions& link) {
  std::shared_ptr<const EtTrace> etTrace;
  if (!etPath.empty()) {
    auto et = readPytorchEt(etPath);
    if (!et) return et.error();
    etTrace = std::make_shared<const EtTrace>(std::move(et.value()));
  }
  auto kineto = readKinetoTrace(kinetoPath);
  if (!kineto) return kineto.error();
  return linkTraces(std::move(etTrace), std::make_shared<const Trace>(std::move(kineto.value())),
                    link);
}

Result<PairConversion> convertTracePair(const std::string& etPath, const std::string& kinetoPath,
                                        const LinkOptions& link, const ConvertOptions& convert) {
  auto linked = linkTracePair(etPath, kinetoPath, link);
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

Result<std::vector<std::string>> writeRankFiles(const EncodedChakra& encoded,
                                                const std::string& prefix,
                                                const std::vector<int>& ranks,
                                                const ChakraWriteOptions& options) {
  std::vector<std::string> written;
  ChakraProtoMsg::GlobalMetadata meta = encoded.meta;
  for (int rank : ranks) {
    const std::string path = rankFileName(prefix, rank);
    if (ranks.size() > 1)
      for (auto& a : *meta.mutable_attr())
        if (a.name() == "rank") a.set_int64_val(rank);
    auto st = writeChakraFile(meta, encoded.nodes, path, options);
    if (!st) return st.error();
    written.push_back(path);
  }
  return written;
}

namespace {

// The ASTRA-sim graph is laid out from the whole conversion, so it is built in memory, then
// written.
Result<EncodedChakra> encodeAstraSimRankFiles(const LinkedTrace& linked, const std::string& prefix,
                                              const std::vector<int>& ranks,
                                              const ChakraWriteOptions& write,
                                              const ConvertOptions& convert,
                                              const std::function<void(const NodeFacts&)>& eachNode,
                                              std::vector<std::string>& written) {
  auto conversion = convertToChakra(linked, convert);
  if (!conversion) return conversion.error();
  auto graph = astraSimGraph(linked, conversion->trace);
  if (!graph) return graph.error();
  EncodedChakra out;
  out.meta = graph->trace.meta;
  out.nodeCount = graph->trace.nodes.size();
  out.problems.merge(conversion->trace.problems);
  out.stats = conversion->stats;
  out.stats.hostGapNodes = graph->report.hostGapNodes;
  out.stats.deviceGapNodes = graph->report.deviceGapNodes;
  out.stats.edges = graph->report.edges;
  out.stats.nodesByType.clear();
  for (const auto& n : graph->trace.nodes) ++out.stats.nodesByType[n.type()];
  out.stats.cyclesBroken = 0;  // of the graph laid out from, not of this one
  const std::string what = describeAstraSimGraphReport(graph->report);
  for (std::size_t at = 0; at < what.size();) {
    const auto end = what.find('\n', at);
    out.problems.add(Severity::Info, what.substr(at, end - at));
    at = end == std::string::npos ? what.size() : end + 1;
  }
  if (eachNode) {
    // The collectives in the order of the communication timeline (their ends), which all ranks
    // share, so that the fit pairs each rank's n-th collective with the others' (file order is
    // by id, which ranks need not agree on).
    std::vector<const ChakraProtoMsg::Node*> comms;
    for (const auto& n : graph->trace.nodes) {
      if (n.type() == ChakraProtoMsg::COMM_COLL_NODE)
        comms.push_back(&n);
      else
        eachNode(nodeFacts(n));
    }
    std::stable_sort(comms.begin(), comms.end(), [](const auto* a, const auto* b) {
      return std::make_pair(a->start_time_micros() + a->duration_micros(), a->start_time_micros()) <
             std::make_pair(b->start_time_micros() + b->duration_micros(), b->start_time_micros());
    });
    for (const auto* n : comms) eachNode(nodeFacts(*n));
  }
  auto paths = writeRankFiles(graph->trace, prefix, ranks, write);
  if (!paths) return paths.error();
  written = std::move(paths.value());
  return out;
}

}  // namespace

Result<EncodedChakra> encodeRankFiles(const LinkedTrace& linked, const std::string& prefix,
                                      const std::vector<int>& ranks,
                                      const ChakraWriteOptions& write,
                                      const ConvertOptions& convert,
                                      const std::function<void(const NodeFacts&)>& eachNode,
                                      std::vector<std::string>& written) {
  written.clear();
  if (convert.astraSimTimelines)
    return encodeAstraSimRankFiles(linked, prefix, ranks, write, convert, eachNode, written);
  if (ranks.size() != 1) {
    auto encoded = encodeToChakra(linked, convert, eachNode);
    if (!encoded) return encoded.error();
    auto paths = writeRankFiles(*encoded, prefix, ranks, write);
    if (!paths) return paths.error();
    written = std::move(paths.value());
    return encoded;
  }
  const std::string path = rankFileName(prefix, ranks.front());
  const AtomicFileOptions fileOptions = atomicFileOptions(write);
  std::optional<AtomicFile> file;
  // The file is created with the first bytes: a conversion refused before has written nothing.
  auto sink = [&](std::string_view bytes) -> Status {
    if (!file) {
      auto created = AtomicFile::create(path, fileOptions);
      if (!created) return created.error();
      file.emplace(std::move(created.value()));
    }
    return file->write(bytes);
  };
  auto encoded = encodeToChakra(linked, convert, eachNode, sink);
  if (!encoded) return encoded.error();
  if (!file) return makeError(path, "nothing to write");
  if (auto st = file->commit(); !st) return st.error();
  written.push_back(path);
  return encoded;
}

std::string chakraStemFor(const std::string& tracePath) {
  const std::filesystem::path path(tracePath);
  std::string name = path.filename().string();
  name = name.substr(0, name.find('.'));  // "rank0.kineto.json.gz" -> "rank0"
  static const std::regex rank(R"([._-]?rank[._-]?[0-9]+$)", std::regex::icase);
  name = std::regex_replace(name, rank, "");
  if (name.empty()) name = path.parent_path().filename().string();
  return name.empty() ? "trace" : name;
}

std::string exportStageName(ExportStage stage) {
  switch (stage) {
    case ExportStage::ReadingEt:
      return "reading the execution trace";
    case ExportStage::Linking:
      return "linking";
    case ExportStage::Converting:
      return "converting";
    case ExportStage::Writing:
      return "writing";
    case ExportStage::Done:
      return "done";
  }
  return {};
}

std::size_t ChakraExportSummary::written() const {
  std::size_t n = 0;
  for (const auto& r : ranks) n += r.path.empty() ? 0 : 1;
  return n;
}

std::size_t ChakraExportSummary::problemCount() const {
  std::size_t n = 0;
  for (const auto& r : ranks) n += r.problems.size();
  return n;
}

namespace {

// "linked with rank0.et.json.gz by alignment", or "from the Kineto trace alone (no ET)".
std::string linkWords(const RankExportResult& r) {
  if (r.etPath.empty() || r.matching == "kineto_only")
    return "from the Kineto trace alone" + std::string(r.etPath.empty() ? " (no ET)" : "");
  return "linked with " + r.etPath + " " + linkMatchingWords(r.matching);
}

}  // namespace

std::string ChakraExportSummary::text() const {
  std::string out = std::to_string(written()) + " of " + std::to_string(ranks.size()) +
                    " rank(s) written" + (canceled ? " (cancelled)" : "") + "\n";
  for (const auto& r : ranks) {
    if (r.path.empty())
      out += "rank " + std::to_string(r.rank) + ": not written: " + r.error + "\n";
    else
      out += "rank " + std::to_string(r.rank) + ": " + r.path + " (" + std::to_string(r.nodes) +
             " nodes, " + std::to_string(r.edges) + " dependencies, " + linkWords(r) + ")\n";
    for (const auto& p : r.problems) out += "  " + p + "\n";
  }
  if (!astraSimConfigs.empty())
    out += "ASTRA-sim configurations: " + astraSimConfigs.front() + " .. " +
           astraSimConfigs.back() + " (" + astraSimBasis + ")\n";
  if (!astraSimError.empty())
    out += "ASTRA-sim configurations not written: " + astraSimError + "\n";
  return out;
}

namespace {

void addProblems(const ProblemLog& log, std::vector<std::string>& out) {
  for (const Problem& p : log.all()) out.push_back(std::to_string(p.count) + " x " + p.what);
}

// The rank's ET: as given, else read from its path, else none (Kineto alone).
Result<std::shared_ptr<const EtTrace>> etOf(const RankExportInput& input) {
  if (input.et || input.etPath.empty()) return input.et;
  auto et = readPytorchEt(input.etPath);
  if (!et) return et.error();
  return std::shared_ptr<const EtTrace>(std::make_shared<const EtTrace>(std::move(*et)));
}

}  // namespace

ChakraExportSummary exportChakraTraces(const std::vector<RankExportInput>& ranks,
                                       const std::string& prefix, const ChakraWriteOptions& write,
                                       const ExportProgress& progress,
                                       const ConvertOptions& convert) {
  ChakraExportSummary summary;
  AstraSimFitInput fitInput;
  const int count = static_cast<int>(ranks.size());
  auto go = [&](int index, ExportStage stage) {
    if (summary.canceled || !progress || progress(index, count, stage)) return !summary.canceled;
    summary.canceled = true;
    return false;
  };
  for (int index = 0; index < count; ++index) {
    const RankExportInput& input = ranks[static_cast<std::size_t>(index)];
    RankExportResult r;
    r.rank = input.rank;
    auto finish = [&](std::string error) {
      r.error = std::move(error);
      summary.ranks.push_back(std::move(r));
    };
    if (!go(index, ExportStage::ReadingEt)) {
      finish("cancelled");
      continue;
    }
    std::shared_ptr<const LinkedTrace> linked = input.linked;
    if (!linked) {
      auto et = etOf(input);
      if (!et) {
        finish(et.error().message);
        continue;
      }
      if (!go(index, ExportStage::Linking)) {
        finish("cancelled");
        continue;
      }
      LinkOptions options;
      options.rank = input.rank;
      auto link = linkTraces(*et, input.kineto, options);
      if (!link) {
        finish(link.error().message);
        continue;
      }
      linked = std::make_shared<const LinkedTrace>(std::move(link).value());
    } else if (!go(index, ExportStage::Linking)) {
      finish("cancelled");
      continue;
    }
    if (linked->et) r.etPath = input.etPath;
    r.matching = linked->report.matching;
    addProblems(linked->problems, r.problems);
    if (!go(index, ExportStage::Converting)) {
      finish("cancelled");
      continue;
    }
    // Converted and written in one pass, as `sutra-cli convert` does (encodeRankFiles): the same
    // bytes, each node fed to the ASTRA-sim fit as it is built.
    if (!go(index, ExportStage::Writing)) {
      finish("cancelled");
      continue;
    }
    AstraSimFitInput rankFit;  // joins the fit only where the rank's file was written
    rankFit.beginRank();
    std::vector<std::string> written;
    auto encoded = encodeRankFiles(
        *linked, prefix, {input.rank}, write, convert,
        [&rankFit](const NodeFacts& n) { rankFit.addNode(n); }, written);
    if (!encoded) {
      finish(encoded.error().message);
      continue;
    }
    fitInput.add(std::move(rankFit));
    addProblems(encoded->problems, r.problems);
    r.path = written.front();  // the one rank's file, written
    r.nodes = encoded->nodeCount;
    r.edges = encoded->stats.totalEdges();
    summary.ranks.push_back(std::move(r));
  }
  if (!summary.canceled && convert.astraSimTimelines && summary.written() > 1) {
    // ASTRA-sim starts every rank at 0: the ranks that began later wait that long first.
    std::vector<std::string> paths;
    for (const auto& r : summary.ranks)
      if (!r.path.empty()) paths.push_back(r.path);
    if (auto leads = alignAstraSimRankStarts(paths, write); !leads)
      summary.astraSimError = leads.error().message;
  }
  if (!summary.canceled && summary.written() > 0) {
    const AstraSimConfig config = fitAstraSimConfig(fitInput, static_cast<int>(summary.written()));
    auto configs = writeAstraSimConfig(config, prefix, write.protectedPaths);
    if (configs) {
      summary.astraSimConfigs = configs->all();
      summary.astraSimBasis = config.networkBasis;
    } else {
      summary.astraSimError = configs.error().message;
    }
  }
  if (progress && !summary.canceled) progress(count, count, ExportStage::Done);
  return summary;
}

}  // namespace sutra::chakra
