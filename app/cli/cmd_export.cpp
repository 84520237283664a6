// SPDX-License-Identifier: MIT
// `sutra-cli export --to FORMAT`: every file Sutra writes, from one command. The measured timeline
// as Chrome/Perfetto JSON is written here; Chakra, ET+ and the simulated timeline are the files
// `convert`, `link` and `simulate` write, so export hands those to them with their options.
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis_input.h"
#include "cli_args.h"
#include "command.h"
#include "io/discover.h"
#include "io/kineto_writer.h"
#include "io/readers.h"

namespace sutra::cli {
namespace {

constexpr const char* kHelp =
    "Usage: sutra-cli export --to FORMAT INPUT... -o OUT [OPTIONS]\n"
    "Writes a trace, or what Sutra makes of it, in a format other tools read. Outputs are\n"
    "written to a temporary file and renamed (never half-written) and never replace an input.\n\n"
    "Formats:\n"
    "  chrome      the measured timeline as Chrome-trace / Perfetto JSON (OUT.json, or gzipped\n"
    "              when OUT ends in .gz): whole, one step or a time range. INPUT: a Kineto\n"
    "              trace, or a directory (with --rank R where it holds several ranks).\n"
    "              Options: --step N | --start-ns T --end-ns T, --rank R, --json\n"
    "  chakra      Chakra execution traces OUT.<rank>.et: runs `sutra-cli convert`\n"
    "              (INPUT and options as `sutra-cli convert --help` lists them)\n"
    "  et+         linked ET+ JSON: runs `sutra-cli link` (see `sutra-cli link --help`)\n"
    "  simulated   the simulated timeline as Chrome-trace JSON: runs `sutra-cli simulate`\n"
    "              with its what-if knobs (see `sutra-cli simulate --help`)\n\n"
    "  -h, --help  show this help\n\n"
    "Exit status: 0 success, 2 bad input.\n";

// Runs another subcommand with these arguments (export's own --to removed).
int runCommand(const std::string& name, std::vector<std::string> arguments) {
  for (const auto& c : commands()) {
    if (c.name != name) continue;
    std::vector<char*> argv;
    for (auto& a : arguments) argv.push_back(a.data());
    argv.push_back(nullptr);
    return c.run(static_cast<int>(arguments.size()), argv.data());
  }
  return fail("export", "no '" + name + "' command in this build");
}

// The one Kineto trace that INPUT names: a file, or the rank asked for with --rank in a directory.
Result<std::string> kinetoInput(const std::vector<std::string>& inputs, const Args& args) {
  std::optional<int> rank;
  if (auto r = args.value("--rank")) {
    auto n = parseInteger(*r, "--rank");
    if (!n) return n.error();
    rank = static_cast<int>(*n);
  }
  return findKinetoTrace(inputs, rank);
}

int exportChrome(int argc, char** argv) {
  std::string error;
  auto args = Args::parse(argc, argv, {"--to", "-o", "--step", "--start-ns", "--end-ns", "--rank"},
                          {"--json", "-h", "--help"}, error);
  if (!args) return fail("export", error + "\n" + kHelp);
  const auto out = args->value("-o");
  if (!out) return fail("export", "missing -o OUT (the .json or .json.gz to write)");
  if (args->positional().empty()) return fail("export", "no input trace");
  auto input = kinetoInput(args->positional(), *args);
  if (!input) return fail("export", input.error().message);
  auto spec = windowSpecFrom(*args);
  if (!spec) return fail("export", spec.error().message);

  KinetoWriteOptions options;
  options.protectedPaths = {*input};
  const bool windowed = spec->step || spec->start || spec->end;
  std::shared_ptr<const Trace> trace;
  if (windowed) {
    auto loaded =
        loadAnalysisInput(*input, {.etPath = {}, .wholeTraceTable = false, .syncs = false});
    if (!loaded) return fail("export", loaded.error().message);
    auto window = resolveWindow(*(*loaded)->trace, (*loaded)->steps(), *spec);
    if (!window) return fail("export", window.error().message);
    options.window = *window;
    trace = (*loaded)->trace;
  } else {
    auto read = readKinetoTrace(*input);
    if (!read) return fail("export", read.error().message);
    trace = std::make_shared<const Trace>(std::move(read).value());
  }
  if (auto written = writeKinetoTrace(*trace, *out, options); !written)
    return fail("export", written.error().message);

  std::size_t events = 0;
  for (const auto& e : trace->events)
    if (!options.window || keptByWindow(e, *options.window)) ++events;
  if (args->flag("--json")) {
    nlohmann::json j{{"input", *input}, {"output", *out}, {"events", events}};
    if (options.window)
      j["window"] = {{"start_ns", options.window->start}, {"end_ns", options.window->end}};
    std::printf("%s\n", jsonText(j, 2).c_str());
  } else {
    std::printf("wrote %s: %zu of %zu events%s\n", out->c_str(), events, trace->events.size(),
                options.window ? (" in " + formatDuration(options.window->length())).c_str() : "");
  }
  return kExitOk;
}

int runExport(int argc, char** argv) {
  std::vector<std::string> rest;
  std::string format;
  bool help = false;
  for (int i = 0; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--to" && i + 1 < argc) {
      format = argv[++i];
    } else if (a.rfind("--to=", 0) == 0) {
      format = a.substr(5);
    } else {
      if (a == "-h" || a == "--help") help = true;
      rest.push_back(a);
    }
  }
  if (format.empty()) {
    if (help) {
      std::fputs(kHelp, stdout);
      return kExitOk;
    }
    return fail("export",
                std::string("missing --to FORMAT (chrome, chakra, et+ or simulated)\n") + kHelp);
  }
  if (format == "chrome") {
    if (help) {
      std::fputs(kHelp, stdout);
      return kExitOk;
    }
    return exportChrome(argc, argv);
  }
  const ShownCommand shown("export");  // convert's, link's, simulate's messages say "export"
  if (format == "chakra") return runCommand("convert", rest);
  if (format == "et+" || format == "etplus") return runCommand("link", rest);
  if (format == "simulated") {
    if (!help && std::find(rest.begin(), rest.end(), "-o") == rest.end())
      return fail("export", "missing -o OUT (the simulated timeline's .json)");
    return runCommand("simulate", rest);
  }
  return fail("export", "unknown format '" + format + "': chrome, chakra, et+ or simulated");
}

const RegisterCommand reg{{"export",
                           "write Chrome/Perfetto JSON, Chakra .et, ET+ or the simulated timeline",
                           80, &runExport}};

}  // namespace
}  // namespace sutra::cli
