// SPDX-License-Identifier: MIT
// sutra-cli: every headless job of Sutra. Links core only.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>

#include "cli_args.h"
#include "command.h"
#include "util/huge_pages.h"

namespace sutra::cli {
std::vector<Command>& commands() {
  static std::vector<Command> all;
  return all;
}
}  // namespace sutra::cli

namespace {

void printUsage(FILE* out) {
  auto cmds = sutra::cli::commands();
  std::sort(cmds.begin(), cmds.end(),
            [](const auto& a, const auto& b) { return a.order < b.order; });
  std::fprintf(out,
               "Usage: sutra-cli COMMAND [OPTIONS] [ARGS]\n"
               "Headless jobs of Sutra, the trace explorer for PyTorch workloads.\n\nCommands:\n");
  for (const auto& c : cmds) std::fprintf(out, "  %-14s %s\n", c.name.c_str(), c.summary.c_str());
  std::fprintf(out,
               "\nOptions:\n  -h, --help     show this help\n  -V, --version  print the version\n"
               "  --no-cache     (before COMMAND) parse every trace, neither reading nor writing\n"
               "                 the trace cache (a large trace's model kept in ~/.cache/sutra;\n"
               "                 SUTRA_CACHE=0 does the same, SUTRA_CACHE_DIR moves it)\n"
               "\nRun 'sutra-cli help COMMAND' (or 'sutra-cli COMMAND --help') for a command's "
               "options.\n"
               "Exit status: 0 success, 1 a check failed, 2 bad input or usage.\n");
}

}  // namespace

int main(int argc, char** argv) {
  sutra::useHugePagesForMalloc(argv);
  if (argc < 2) {
    printUsage(stderr);
    return sutra::cli::kExitBadInput;
  }
  if (std::strcmp(argv[1], "--no-cache") == 0) {
    // Read by every load through the session (io/trace_cache.h), whichever command runs.
    ::setenv("SUTRA_CACHE", "0", 1);
    --argc;
    ++argv;
    if (argc < 2) {
      printUsage(stderr);
      return sutra::cli::kExitBadInput;
    }
  }
  const std::string first = argv[1];
  if (first == "help" && argc > 2) {
    // `sutra-cli help COMMAND` is `sutra-cli COMMAND --help`.
    for (const auto& c : sutra::cli::commands()) {
      if (c.name != argv[2]) continue;
      char helpFlag[] = "--help";
      char* helpArgv[] = {helpFlag, nullptr};
      return c.run(1, helpArgv);
    }
    std::fprintf(stderr, "sutra-cli: no command '%s'; 'sutra-cli --help' lists them\n", argv[2]);
    return sutra::cli::kExitBadInput;
  }
  if (first == "-h" || first == "--help" || first == "help") {
    printUsage(stdout);
    return sutra::cli::kExitOk;
  }
  if (first == "--version" || first == "-V") {
    std::printf("sutra-cli %s\n", SUTRA_VERSION);
    return sutra::cli::kExitOk;
  }
  for (const auto& c : sutra::cli::commands()) {
    if (c.name != first) continue;
    try {
      return c.run(argc - 2, argv + 2);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "sutra-cli %s: internal error: %s\n", c.name.c_str(), e.what());
      return sutra::cli::kExitBadInput;
    }
  }
  std::fprintf(stderr, "sutra-cli: unknown command '%s'; 'sutra-cli --help' lists them\n",
               first.c_str());
  return sutra::cli::kExitBadInput;
}
