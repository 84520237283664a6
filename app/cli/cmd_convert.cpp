// SPDX-License-Identifier: MIT
// `sutra-cli convert`: PyTorch ET + Kineto trace(s) -> Chakra execution traces, one per rank.
#include <cstdio>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "chakra/astra_sim_config.h"
#include "chakra/astra_sim_graph.h"
#include "chakra/convert_files.h"
#include "cli_args.h"
#include "command.h"
#include "io/discover.h"
#include "link/et_plus_reader.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli convert ([--et ET] --kineto KINETO | --linked ET+ | DIR...) -o PREFIX "
    "[OPTIONS]\n"
    "Converts PyTorch execution traces linked with their Kineto traces into MLCommons Chakra\n"
    "execution traces: one PREFIX.<rank>.et per rank, which ASTRA-sim and Chakra's tools read.\n\n"
    "Inputs:\n"
    "  --et FILE          a PyTorch execution trace (.json or .json.gz)\n"
    "  --kineto FILE      the Kineto trace recorded with it; alone, the Kineto trace's own CPU\n"
    "                     ops, launches and device ops are converted (no ET data dependencies)\n"
    "  --linked FILE      an ET+ file, linked already (by `sutra-cli link` or chakra_trace_link)\n"
    "  DIR...             directories or files: every rank is converted from its ET and Kineto\n"
    "                     trace, else its ET+ file, else its Kineto trace alone (files are\n"
    "                     classified by content, ranks from the content or the names)\n\n"
    "Options:\n"
    "  -o PREFIX          output prefix (required); writes PREFIX.<rank>.et, and ASTRA-sim's\n"
    "                     PREFIX.network.yml (a ring of the ranks, bandwidth and latency fitted\n"
    "                     to the measured collectives), PREFIX.system.json and PREFIX.memory.json\n"
    "  --for ENGINE       which simulator the graphs are for (PREFIX.<rank>.et either way):\n"
    "                     sutra (default): a timeline per host thread and per stream, for\n"
    "                     `sutra-cli simulate`; astra-sim: one host, one compute and one\n"
    "                     communication timeline per rank, as ASTRA-sim runs them (at most one\n"
    "                     node of each in flight), each node ending where it was measured;\n"
    "                     what ASTRA-sim cannot express (compute that overlapped on two\n"
    "                     streams) is reported with its time. Check it with `sutra-cli simulate\n"
    "                     --engine astra-model PREFIX` (ASTRA-sim's rules, no ASTRA-sim needed)\n"
    "  --rank R           the rank of an --et/--kineto pair (default: the trace's "
    "distributedInfo,\n"
    "                     else 0)\n"
    "  --ranks N          replicate the one converted rank into PREFIX.0.et .. PREFIX.<N-1>.et.\n"
    "                     ASTRA-sim needs two or more ranks: a single-rank trace runs as\n"
    "                     `--ranks 2` (each copy issues the same collectives, so they match)\n"
    "  --metadata-nodes   write process-group init as METADATA_NODE (ASTRA-sim aborts on them;\n"
    "                     by default they go into the GlobalMetadata attribute pg_config)\n"
    "  --keep-unsupported-collectives\n"
    "                     write reduce/gather/scatter/barrier as COMM_COLL_NODE (ASTRA-sim "
    "rejects\n"
    "                     them; by default they are COMP_NODEs with their measured duration)\n"
    "  --no-stream-order  no dependency between consecutive device ops of a stream\n"
    "  --no-costs         no num_ops / tensor_size attributes\n"
    "  --no-gaps          durations as Chakra's converter writes them: CPU ops' exclusive\n"
    "                     time (sync waits and annotations included), no host gap and\n"
    "                     device gap nodes (by default a graph simulator replays the\n"
    "                     measured time from durations and dependencies alone)\n"
    "  --gzip             gzip the .et files (Chakra's tools read them; ASTRA-sim does not)\n"
    "  --force            link an --et/--kineto pair even where they look like two runs,\n"
    "                     and convert a link that matched under 90 % of the ET's ops\n"
    "  --json             print a JSON summary (nodes by type, edges by kind, problems)\n"
    "  -h, --help         show this help\n\n"
    "Check the output with: python3 et_check.py PREFIX N   (the rules ASTRA-sim enforces)\n";

struct Job {
  int rank = 0;
  std::string et, kineto;  // a pair to link, or
  std::string linked;      // an ET+ file, linked already
};

// The last converted rank's linked trace and bytes are left to the process's exit: freeing a
// large graph's model piece by piece takes a fifth of a 100 MB conversion, and its files are
// written and committed by then. Only the last: the ranks before it are freed as usual, so a
// folder of many large ranks needs one rank's memory at a time. Held from a static, so a leak
// checker sees them as reachable.
template <typename T>
void keepUntilExit(T&& value) {
  static auto* kept = new std::vector<std::shared_ptr<void>>;
  kept->push_back(std::make_shared<std::decay_t<T>>(std::forward<T>(value)));
}

nlohmann::json problemsJson(const ProblemLog& log) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& p : log.all())
    out.push_back({{"severity", severityName(p.severity)},
                   {"what", p.what},
                   {"count", p.count},
                   {"example", p.example}});
  return out;
}

// ASTRA-sim's configurations beside the ranks, fitted to the export; what was written, as JSON.
Result<nlohmann::json> writeAstraSimConfigs(const chakra::AstraSimFitInput& fitInput, int npus,
                                            const std::string& prefix,
                                            const std::vector<std::string>& inputs) {
  const chakra::AstraSimConfig config = chakra::fitAstraSimConfig(fitInput, npus);
  auto paths = chakra::writeAstraSimConfig(config, prefix, inputs);
  if (!paths) return paths.error();
  return nlohmann::json{{"files", paths->all()},
                        {"network", paths->network},
                        {"system", paths->system},
                        {"memory", paths->memory},
                        {"npus", config.npus},
                        {"bandwidth_gbps", config.bandwidthGBps},
                        {"latency_ns", config.latencyNs},
                        {"collectives_fitted", config.collectivesFitted},
                        {"network_basis", config.networkBasis},
                        {"roofline", config.roofline},
                        {"peak_perf_tflops", config.peakPerfTflops},
                        {"compute_basis", config.computeBasis}};
}

int runConvert(int argc, char** argv) {
  std::string error;
  auto args =
      Args::parse(argc, argv, {"--et", "--kineto", "--linked", "-o", "--rank", "--ranks", "--for"},
                  {"--metadata-nodes", "--keep-unsupported-collectives", "--no-stream-order",
                   "--no-costs", "--no-gaps", "--gzip", "--json", "--force", "-h", "--help"},
                  error);
  if (!args) return fail("convert", error + "\n" + kHelp);
  if (args->flag("-h") || args->flag("--help")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  const auto prefix = args->value("-o");
  if (!prefix) return fail("convert", std::string("missing -o PREFIX\n") + kHelp);
  const auto et = args->value("--et"), kineto = args->value("--kineto");
  if (et && !kineto) return fail("convert", "--et needs the --kineto trace recorded with it");
  const auto linkedInput = args->value("--linked");
  if (static_cast<int>(kineto.has_value()) + static_cast<int>(linkedInput.has_value()) +
          static_cast<int>(!args->positional().empty()) >
      1)
    return fail("convert", "give one of --et/--kineto, --linked or directories");
  if (!kineto && !linkedInput && args->positional().empty())
    return fail("convert", std::string("no input\n") + kHelp);

  auto parseInt = [](const std::optional<std::string>& v, int& out) {
    if (!v) return true;
    try {
      std::size_t used = 0;
      out = std::stoi(*v, &used);
      return used == v->size();
    } catch (...) {
      return false;
    }
  };
  int rankOverride = -1, replicate = 0;
  if (!parseInt(args->value("--rank"), rankOverride) || (args->value("--rank") && rankOverride < 0))
    return fail("convert", "--rank needs a rank number >= 0");
  if (!parseInt(args->value("--ranks"), replicate) || (args->value("--ranks") && replicate < 1))
    return fail("convert", "--ranks needs a count >= 1");

  std::vector<Job> jobs;
  std::vector<std::string> notes;
  if (kineto) {
    jobs.push_back({rankOverride < 0 ? 0 : rankOverride, et.value_or(""), *kineto, {}});
  } else if (linkedInput) {
    jobs.push_back({rankOverride < 0 ? 0 : rankOverride, {}, {}, *linkedInput});
  } else {
    auto found = discoverTraces(args->positional());
    if (!found) return fail("convert", found.error().message);
    notes = found->notes;
    for (const auto& g : found->ranks) {
      if (g.et && g.kineto)
        jobs.push_back({g.rank, *g.et, *g.kineto, {}});
      else if (g.linked)
        jobs.push_back({g.rank, {}, {}, *g.linked});
      else if (g.kineto) {
        jobs.push_back({g.rank, {}, *g.kineto, {}});
        notes.push_back("rank " + std::to_string(g.rank) +
                        ": no execution trace; converted from the Kineto trace alone");
      }
    }
    if (jobs.empty()) return fail("convert", "no Kineto trace or ET+ file in the input");
  }
  if (replicate > 0 && jobs.size() > 1)
    return fail("convert", "--ranks replicates one rank; the input has " +
                               std::to_string(jobs.size()) + " ranks");

  chakra::ConvertOptions copts;
  copts.metadataNodes = args->flag("--metadata-nodes");
  copts.unsupportedCollectivesAsComm = args->flag("--keep-unsupported-collectives");
  copts.streamOrder = !args->flag("--no-stream-order");
  copts.estimateCosts = !args->flag("--no-costs");
  copts.measuredGaps = !args->flag("--no-gaps");
  if (args->flag("--force")) copts.minMatchedEtRatio = 0;
  if (auto engine = args->value("--for"); engine && *engine != "sutra") {
    if (*engine != "astra-sim")
      return fail("convert", "--for '" + *engine + "': expected sutra or astra-sim");
    if (!copts.measuredGaps)
      return fail("convert",
                  "--no-gaps goes with --for sutra: the astra-sim graph is laid out "
                  "from what was measured");
    copts.astraSimTimelines = true;
  }
  chakra::ChakraWriteOptions wopts;
  wopts.gzip = args->flag("--gzip");

  nlohmann::json summary;
  summary["ranks"] = nlohmann::json::array();
  std::vector<std::string> outputs, inputs;
  for (const auto& job : jobs)
    for (const std::string* path : {&job.et, &job.kineto, &job.linked})
      if (!path->empty()) inputs.push_back(*path);
  // The configurations are written after the ranks: checked first, so that a refusal leaves no
  // half an export behind.
  if (auto ok = chakra::checkAstraSimConfigTargets(*prefix, inputs); !ok)
    return fail("convert", ok.error().message);
  chakra::AstraSimFitInput fitInput;
  for (const auto& job : jobs) {
    LinkOptions lopts;
    lopts.rank = job.rank;
    lopts.force = args->flag("--force");
    Result<LinkedTrace> linked = Error{};
    if (job.linked.empty()) {
      wopts.protectedPaths = {job.kineto};
      if (!job.et.empty()) wopts.protectedPaths.push_back(job.et);
      linked = chakra::linkTracePair(job.et, job.kineto, lopts);
    } else {
      wopts.protectedPaths = {job.linked};
      linked = readLinkedEt(job.linked);
    }
    if (!linked) return fail("convert", linked.error().message);
    int rank = job.rank;
    if (kineto && rankOverride < 0 && linked->kineto && linked->kineto->meta.rank)
      rank = *linked->kineto->meta.rank;
    std::vector<int> ranks;
    if (replicate > 0)
      for (int r = 0; r < replicate; ++r) ranks.push_back(r);
    else
      ranks.push_back(rank);
    // Converted and written in one pass: the nodes are never all held as messages.
    fitInput.beginRank();
    std::vector<std::string> written;
    auto conv = chakra::encodeRankFiles(
        *linked, *prefix, ranks, wopts, copts,
        [&fitInput](const chakra::NodeFacts& n) { fitInput.addNode(n); }, written);
    if (!conv) return fail("convert", conv.error().message);
    outputs.insert(outputs.end(), written.begin(), written.end());

    const auto& st = conv->stats;
    nlohmann::json r;
    r["rank"] = rank;
    if (job.linked.empty()) {
      if (!job.et.empty()) r["et"] = job.et;
      r["kineto"] = job.kineto;
    } else {
      r["linked"] = job.linked;
    }
    r["outputs"] = written;
    r["nodes"] = conv->nodeCount;
    nlohmann::json byType = nlohmann::json::object();
    for (const auto& [type, count] : st.nodesByType)
      byType[std::string(chakra::nodeTypeName(static_cast<ChakraProtoMsg::NodeType>(type)))] =
          count;
    r["nodes_by_type"] = byType;
    nlohmann::json edges = nlohmann::json::object();
    for (int k = 0; k < static_cast<int>(chakra::EdgeKind::Count); ++k)
      edges[std::string(chakra::edgeKindName(static_cast<chakra::EdgeKind>(k)))] =
          st.edgeCount(static_cast<chakra::EdgeKind>(k));
    r["edges"] = edges;
    r["cpu_nodes"] = st.cpuNodes;
    r["device_nodes"] = st.deviceNodes;
    r["cycles_broken"] = st.cyclesBroken;
    r["sync_deps_redirected"] = st.syncDepsRedirected;
    r["host_gap_nodes"] = st.hostGapNodes;
    r["device_gap_nodes"] = st.deviceGapNodes;
    r["blocked_ns"] = st.blockedNs;
    r["link"] = {{"matching", linked->report.matching},
                 {"et_ops", linked->report.etOps},
                 {"matched_et_ops", linked->report.matchedEtOps},
                 {"match_ratio", chakra::matchedEtRatio(linked->report)},
                 {"device_ops", linked->report.deviceOps},
                 {"linked_device_ops", linked->report.linkedDeviceOps}};
    r["problems"] = problemsJson(conv->problems);
    summary["ranks"].push_back(r);
    if (!args->flag("--json")) {
      std::printf(
          "rank %d: %zu nodes (%zu CPU, %zu device, %zu gap), %zu edges, %zu cycle edges removed "
          "-> %s%s\n",
          rank, conv->nodeCount, st.cpuNodes, st.deviceNodes, st.hostGapNodes + st.deviceGapNodes,
          st.totalEdges(), st.cyclesBroken, written.front().c_str(),
          written.size() > 1 ? (" .. " + written.back()).c_str() : "");
      for (const auto& p : conv->problems.all())
        std::printf("  %s: %s (%llu), e.g. %s\n", std::string(severityName(p.severity)).c_str(),
                    p.what.c_str(), static_cast<unsigned long long>(p.count), p.example.c_str());
    }
    if (&job == &jobs.back()) {
      keepUntilExit(std::move(linked.value()));
      keepUntilExit(std::move(conv.value()));
    }
  }
  if (copts.astraSimTimelines && replicate == 0 && outputs.size() > 1) {
    // ASTRA-sim starts every rank at 0: the ranks that began later wait that long first.
    auto leads = chakra::alignAstraSimRankStarts(outputs, wopts);
    if (!leads) return fail("convert", leads.error().message);
    summary["astra_sim_rank_leads_us"] = *leads;
    std::string text;
    for (std::size_t r = 0; r < leads->size(); ++r)
      if ((*leads)[r] > 0)
        text += (text.empty() ? "" : ", ") + std::string("rank ") + std::to_string(jobs[r].rank) +
                " " + std::to_string((*leads)[r]) + " us";
    if (!text.empty())
      notes.push_back(
          "ranks that began after the first (aligned on their first collective's end, "
          "each waits that long at its start): " +
          text);
  }
  summary["notes"] = notes;
  const std::size_t files = replicate > 0 ? static_cast<std::size_t>(replicate) : jobs.size();
  auto astraSim = writeAstraSimConfigs(fitInput, static_cast<int>(files), *prefix, inputs);
  if (!astraSim) return fail("convert", astraSim.error().message);
  for (const auto& path : (*astraSim)["files"]) outputs.push_back(path.get<std::string>());
  summary["astra_sim"] = *astraSim;
  summary["outputs"] = outputs;
  if (files < 2)
    notes.push_back(
        "ASTRA-sim needs two or more ranks: rerun with --ranks 2 to replicate this rank");
  if (args->flag("--json")) {
    summary["notes"] = notes;
    std::printf("%s\n", jsonText(summary, 2).c_str());
  } else {
    std::printf("ASTRA-sim: %s (%s; %s)\n", (*astraSim)["network"].get<std::string>().c_str(),
                (*astraSim)["network_basis"].get<std::string>().c_str(),
                (*astraSim)["compute_basis"].get<std::string>().c_str());
    for (const auto& n : notes) std::fprintf(stderr, "note: %s\n", n.c_str());
  }
  return kExitOk;
}

const RegisterCommand reg{{"convert",
                           "convert ET + Kineto traces to Chakra .et files (ASTRA-sim input)", 40,
                           &runConvert}};

}  // namespace
}  // namespace sutra::cli
