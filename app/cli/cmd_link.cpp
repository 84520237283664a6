// SPDX-License-Identifier: MIT
// `sutra-cli link`: PyTorch ET + Kineto trace -> ET+ JSON (the file chakra_trace_link writes), for
// one pair or every rank of a directory, with a summary of what matched and what did not.
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_args.h"
#include "command.h"
#include "io/discover.h"
#include "io/readers.h"
#include "link/et_plus_writer.h"
#include "link/linked_trace.h"
#include "model/time.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli link --et ET --kineto KINETO [-o OUT.json] [OPTIONS]\n"
    "       sutra-cli link DIR... -o OUTDIR [OPTIONS]\n"
    "Links a PyTorch execution trace with the Kineto trace recorded with it and writes ET+ JSON\n"
    "(the ET with Kineto times, inter-thread and sync dependencies, and device ops as child "
    "nodes,\n"
    "in chakra_trace_link's field names, so chakra_converter reads it).\n"
    "ET ops are matched by rf_id where Kineto has Record function ids, else by aligning op names\n"
    "with the Kineto iteration that needs the fewest edits (the first of equal ones).\n"
    "With DIR, every rank with both traces is linked into OUTDIR/et_plus_<RANK>.json.\n\n"
    "Options:\n"
    "  --et FILE          the PyTorch execution trace (.json or .json.gz)\n"
    "  --kineto FILE      the Kineto trace (.json or .json.gz)\n"
    "  -o PATH            the ET+ file to write (a directory with DIR); without it, only the\n"
    "                     summary is printed\n"
    "  --rank R           the rank to report (default: the Kineto trace's distributedInfo, else "
    "0)\n"
    "  --step N           link within ProfilerStep#N (see --annotation)\n"
    "  --iteration K      link to candidate iteration K (0-based) instead of the best one\n"
    "  --annotation NAME  the iteration annotation (default ProfilerStep: windows NAME#N)\n"
    "  --instance I       link within instance I (0-based) of the annotation\n"
    "  --gap-us US        idle gap that starts an inter-thread dependency group (default 1000)\n"
    "  --force            link even traces that look like two different runs (pid, time, ops)\n"
    "  --json             print the summary as JSON\n"
    "  -h, --help         show this help\n";

template <typename T>
bool parseNumber(const std::string& text, T& out) {
  try {
    std::size_t used = 0;
    const long long v = std::stoll(text, &used);
    if (used != text.size()) return false;
    out = static_cast<T>(v);
    return true;
  } catch (...) {
    return false;
  }
}

nlohmann::json summaryJson(const LinkedTrace& linked) {
  const auto& r = linked.report;
  nlohmann::json unlinked = nlohmann::json::array();
  for (const auto& p : r.unlinked.all())
    unlinked.push_back({{"reason", p.what}, {"count", p.count}, {"example", p.example}});
  nlohmann::json problems = nlohmann::json::array();
  for (const auto& p : linked.problems.all())
    problems.push_back({{"severity", std::string(severityName(p.severity))},
                        {"what", p.what},
                        {"count", p.count},
                        {"example", p.example}});
  nlohmann::json j = {{"rank", linked.rank},
                      {"et_ops", r.etOps},
                      {"matched_et_ops", r.matchedEtOps},
                      {"device_ops", r.deviceOps},
                      {"linked_device_ops", r.linkedDeviceOps},
                      {"unlinked", unlinked},
                      {"streams", r.streams},
                      {"inter_thread_deps", r.interThreadDeps},
                      {"sync_deps", r.syncDeps},
                      {"matching", r.matching},
                      {"iteration", r.iteration},
                      {"iterations", r.iterationCount},
                      {"candidate_iterations", r.candidateIterations},
                      {"iteration_edits", r.iterationEdits},
                      {"window_ns", {r.windowStart, r.windowEnd}},
                      {"problems", problems}};
  return j;
}

void printSummary(const LinkedTrace& linked, const std::string& output) {
  const auto& r = linked.report;
  const double pct =
      r.etOps ? 100.0 * static_cast<double>(r.matchedEtOps) / static_cast<double>(r.etOps) : 0.0;
  std::printf("rank %d: matched %zu of %zu ET ops (%.1f%%) by %s", linked.rank, r.matchedEtOps,
              r.etOps, pct, r.matching.c_str());
  if (r.matching == "alignment")
    std::printf(", iteration %d of %d (%d equally good, %zu edits)", r.iteration, r.iterationCount,
                r.candidateIterations, r.iterationEdits);
  std::printf("\n  window %s long; device ops: %zu linked of %zu on %zu stream(s)\n",
              formatDuration(r.windowEnd - r.windowStart).c_str(), r.linkedDeviceOps, r.deviceOps,
              r.streams.size());
  std::printf("  dependencies: %zu inter-thread, %zu sync\n", r.interThreadDeps, r.syncDeps);
  if (r.candidateIterations > 1 && r.matching == "alignment")
    std::printf(
        "  note: %d iterations match equally; the first was taken (--iteration K picks another)\n",
        r.candidateIterations);
  for (const auto& p : r.unlinked.all())
    std::printf("  unlinked: %s: %llu (e.g. %s)\n", p.what.c_str(),
                static_cast<unsigned long long>(p.count), p.example.c_str());
  for (const auto& p : linked.problems.all())
    std::printf("  %s: %s: %llu (e.g. %s)\n", std::string(severityName(p.severity)).c_str(),
                p.what.c_str(), static_cast<unsigned long long>(p.count), p.example.c_str());
  if (!output.empty()) std::printf("  wrote %s\n", output.c_str());
}

// Links one pair; on failure prints the reason and returns nullopt.
std::optional<LinkedTrace> linkPair(const std::string& etPath, const std::string& kinetoPath,
                                    LinkOptions options, bool rankGiven) {
  auto et = readPytorchEt(etPath);
  if (!et) {
    std::fprintf(stderr, "sutra-cli link: %s\n", et.error().message.c_str());
    return std::nullopt;
  }
  auto kineto = readKinetoTrace(kinetoPath);
  if (!kineto) {
    std::fprintf(stderr, "sutra-cli link: %s\n", kineto.error().message.c_str());
    return std::nullopt;
  }
  if (!rankGiven && kineto->meta.rank) options.rank = *kineto->meta.rank;
  auto linked = linkTraces(std::make_shared<const EtTrace>(std::move(et).value()),
                           std::make_shared<const Trace>(std::move(kineto).value()), options);
  if (!linked) {
    std::fprintf(stderr, "sutra-cli link: %s\n", linked.error().message.c_str());
    return std::nullopt;
  }
  return std::move(linked).value();
}

// Writes the ET+ file, never over one of the inputs it was linked from.
bool write(const LinkedTrace& linked, const std::string& path,
           const std::vector<std::string>& inputs) {
  if (auto s = writeEtPlus(linked, path, inputs); !s) {
    std::fprintf(stderr, "sutra-cli link: %s\n", s.error().message.c_str());
    return false;
  }
  return true;
}

int runLink(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv,
                          {"--et", "--kineto", "-o", "--rank", "--step", "--iteration",
                           "--annotation", "--instance", "--gap-us"},
                          {"--json", "--force", "-h", "--help"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli link: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("-h") || args->flag("--help")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  LinkOptions options;
  bool rankGiven = false;
  auto number = [&](const char* name, auto& field) {
    auto v = args->value(name);
    if (!v) return true;
    std::int64_t n = 0;
    if (!parseNumber(*v, n)) {
      std::fprintf(stderr, "sutra-cli link: %s: not a number: '%s'\n", name, v->c_str());
      return false;
    }
    field = static_cast<std::remove_reference_t<decltype(field)>>(n);
    return true;
  };
  std::int64_t step = 0, gapUs = 1000;
  int iteration = 0, instance = 0;
  if (!number("--rank", options.rank) || !number("--step", step) ||
      !number("--iteration", iteration) || !number("--instance", instance) ||
      !number("--gap-us", gapUs))
    return kExitBadInput;
  rankGiven = args->value("--rank").has_value();
  if (args->value("--step")) options.step = step;
  if (args->value("--iteration")) options.iteration = iteration;
  if (args->value("--instance")) options.instance = instance;
  if (auto a = args->value("--annotation")) options.annotation = *a;
  options.force = args->flag("--force");
  options.interThreadGapNs = gapUs * 1000;
  const bool json = args->flag("--json");
  const std::string output = args->value("-o").value_or("");

  const auto etPath = args->value("--et");
  const auto kinetoPath = args->value("--kineto");
  if (etPath || kinetoPath) {
    if (!etPath || !kinetoPath || !args->positional().empty()) {
      std::fprintf(stderr, "sutra-cli link: give both --et and --kineto, or directories\n%s",
                   kHelp);
      return kExitBadInput;
    }
    auto linked = linkPair(*etPath, *kinetoPath, options, rankGiven);
    if (!linked) return kExitBadInput;
    if (!output.empty() && !write(*linked, output, {*etPath, *kinetoPath})) return kExitBadInput;
    if (json) {
      auto j = summaryJson(*linked);
      if (!output.empty()) j["output"] = output;
      std::cout << jsonText(j) << "\n";
    } else {
      printSummary(*linked, output);
    }
    return kExitOk;
  }

  if (args->positional().empty()) {
    std::fprintf(stderr, "sutra-cli link: nothing to link\n%s", kHelp);
    return kExitBadInput;
  }
  if (output.empty()) {
    std::fprintf(stderr, "sutra-cli link: -o OUTDIR is needed when linking directories\n");
    return kExitBadInput;
  }
  auto found = discoverTraces(args->positional());
  if (!found) {
    std::fprintf(stderr, "sutra-cli link: %s\n", found.error().message.c_str());
    return kExitBadInput;
  }
  std::error_code ec;
  std::filesystem::create_directories(output, ec);
  if (ec || !std::filesystem::is_directory(output)) {
    std::fprintf(stderr, "sutra-cli link: %s: cannot create the output directory\n",
                 output.c_str());
    return kExitBadInput;
  }
  nlohmann::json ranks = nlohmann::json::array();
  int linkedRanks = 0;
  bool failed = false;
  for (const auto& group : found->ranks) {
    if (!group.et || !group.kineto) continue;
    LinkOptions rankOptions = options;
    rankOptions.rank = group.rank;
    auto linked = linkPair(*group.et, *group.kineto, rankOptions, true);
    if (!linked) {
      failed = true;
      continue;
    }
    const std::string path =
        (std::filesystem::path(output) / ("et_plus_" + std::to_string(group.rank) + ".json"))
            .string();
    if (!write(*linked, path, {*group.et, *group.kineto})) {
      failed = true;
      continue;
    }
    ++linkedRanks;
    if (json) {
      auto j = summaryJson(*linked);
      j["et"] = *group.et;
      j["kineto"] = *group.kineto;
      j["output"] = path;
      ranks.push_back(std::move(j));
    } else {
      printSummary(*linked, path);
    }
  }
  if (json) {
    std::cout << jsonText(nlohmann::json{{"ranks", ranks}, {"notes", found->notes}}) << "\n";
  } else {
    for (const auto& note : found->notes) std::printf("note: %s\n", note.c_str());
  }
  if (linkedRanks == 0) {
    std::fprintf(stderr,
                 "sutra-cli link: no rank with both an execution trace and a Kineto trace in %s\n",
                 args->positional().front().c_str());
    return kExitBadInput;
  }
  return failed ? kExitBadInput : kExitOk;
}

const RegisterCommand reg{
    {"link", "link a PyTorch ET with its Kineto trace into ET+ JSON", 20, &runLink}};

}  // namespace
}  // namespace sutra::cli
