// SPDX-License-Identifier: MIT
// `sutra-cli info PATH...`: what each trace file is and holds. Files and directories are
// classified by content (discovery), grouped by rank, read with the reader for their kind and
// summarized; --json prints one document for the whole run.
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "analysis/trace_summary.h"
#include "cli_args.h"
#include "command.h"
#include "io/discover.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli info [--json] PATH...\n"
    "Says what each trace file is and what it holds. PATH is a file or a directory (searched\n"
    "recursively); files are classified by their content, not their names: Kineto traces,\n"
    "PyTorch execution traces (ET), ET+ from a linker and Chakra .et files, plain or gzip.\n\n"
    "For each file: kind, schema, rank, events by category, lanes, devices, time span and the\n"
    "recoverable problems the reader counted. With several files, notes say which files pair\n"
    "up by rank (an ET with its Kineto trace) and which stay unpaired, and why.\n\n"
    "Options:\n"
    "  --json      one JSON document: {\"files\": [{\"path\", \"kind\", \"schema\", \"rank\",\n"
    "              \"events\", \"by_category\": {cat: n}, \"lanes\", \"devices\": [{\"id\",\n"
    "              \"name\"}], \"span_ns\", \"problems\": [{\"severity\", \"what\", \"count\",\n"
    "              \"example\"}]}], \"notes\": [...]}\n"
    "  -h, --help  show this help\n\n"
    "Exit status: 0 when every file was read, 2 on bad input (the message on stderr).\n";

nlohmann::ordered_json toJson(const TraceSummary& s) {
  nlohmann::ordered_json f;
  f["path"] = s.path;
  f["kind"] = std::string(fileKindId(s.kind));
  f["schema"] = s.schema;
  f["rank"] = s.rank ? nlohmann::ordered_json(*s.rank) : nlohmann::ordered_json();
  f["events"] = s.events;
  f["by_category"] = nlohmann::ordered_json::object();
  for (const auto& [cat, n] : s.byCategory) f["by_category"][cat] = n;
  f["lanes"] = s.lanes;
  f["devices"] = nlohmann::ordered_json::array();
  for (const auto& d : s.devices) f["devices"].push_back({{"id", d.id}, {"name", d.name}});
  f["span_ns"] = s.spanNs;
  f["problems"] = nlohmann::ordered_json::array();
  for (const auto& p : s.problems)
    f["problems"].push_back({{"severity", std::string(severityName(p.severity))},
                             {"what", p.what},
                             {"count", p.count},
                             {"example", p.example}});
  return f;
}

void printHuman(const TraceSummary& s) {
  std::printf("%s\n", s.path.c_str());
  std::string kind(fileKindName(s.kind));
  if (!s.schema.empty()) kind += ", schema " + s.schema;
  if (s.rank) kind += ", rank " + std::to_string(*s.rank);
  std::printf("  kind      %s\n", kind.c_str());
  const bool et = s.kind == FileKind::PytorchEt || s.kind == FileKind::LinkedEt;
  const char* lanes =
      et ? (s.lanes == 1 ? "thread" : "threads") : (s.lanes == 1 ? "lane" : "lanes");
  std::printf("  events    %llu on %llu %s", static_cast<unsigned long long>(s.events),
              static_cast<unsigned long long>(s.lanes), lanes);
  if (s.flows > 0) std::printf(", %llu flows", static_cast<unsigned long long>(s.flows));
  std::printf("\n");
  for (const auto& [cat, n] : s.byCategory)
    std::printf("    %-24s %llu\n", cat.c_str(), static_cast<unsigned long long>(n));
  std::string devices;
  for (const auto& d : s.devices)
    devices += (devices.empty() ? "" : ", ") + d.id + (d.name.empty() ? "" : " " + d.name);
  std::printf("  devices   %s\n", devices.empty() ? "none" : devices.c_str());
  std::printf("  span      %s (%lld ns)\n", formatDuration(s.spanNs).c_str(),
              static_cast<long long>(s.spanNs));
  if (s.problems.empty()) {
    std::printf("  problems  none\n");
  } else {
    std::printf("  problems\n");
    for (const auto& p : s.problems)
      std::printf("    %-7s %s: %llu%s\n", std::string(severityName(p.severity)).c_str(),
                  p.what.c_str(), static_cast<unsigned long long>(p.count),
                  p.example.empty() ? "" : (" (first: " + p.example + ")").c_str());
  }
}

bool startsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

int runInfo(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {}, {"--json", "-h", "--help"}, error);
  if (!args) {
    std::fprintf(stderr, "sutra-cli info: %s\n%s", error.c_str(), kHelp);
    return kExitBadInput;
  }
  if (args->flag("-h") || args->flag("--help")) {
    std::fputs(kHelp, stdout);
    return kExitOk;
  }
  const auto& paths = args->positional();
  if (paths.empty()) {
    std::fprintf(stderr, "sutra-cli info: no trace file or directory given\n%s", kHelp);
    return kExitBadInput;
  }
  auto discovery = discoverTraces(paths);
  if (!discovery) {
    std::fprintf(stderr, "sutra-cli info: %s\n", discovery.error().message.c_str());
    return kExitBadInput;
  }
  const std::set<std::string> named(paths.begin(), paths.end());
  const bool json = args->flag("--json");
  bool failed = false;
  nlohmann::ordered_json doc;
  doc["files"] = nlohmann::ordered_json::array();
  bool first = true;
  for (const auto& file : discovery->files) {
    // In a directory, files that are no trace are only noted; a file named on the command line,
    // or one that cannot be read, is bad input.
    if (file.kind == FileKind::Unknown && !named.count(file.path) &&
        startsWith(file.reason, "not a trace"))
      continue;
    auto summary = summarizeTraceFile(file);
    if (!summary) {
      std::fprintf(stderr, "sutra-cli info: %s\n", summary.error().message.c_str());
      failed = true;
      continue;
    }
    if (json) {
      doc["files"].push_back(toJson(*summary));
    } else {
      if (!first) std::printf("\n");
      printHuman(*summary);
    }
    first = false;
  }
  if (first && !failed) {
    std::fprintf(stderr, "sutra-cli info: no trace file among the %zu file(s) found\n",
                 discovery->files.size());
    for (const auto& n : discovery->notes) std::fprintf(stderr, "  %s\n", n.c_str());
    return kExitBadInput;
  }
  // Pairing notes matter for a directory, or files among which an ET may pair with a Kineto trace.
  bool directory = false, anyEt = false, anyKineto = false;
  for (const auto& p : paths) directory = directory || std::filesystem::is_directory(p);
  for (const auto& f : discovery->files) {
    anyEt = anyEt || f.kind == FileKind::PytorchEt || f.kind == FileKind::LinkedEt;
    anyKineto = anyKineto || f.kind == FileKind::KinetoTrace;
  }
  const bool showNotes = !discovery->notes.empty() && (directory || (anyEt && anyKineto));
  if (json) {
    if (showNotes) doc["notes"] = discovery->notes;
    std::printf("%s\n", jsonText(doc, 2).c_str());
  } else if (showNotes) {
    std::printf("\nnotes\n");
    for (const auto& n : discovery->notes) std::printf("  %s\n", n.c_str());
  }
  return failed ? kExitBadInput : kExitOk;
}

const RegisterCommand reg{
    {"info", "what each trace file is and holds (kind, rank, counts)", 10, &runInfo}};

}  // namespace
}  // namespace sutra::cli
